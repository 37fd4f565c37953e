package jobspec

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
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

// Bounds on the input, checked before the YAML parser sees it. Its time
// grows with the square of the nesting depth, of the length of some tokens
// (a run of <) and of the number of blank lines ending a block scalar (all
// found by FuzzParse). A job file is a few dozen short lines, so anything
// near these limits is not a job file.
const (
	maxSize       = 64 << 10 // bytes
	maxLine       = 2000     // characters in a line
	maxBlankLines = 100      // in a row
	maxNodes      = 1000     // mapping entries, list items and flow brackets
)

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
// an *poserr.Error that names the file, line and column and says what was expected.
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
	root, err := parseYAML(file, data)
	if err != nil {
		return Spec{}, err
	}
	d := &decoder{file: file, pos: map[string]pos{}}
	s := d.spec(root)
	if d.err != nil {
		return Spec{}, d.err
	}
	if e := s.validate(); e != nil {
		p := d.locate(e.path)
		return Spec{}, poserr.New(ErrBadJob, file, p.line, p.col, e.msg)
	}
	return s, nil
}

// parseYAML parses data into the body of its one document.
func parseYAML(file string, data []byte) (body ast.Node, err error) {
	if e := checkShape(file, data); e != nil {
		return nil, e
	}
	defer func() {
		// A bug in the YAML library must not take the program down: report
		// it as an error in the file instead.
		if r := recover(); r != nil {
			body, err = nil, &poserr.Error{Kind: ErrBadJob, File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("the YAML parser failed: %v", r)}
		}
	}()
	tokens := lexer.Tokenize(string(data))
	n := 0
	for _, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType, token.SequenceEntryType, token.MappingValueType, token.CollectEntryType:
			if n++; n > maxNodes {
				return nil, errorAt(file, tk, fmt.Sprintf("more than %d keys and list items, too many for a job file", maxNodes))
			}
		}
	}
	// Duplicate keys are left to the decoder, which reports them like other
	// key errors.
	f, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		// The library's errors carry the token they are about.
		var located interface {
			GetToken() *token.Token
			GetMessage() string
		}
		if errors.As(err, &located) {
			return nil, errorAt(file, located.GetToken(), "invalid YAML: "+located.GetMessage())
		}
		return nil, &poserr.Error{Kind: ErrBadJob, File: file, Line: 1, Col: 1, Msg: "invalid YAML: " + err.Error()}
	}
	if len(f.Docs) > 1 {
		e := &poserr.Error{Kind: ErrBadJob, File: file, Line: 1, Col: 1, Msg: "a second YAML document: a job file holds one job (remove the ---)"}
		if doc := f.Docs[1]; doc != nil && doc.Start != nil {
			e = errorAt(file, doc.Start, e.Msg)
		} else if doc != nil {
			if p := locationOf(doc.Body); p.line > 0 {
				e.Line, e.Col = p.line, p.col
			}
		}
		return nil, e
	}
	if len(f.Docs) == 0 || f.Docs[0] == nil || f.Docs[0].Body == nil {
		return nil, &poserr.Error{Kind: ErrBadJob, File: file, Line: 1, Col: 1, Msg: "empty document: expected a job with at least a name and operators"}
	}
	return f.Docs[0].Body, nil
}

// checkShape reports where data first goes past maxSize, maxLine or
// maxBlankLines. Like YAML, it takes \n, \r\n and a lone \r as line breaks.
func checkShape(file string, data []byte) *poserr.Error {
	line, col, blanks, blank := 1, 0, 0, true
	tooMuch := func(col int, format string, limit int) *poserr.Error {
		return poserr.New(ErrBadJob, file, line, col, fmt.Sprintf(format, limit))
	}
	for i := 0; i < len(data); i++ {
		if i == maxSize {
			return tooMuch(col+1, "the file is longer than %d bytes, too long for a job file", maxSize)
		}
		switch c := data[i]; {
		case c == '\r' || c == '\n':
			if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			if !blank {
				blanks = 0
			} else if blanks++; blanks > maxBlankLines {
				return tooMuch(1, "more than %d blank lines in a row, too many for a job file", maxBlankLines)
			}
			line, col, blank = line+1, 0, true
			continue
		case c&0xC0 == 0x80: // a UTF-8 continuation byte: same character
			continue
		case c != ' ' && c != '\t':
			blank = false
		}
		if col++; col > maxLine {
			return tooMuch(col, "a line longer than %d characters, too long for a job file", maxLine)
		}
	}
	return nil
}

func errorAt(file string, tk *token.Token, msg string) *poserr.Error {
	e := &poserr.Error{Kind: ErrBadJob, File: file, Line: 1, Col: 1, Msg: msg}
	if tk != nil && tk.Position != nil {
		e.Line, e.Col = tk.Position.Line, tk.Position.Column
	}
	return e
}

// pos is a 1-based line and column.
type pos struct{ line, col int }

// locationOf returns where node n starts: for a block mapping its first key,
// rather than the library's choice (the first colon).
func locationOf(n ast.Node) pos {
	switch v := n.(type) {
	case nil:
		return pos{}
	case *ast.MappingNode:
		if !v.IsFlowStyle && len(v.Values) > 0 && v.Values[0] != nil {
			return locationOf(v.Values[0])
		}
	case *ast.MappingValueNode:
		if v.Key != nil {
			return locationOf(v.Key)
		}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return pos{}
	}
	return pos{tk.Position.Line, tk.Position.Column}
}

// decoder walks the YAML syntax tree by hand rather than unmarshalling into
// structs, so that every error points at the node it is about, unknown keys
// are caught at any depth, and it knows which keys are present: a key left
// out takes its default, a key given as zero stays zero and is validated.
//
// The first error sticks; after it the walk goes on harmlessly and Parse
// reports that one.
type decoder struct {
	file string
	pos  map[string]pos // field path ("operators[1].window") → where its value is
	err  *poserr.Error
}

// entry is a value with the name it goes by in messages (a key, or
// "actions[2]" for a list item) and its field path.
type entry struct {
	key, path string
	keyNode   ast.Node // nil for a list item
	value     ast.Node
}

func (d *decoder) fail(n ast.Node, format string, args ...any) {
	if d.err == nil {
		p := locationOf(n)
		d.err = poserr.New(ErrBadJob, d.file, p.line, p.col, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) expected(e entry, want string) {
	d.fail(e.value, "%s: expected %s, got %s", e.key, want, describe(e.value))
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

func (d *decoder) spec(root ast.Node) Spec {
	d.pos[""] = locationOf(root)
	s := Spec{Source: DefaultSource()}
	switch root.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		d.fail(root, "expected a job (a mapping with name, operators, …), got %s", describe(root))
		return s
	}
	for _, f := range d.mapping(entry{key: "job", value: root}, "job", specKeys) {
		switch f.key {
		case "name":
			s.Name = d.str(f)
		case "description":
			s.Description = d.str(f)
		case "source":
			s.Source = d.source(f)
		case "operators":
			for _, item := range d.list(f) {
				s.Operators = append(s.Operators, d.operator(item))
			}
		case "connector":
			s.Connector = d.str(f)
		case "driver":
			s.Driver = d.str(f)
		case "dependencies":
			for _, item := range d.list(f) {
				s.Dependencies = append(s.Dependencies, d.dependency(item))
			}
		}
	}
	return s
}

func (d *decoder) source(e entry) Source {
	src := DefaultSource()
	for _, f := range d.mapping(e, "source", sourceKeys) {
		switch f.key {
		case "rate":
			src.Rate = d.integer(f)
		case "devices":
			src.Devices = d.integer(f)
		case "actions":
			src.Actions = d.strings(f)
		case "disorder":
			src.Disorder = d.duration(f)
		case "late_fraction":
			src.LateFraction = d.float(f)
		case "late_by":
			src.LateBy = d.duration(f)
		case "watermark":
			if sn, ok := f.value.(*ast.StringNode); ok && sn.Value == "none" {
				src.Watermark = NoWatermark
			} else {
				src.Watermark = d.duration(f)
			}
		case "trigger":
			src.Trigger = d.duration(f)
		case "start":
			src.Start = d.time(f)
		case "file":
			src.File = d.str(f)
		}
	}
	return src
}

func (d *decoder) operator(e entry) Operator {
	o := Operator{Parallelism: 1}
	fields := d.mapping(e, "operator", operatorKeys)
	has := map[string]bool{}
	for _, f := range fields {
		has[f.key] = true
		switch f.key {
		case "name":
			o.Name = d.str(f)
		case "kind":
			o.Kind = d.str(f)
		case "parallelism":
			o.Parallelism = d.integer(f)
		case "partition":
			o.Partition = d.str(f)
		case "window":
			o.Window = d.duration(f)
		case "slide":
			o.Slide = d.duration(f)
		case "drop":
			o.Drop = d.strings(f)
		case "key":
			o.Key = d.str(f)
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
		if want, ok := kindOnly[f.key]; ok && slices.Contains(kinds, o.Kind) && o.Kind != want {
			d.fail(f.keyNode, "%s: only a %s operator takes %s; this one is a %s", f.key, want, f.key, o.Kind)
		}
	}
	return o
}

func (d *decoder) dependency(e entry) Dependency {
	var dep Dependency
	for _, f := range d.mapping(e, "dependency", dependencyKeys) {
		switch f.key {
		case "name":
			dep.Name = d.str(f)
		case "kind":
			dep.Kind = d.str(f)
		case "version":
			dep.Version = d.str(f)
		case "provides":
			dep.Provides = d.str(f)
		}
	}
	return dep
}

// mapping returns the entries of the mapping e in order, after checking each
// key is one of known and appears once; what names the mapping in messages.
// Entries with a null value (rate:) are left out but their place is noted.
func (d *decoder) mapping(e entry, what string, known []string) []entry {
	var pairs []*ast.MappingValueNode
	switch m := e.value.(type) {
	case *ast.MappingNode:
		pairs = m.Values
	case *ast.MappingValueNode: // the library's form of some one-key mappings
		pairs = []*ast.MappingValueNode{m}
	default:
		d.expected(e, "a mapping")
		return nil
	}
	var out []entry
	seen := map[string]pos{}
	for _, p := range pairs {
		if p == nil || p.Key == nil {
			continue
		}
		k := keyText(p.Key)
		if !slices.Contains(known, k) {
			d.fail(p.Key, "unknown key %s in %s; known keys: %s", quote(k), what, strings.Join(known, ", "))
			return nil
		}
		if first, dup := seen[k]; dup {
			d.fail(p.Key, "duplicate key %s in %s (first at line %d, column %d)", quote(k), what, first.line, first.col)
			return nil
		}
		seen[k] = locationOf(p.Key)
		f := entry{key: k, path: join(e.path, k), keyNode: p.Key, value: p.Value}
		if isNull(p.Value) {
			d.pos[f.path] = locationOf(p.Key)
			continue
		}
		d.pos[f.path] = locationOf(p.Value)
		out = append(out, f)
	}
	return out
}

// list returns the items of the list e, each named "key[i]".
func (d *decoder) list(e entry) []entry {
	seq, ok := e.value.(*ast.SequenceNode)
	if !ok {
		d.expected(e, "a list")
		return nil
	}
	items := make([]entry, len(seq.Values))
	for i, v := range seq.Values {
		// An empty item (a lone -) is located after the dash; point at the dash.
		if isNull(v) && len(seq.Entries) == len(seq.Values) && seq.Entries[i] != nil && seq.Entries[i].Start != nil {
			v = ast.Null(seq.Entries[i].Start)
		}
		index := "[" + strconv.Itoa(i) + "]"
		items[i] = entry{key: e.key + index, path: e.path + index, value: v}
		d.pos[items[i].path] = locationOf(v)
	}
	return items
}

func (d *decoder) strings(e entry) []string {
	items := d.list(e)
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, d.str(item))
	}
	return out
}

func (d *decoder) str(e entry) string {
	switch v := e.value.(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value
		}
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		d.expected(e, "a string (put the value in quotes)")
		return ""
	}
	d.expected(e, "a string")
	return ""
}

func (d *decoder) integer(e entry) int {
	if v, ok := e.value.(*ast.IntegerNode); ok {
		switch n := v.Value.(type) {
		case int64:
			if int64(int(n)) == n {
				return int(n)
			}
		case uint64:
			if n <= math.MaxInt {
				return int(n)
			}
		}
		d.fail(e.value, "%s: %s is out of range", e.key, text(e.value))
		return 0
	}
	d.expected(e, "an integer")
	return 0
}

func (d *decoder) float(e entry) float64 {
	switch v := e.value.(type) {
	case *ast.FloatNode:
		return v.Value
	case *ast.InfinityNode:
		return v.Value
	case *ast.NanNode:
		return math.NaN()
	case *ast.IntegerNode:
		switch n := v.Value.(type) {
		case int64:
			return float64(n)
		case uint64:
			return float64(n)
		}
	case *ast.StringNode:
		// The library reads 2e-2 as a string; an unquoted one is a number.
		if v.Token != nil && v.Token.Type == token.StringType {
			if f, err := strconv.ParseFloat(v.Value, 64); err == nil {
				return f
			}
		}
	}
	d.expected(e, "a number")
	return 0
}

const durationWant = "a duration such as 2s, 500ms or 1m30s"

func (d *decoder) duration(e entry) time.Duration {
	var s string
	switch v := e.value.(type) {
	case *ast.StringNode:
		s = v.Value
	case *ast.IntegerNode: // 0 needs no unit; other numbers fail below
		s = text(v)
	default:
		d.expected(e, durationWant)
		return 0
	}
	t, err := time.ParseDuration(s)
	if err != nil {
		d.expected(e, durationWant)
	}
	return t
}

func (d *decoder) time(e entry) time.Time {
	const want = "an RFC 3339 time such as 2026-01-01T12:00:00Z"
	v, ok := e.value.(*ast.StringNode)
	if !ok {
		d.expected(e, want)
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, v.Value)
	if err != nil {
		d.expected(e, want)
	}
	return t
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func keyText(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return text(k)
}

func isNull(n ast.Node) bool {
	_, null := n.(*ast.NullNode)
	return n == nil || null
}

// text is the source text of a scalar node.
func text(n ast.Node) string {
	if n == nil {
		return ""
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// describe says what a node is, for "expected X, got Y" messages.
func describe(n ast.Node) string {
	const unsupported = " (anchors, aliases and tags are not supported in job files)"
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return "null"
	case *ast.StringNode:
		return "string " + quote(v.Value)
	case *ast.LiteralNode:
		return "a block string"
	case *ast.IntegerNode:
		return "integer " + text(n)
	case *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "float " + text(n)
	case *ast.BoolNode:
		return "bool " + text(n)
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AnchorNode:
		return "an anchor" + unsupported
	case *ast.AliasNode:
		return "an alias" + unsupported
	case *ast.TagNode:
		return "a tag " + quote(text(n)) + unsupported
	}
	return n.Type().String()
}
