package jobspec

import (
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// The keys of each mapping in a job file, in the order SCHEMA.md lists them.
var (
	specKeys       = []string{"name", "description", "source", "operators", "connector", "driver", "dependencies"}
	sourceKeys     = []string{"rate", "devices", "actions", "disorder", "late_fraction", "late_by", "watermark", "trigger", "start", "file"}
	operatorKeys   = []string{"name", "kind", "parallelism", "partition", "window", "slide", "drop", "key"}
	dependencyKeys = []string{"name", "kind", "version", "provides"}
)

// kindOnly maps the operator keys that belong to one kind to that kind.
var kindOnly = map[string]string{"window": KindWindowCount, "slide": KindWindowCount, "drop": KindFilter, "key": KindWindowCount}

// Bounds on the input. A job file is a few dozen short lines, so anything
// near these limits is not a job file, and a hostile one costs the parser
// little time.
const maxSize = 64 << 10 // bytes

var limits = yamlpos.Limits{MaxBytes: maxSize, MaxLine: 2000, MaxBlankLines: 100, MaxNodes: 1000}

// Load reads a job file (YAML, see Parse); errors name the file, line and
// column. A relative source.file is taken relative to the job file's
// directory, so a job and its recorded events can move together.
//
// The file is read as untrusted data (a job file may come with a student's
// answer): a regular file, not a link out of its directory, of at most
// 64 KiB.
func Load(path string) (Spec, error) {
	data, err := untrusted.ReadPath(path, maxSize)
	if err != nil {
		return Spec{}, err
	}
	s, err := Parse(path, data)
	if err != nil {
		return Spec{}, err
	}
	if f := s.Source.File; f != "" && !filepath.IsAbs(f) {
		s.Source.File = filepath.Join(filepath.Dir(path), f)
	}
	return s, nil
}

// Parse parses YAML job text; file is the name used in errors. Every error is
// a *poserr.Error of kind ErrBadJob that names the file, line and column (a
// YAML syntax error, its line only) and says what was expected.
// The result has its defaults applied and is valid (see Validate).
//
// The schema (keys are snake_case; every key not marked required is optional):
//
//	name: my-job             # required; [a-z][a-z0-9_-]*
//	description: text
//	source:                  # every key defaults to the clicks job's value
//	  rate: 100              # records per virtual second, 1..1000000
//	  devices: 50            # 1..1000000
//	  actions: [open, close, click, scroll, view]
//	  disorder: 2s           # Go duration strings (300ms, 1m30s); >= 0
//	  late_fraction: 0.02    # 0..1
//	  late_by: 30s
//	  watermark: 5s
//	  trigger: 1s            # > 0
//	  start: 2026-01-01T12:00:00Z   # RFC 3339
//	  file: events.jsonl     # replay JSON Lines instead of generating (relative to the job file)
//	operators:               # required, at least one, in dataflow order
//	  - name: parse          # required; unique; not source, sink or jobmanager
//	    kind: parse          # required: parse | map | filter | window-count | dedup
//	    parallelism: 1       # 1..16, default 1
//	    partition: forward   # forward | hash | rebalance; default hash for
//	                         # window-count and dedup, forward otherwise
//	    window: 10s          # window-count only, required there
//	    slide: 10s           # window-count only, default = window; divides window
//	    drop: [scroll]       # filter only: actions to remove
//	dependencies:
//	  - name: flink-connector-jdbc   # required
//	    kind: connector      # required: connector | driver
//	    version: 3.1.2-1.17  # a string: quote versions that look like numbers
//	    provides: jdbc       # factory identifier or driver class
//
// A key with no value (rate:) is the same as no key. A file holds exactly one
// YAML document; anchors, aliases and tags are not supported. It is small: at
// most 64 KiB, lines of 2000 characters, 100 blank lines in a row and 1000 keys
// and list items. Unknown keys,
// keys of another operator kind (window on a map), duplicate keys, values of
// the wrong type and values Validate rejects are errors.
func Parse(file string, data []byte) (Spec, error) {
	root, err := yamlpos.Parse(ErrBadJob, file, data, limits)
	if err != nil {
		return Spec{}, err
	}
	if root == nil {
		return Spec{}, poserr.New(ErrBadJob, file, 1, 1, "empty document: expected a job with at least a name and operators")
	}
	d := &decoder{Decoder: yamlpos.Decoder{File: file, Kind: ErrBadJob}, pos: map[string]pos{}}
	s := d.spec(root)
	if err := d.Err(); err != nil {
		return Spec{}, err
	}
	if e := s.validate(); e != nil {
		p := d.locate(e.path)
		return Spec{}, poserr.New(ErrBadJob, file, p.line, p.col, e.msg)
	}
	return s, nil
}

// pos is a 1-based line and column.
type pos struct{ line, col int }

// decoder reads the YAML tree field by field rather than unmarshalling
// into structs, so that every error points at the node it is about, unknown
// keys are caught at any depth, and it knows which keys are present: a key
// left out takes its default, a key given as zero stays zero and is
// validated. It notes where each field is, so that Parse can place the
// errors of Validate too.
type decoder struct {
	yamlpos.Decoder
	pos map[string]pos // field path ("operators[1].window") → where its value is
}

// locate returns where the field at path is, or else its nearest enclosing
// field that is in the file: a missing operator name is reported at the
// operator.
func (d *decoder) locate(path string) pos {
	for {
		if p, ok := d.pos[path]; ok && p.line > 0 {
			return p
		}
		if path == "" {
			return pos{1, 1}
		}
		path = path[:max(strings.LastIndexAny(path, ".["), 0)]
	}
}

func (d *decoder) note(e yamlpos.Entry) {
	l, c := e.Pos()
	d.pos[e.Path] = pos{l, c}
}

func (d *decoder) spec(root *yaml.Node) Spec {
	top := yamlpos.Root("job", root)
	d.note(top)
	s := Spec{Source: DefaultSource()}
	if root.Kind != yaml.MappingNode {
		d.Failf(root, "expected a job (a mapping with name, operators, …), got %s", yamlpos.DescribeKind(root))
		return s
	}
	for _, f := range d.mapping(top, "job", specKeys) {
		switch f.Key {
		case "name":
			s.Name = d.String(f)
		case "description":
			s.Description = d.String(f)
		case "source":
			s.Source = d.source(f)
		case "operators":
			for _, item := range d.list(f) {
				s.Operators = append(s.Operators, d.operator(item))
			}
		case "connector":
			s.Connector = d.String(f)
		case "driver":
			s.Driver = d.String(f)
		case "dependencies":
			for _, item := range d.list(f) {
				s.Dependencies = append(s.Dependencies, d.dependency(item))
			}
		}
	}
	return s
}

func (d *decoder) source(e yamlpos.Entry) Source {
	src := DefaultSource()
	for _, f := range d.mapping(e, "source", sourceKeys) {
		switch f.Key {
		case "rate":
			src.Rate = d.integer(f)
		case "devices":
			src.Devices = d.integer(f)
		case "actions":
			src.Actions = d.strings(f)
		case "disorder":
			src.Disorder = d.Duration(f)
		case "late_fraction":
			src.LateFraction = d.Float(f)
		case "late_by":
			src.LateBy = d.Duration(f)
		case "watermark":
			if s, ok := yamlpos.String(f.Value); ok && s == "none" {
				src.Watermark = NoWatermark
			} else {
				src.Watermark = d.Duration(f)
			}
		case "trigger":
			src.Trigger = d.Duration(f)
		case "start":
			src.Start = d.Time(f)
		case "file":
			src.File = d.String(f)
			if strings.ContainsFunc(src.File, unicode.IsControl) {
				// Never echoed: a control character could rewrite the
				// reader's terminal, and a NUL ends a path for the kernel.
				d.FailAt(f, "file: expected a file name, got one with a control character")
				src.File = ""
			}
		}
	}
	return src
}

func (d *decoder) operator(e yamlpos.Entry) Operator {
	o := Operator{Parallelism: 1}
	fields := d.mapping(e, "operator", operatorKeys)
	has := map[string]bool{}
	for _, f := range fields {
		has[f.Key] = true
		switch f.Key {
		case "name":
			o.Name = d.String(f)
		case "kind":
			o.Kind = d.String(f)
		case "parallelism":
			o.Parallelism = d.integer(f)
		case "partition":
			o.Partition = d.String(f)
		case "window":
			o.Window = d.Duration(f)
		case "slide":
			o.Slide = d.Duration(f)
		case "drop":
			o.Drop = d.strings(f)
		case "key":
			o.Key = d.String(f)
		}
	}
	if !has["partition"] {
		o.Partition = defaultPartition(o.Kind)
	}
	if !has["slide"] {
		o.Slide = o.Window
	}
	// Only now is the kind known, whichever order the keys came in. An
	// unknown kind is left for Validate to report.
	for _, f := range fields {
		if want, ok := kindOnly[f.Key]; ok && slices.Contains(kinds, o.Kind) && o.Kind != want {
			d.Failf(f.KeyNode, "%s: only a %s operator takes %s; this one is a %s", f.Key, want, f.Key, o.Kind)
		}
	}
	return o
}

func (d *decoder) dependency(e yamlpos.Entry) Dependency {
	var dep Dependency
	for _, f := range d.mapping(e, "dependency", dependencyKeys) {
		switch f.Key {
		case "name":
			dep.Name = d.String(f)
		case "kind":
			dep.Kind = d.String(f)
		case "version":
			dep.Version = d.String(f)
		case "provides":
			dep.Provides = d.String(f)
		}
	}
	return dep
}

// mapping returns the entries of the mapping e that have a value, noting
// where every entry is; what names the mapping in messages.
func (d *decoder) mapping(e yamlpos.Entry, what string, known []string) []yamlpos.Entry {
	var out []yamlpos.Entry
	for _, f := range d.MappingAll(e, what, known) {
		d.note(f)
		if !yamlpos.IsNull(f.Value) {
			out = append(out, f)
		}
	}
	return out
}

// list returns the items of the list e, noting where each is.
func (d *decoder) list(e yamlpos.Entry) []yamlpos.Entry {
	items := d.List(e)
	for _, item := range items {
		d.note(item)
	}
	return items
}

func (d *decoder) strings(e yamlpos.Entry) []string {
	items := d.list(e)
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, d.String(item))
	}
	return out
}

func (d *decoder) integer(e yamlpos.Entry) int {
	n := d.Int(e)
	if int64(int(n)) != n {
		d.FailAt(e, "%s: %s is out of range", e.Key, yamlpos.Text(e.Value))
		return 0
	}
	return int(n)
}
