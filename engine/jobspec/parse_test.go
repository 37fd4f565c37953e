package jobspec_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/internal/poserr"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestParseFull parses a file that sets every key to something other than
// its default, so a key that is read into the wrong field, or not at all,
// shows up.
func TestParseFull(t *testing.T) {
	got, err := jobspec.Load(filepath.Join("testdata", "full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := jobspec.Spec{
		Name:        "sliding-dedup",
		Description: "Sliding counts after a dedup stage,\nfrom a replayed file.\n",
		Source: jobspec.Source{
			Rate:         2000,
			Devices:      7,
			Actions:      []string{"login", "logout"},
			Disorder:     1500 * time.Millisecond,
			LateFraction: 0.25,
			LateBy:       time.Minute,
			Watermark:    0,
			Trigger:      250 * time.Millisecond,
			Start:        time.Date(2025, 6, 30, 21, 59, 59, 0, time.UTC),
			File:         filepath.Join("testdata", "events.jsonl"), // relative to the job file
		},
		Operators: []jobspec.Operator{
			{Name: "parse", Kind: "parse", Parallelism: 4, Partition: "rebalance"},
			{Name: "keep", Kind: "filter", Parallelism: 4, Partition: "forward", Drop: []string{"logout"}},
			{Name: "dedup", Kind: "dedup", Parallelism: 3, Partition: "hash"},
			{Name: "reshape", Kind: "map", Parallelism: 3, Partition: "forward"},
			{Name: "count_2", Kind: "window-count", Parallelism: 16, Partition: "hash", Window: time.Minute, Slide: 15 * time.Second},
		},
		Dependencies: []jobspec.Dependency{
			{Name: "flink-connector-jdbc", Kind: "connector", Version: "3.1.2-1.17", Provides: "jdbc"},
			{Name: "mysql-connector-j", Kind: "driver", Version: "8.4", Provides: "com.mysql.cj.jdbc.Driver"},
		},
	}
	if !got.Source.Start.Equal(want.Source.Start) {
		t.Errorf("start = %v, want %v", got.Source.Start, want.Source.Start)
	}
	got.Source.Start = want.Source.Start // same instant; the zone differs
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load(full.yaml):\n got %+v\nwant %+v", got, want)
	}
	if d := got.WithDefaults(); !reflect.DeepEqual(d, got) {
		t.Errorf("a parsed spec is not a fixed point of WithDefaults:\n got %+v\nwant %+v", d, got)
	}
}

// TestSchemaExample keeps the example in SCHEMA.md (pasted into the README)
// a valid job with the nodes the text says it has.
func TestSchemaExample(t *testing.T) {
	doc, err := os.ReadFile("SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("SCHEMA.md has no ```yaml block")
	}
	s, err := jobspec.Parse("SCHEMA.md", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	want := "`source`, `parse`, `views`, `count[0]`,\n`count[1]`, `sink`"
	var names []string
	for _, n := range s.Nodes() {
		names = append(names, "`"+n+"`")
	}
	if got := strings.Join(names, ", "); strings.ReplaceAll(got, "`count[0]`, ", "`count[0]`,\n") != want || !contains(string(doc), want) {
		t.Errorf("nodes %s; SCHEMA.md should say %q", got, want)
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := jobspec.Parse("j.yaml", []byte(`
name: j
source:
  disorder: 0s      # zero is kept, not replaced by the default
  late_fraction: 0
  rate:             # empty is the same as left out
operators:
  - {name: c, kind: window-count, window: 10s}
`))
	if err != nil {
		t.Fatal(err)
	}
	src := s.Source
	if src.Disorder != 0 || src.LateFraction != 0 || src.Rate != 100 || src.LateBy != 30*time.Second {
		t.Errorf("source = %+v", src)
	}
	want := jobspec.Operator{Name: "c", Kind: "window-count", Parallelism: 1, Partition: "hash", Window: 10 * time.Second, Slide: 10 * time.Second}
	if !reflect.DeepEqual(s.Operators[0], want) {
		t.Errorf("operator = %+v, want %+v", s.Operators[0], want)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := jobspec.Load(filepath.Join(t.TempDir(), "none.yaml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want fs.ErrNotExist", err)
	}
}

func TestLoadAbsoluteSourceFile(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "elsewhere", "e.jsonl")
	job := filepath.Join(dir, "j.yaml")
	text := "name: j\nsource: {file: '" + abs + "'}\noperators: [{name: m, kind: map}]\n"
	if err := os.WriteFile(job, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := jobspec.Load(job)
	if err != nil {
		t.Fatal(err)
	}
	if s.Source.File != abs {
		t.Errorf("file = %q, want %q", s.Source.File, abs)
	}
}

func TestParseErrors(t *testing.T) {
	const ops = "operators: [{name: m, kind: map}]\n"
	tests := []struct {
		name string
		in   string
		at   string   // the "file:line:col: " prefix
		want []string // words the message must contain
	}{
		{"empty", "", "j.yaml:1:1: ", []string{"empty document"}},
		{"only comments", "# nothing\n", "j.yaml:1:1: ", []string{"empty document"}},
		{"only a marker", "---\n", "j.yaml:1:1: ", []string{"empty document"}},
		{"two documents", "name: a\n" + ops + "---\nname: b\n", "j.yaml:3:1: ", []string{"second YAML document", "the file holds one"}},
		{"not a mapping", "- a\n- b\n", "j.yaml:1:1: ", []string{"expected a job", "got a list"}},
		{"scalar", "hello\n", "j.yaml:1:1: ", []string{"expected a job", "got a string"}},
		{"syntax", "name: j\n  kind: x\n", "j.yaml:2: ", []string{"invalid YAML: mapping values are not allowed"}},
		{"unclosed flow", "name: j\noperators: [{name: m\n", "j.yaml:2:", []string{"invalid YAML"}},
		{"tab", "name: j\n\tsource: {}\n", "j.yaml:2: ", []string{"invalid YAML: found a tab character"}},
		{"unknown top key", "name: j\nopertors: []\n", "j.yaml:2:1: ", []string{`unknown key "opertors" in job`, "known keys: name, description, source, operators, connector, driver, dependencies"}},
		{"unknown source key", "name: j\nsource:\n  rates: 5\n" + ops, "j.yaml:3:3: ", []string{`unknown key "rates" in source`, "rate, devices, actions"}},
		{"unknown operator key", "name: j\noperators:\n  - name: m\n    kind: map\n    widnow: 1s\n", "j.yaml:5:5: ", []string{`unknown key "widnow" in operator`, "window, slide, drop"}},
		{"unknown dependency key", ops + "name: j\ndependencies:\n  - {name: d, kind: driver, jar: x}\n", "j.yaml:4:29: ", []string{`unknown key "jar" in dependency`, "version, provides"}},
		{"duplicate top key", "name: a\nname: b\n", "j.yaml:2:1: ", []string{`duplicate key "name"`, "line 1, column 1"}},
		{"duplicate nested key", "name: j\nsource:\n  rate: 1\n  devices: 2\n  rate: 3\n", "j.yaml:5:3: ", []string{`duplicate key "rate" in source`, "line 3, column 3"}},
		{"duplicate flow key", "name: j\noperators: [{name: m, kind: map, name: n}]\n", "j.yaml:2:34: ", []string{`duplicate key "name" in operator`}},
		{"rate string", "name: j\nsource:\n  rate: fast\n" + ops, "j.yaml:3:9: ", []string{`rate: expected an integer, got string "fast"`}},
		{"rate float", "name: j\nsource:\n  rate: 1.5\n" + ops, "j.yaml:3:9: ", []string{"rate: expected an integer, got number 1.5"}},
		{"rate huge", "name: j\nsource:\n  rate: 0xffffffffffffffff\n" + ops, "j.yaml:3:9: ", []string{"rate: 0xffffffffffffffff is out of range"}},
		{"rate zero", "name: j\nsource:\n  rate: 0\n" + ops, "j.yaml:3:9: ", []string{"rate: 0 records per second is out of range 1..1000000"}},
		{"devices list", "name: j\nsource:\n  devices: [1]\n" + ops, "j.yaml:3:12: ", []string{"devices: expected an integer, got a list"}},
		{"actions scalar", "name: j\nsource:\n  actions: open\n" + ops, "j.yaml:3:12: ", []string{`actions: expected a list, got string "open"`}},
		{"actions item", "name: j\nsource:\n  actions: [open, {a: 1}]\n" + ops, "j.yaml:3:19: ", []string{"actions[1]: expected a string, got a mapping"}},
		{"actions empty", "name: j\nsource:\n  actions: []\n" + ops, "j.yaml:3:12: ", []string{"at least one action"}},
		{"actions repeated", "name: j\nsource:\n  actions:\n    - a\n    - b\n    - a\n" + ops, "j.yaml:6:7: ", []string{`"a" is listed twice`}},
		{"duration without unit", "name: j\nsource:\n  disorder: 5\n" + ops, "j.yaml:3:13: ", []string{"disorder: expected a duration such as 2s", "got integer 5"}},
		{"bad duration", "name: j\nsource:\n  late_by: 5 minutes\n" + ops, "j.yaml:3:12: ", []string{"late_by: expected a duration", `got string "5 minutes"`}},
		{"negative duration", "name: j\nsource:\n  watermark: -5s\n" + ops, "j.yaml:3:14: ", []string{"watermark: -5s must not be negative"}},
		{"file with a NUL", "name: j\nsource:\n  file: \"ev\\0ents.jsonl\"\n" + ops, "j.yaml:3:9: ", []string{"file: expected a file name, got one with a control character"}},
		{"file with an escape", "name: j\nsource:\n  file: \"\\e[2Jx\"\n" + ops, "j.yaml:3:9: ", []string{"file: expected a file name, got one with a control character"}},
		{"zero trigger", "name: j\nsource:\n  trigger: 0s\n" + ops, "j.yaml:3:12: ", []string{"trigger: 0s must be positive"}},
		{"late fraction string", "name: j\nsource:\n  late_fraction: lots\n" + ops, "j.yaml:3:18: ", []string{`late_fraction: expected a number, got string "lots"`}},
		{"late fraction range", "name: j\nsource:\n  late_fraction: 1.01\n" + ops, "j.yaml:3:18: ", []string{"late_fraction: 1.01 is out of range 0..1"}},
		{"late fraction nan", "name: j\nsource:\n  late_fraction: .nan\n" + ops, "j.yaml:3:18: ", []string{"late_fraction: NaN is out of range 0..1"}},
		{"bad start", "name: j\nsource:\n  start: 2026-01-01\n" + ops, "j.yaml:3:10: ", []string{"start: expected an RFC 3339 time", `got string "2026-01-01"`}},
		{"source list", "name: j\nsource: [a]\n" + ops, "j.yaml:2:9: ", []string{"source: expected a mapping, got a list"}},
		{"name missing", ops, "j.yaml:1:1: ", []string{"name: a job needs a name"}},
		{"name empty", "name:\n" + ops, "j.yaml:1:1: ", []string{"name: a job needs a name"}},
		{"name number", "name: 7\n" + ops, "j.yaml:1:7: ", []string{"name: expected a string (put the value in quotes), got integer 7"}},
		{"name invalid", "name: My Job\n" + ops, "j.yaml:1:7: ", []string{`name: "My Job" is not a valid name`}},
		{"operators missing", "name: j\n", "j.yaml:1:1: ", []string{"at least one operator"}},
		{"operators empty", "name: j\noperators: []\n", "j.yaml:2:12: ", []string{"at least one operator"}},
		{"operators mapping", "name: j\noperators:\n  name: m\n", "j.yaml:3:3: ", []string{"operators: expected a list, got a mapping"}},
		{"operator scalar", "name: j\noperators:\n  - parse\n", "j.yaml:3:5: ", []string{`operators[0]: expected a mapping, got string "parse"`}},
		{"operator null", "name: j\noperators:\n  -\n", "j.yaml:3:3: ", []string{"operators[0]: expected a mapping, got nothing"}},
		{"operator no name", "name: j\noperators:\n  - kind: map\n", "j.yaml:3:5: ", []string{"operator 1: name is required"}},
		{"operator bad name", "name: j\noperators:\n  - {name: Count, kind: map}\n", "j.yaml:3:12: ", []string{`operator "Count": not a valid name`}},
		{"operator reserved", "name: j\noperators:\n  - {name: sink, kind: map}\n", "j.yaml:3:12: ", []string{`operator "sink"`, "reserved"}},
		{"operator twice", "name: j\noperators:\n  - {name: m, kind: map}\n  - {name: m, kind: map}\n", "j.yaml:4:12: ", []string{`operator "m": the name is used twice`}},
		{"kind missing", "name: j\noperators:\n  - name: m\n", "j.yaml:3:5: ", []string{`operator "m": unknown kind ""`}},
		{"kind unknown", "name: j\noperators:\n  - name: m\n    kind: join\n", "j.yaml:4:11: ", []string{`unknown kind "join"`, "parse, map, filter, window-count, dedup or breach-check"}},
		{"key unknown", "name: j\noperators:\n  - {name: c, kind: window-count, window: 10s, key: user}\n", "j.yaml:3:53: ", []string{`unknown key "user"`, "action or device"}},
		{"key on a map", "name: j\noperators:\n  - name: m\n    kind: map\n    key: device\n", "j.yaml:5:5: ", []string{"only a window-count operator takes key"}},
		{"partition unknown", "name: j\noperators:\n  - name: m\n    kind: map\n    partition: range\n", "j.yaml:5:16: ", []string{`unknown partition "range"`, "forward, hash or rebalance"}},
		{"parallelism string", "name: j\noperators:\n  - name: m\n    kind: map\n    parallelism: two\n", "j.yaml:5:18: ", []string{`parallelism: expected an integer, got string "two"`}},
		{"parallelism 0", "name: j\noperators:\n  - name: m\n    kind: map\n    parallelism: 0\n", "j.yaml:5:18: ", []string{"parallelism 0 is out of range 1..16"}},
		{"parallelism 17", "name: j\noperators:\n  - {name: m, kind: map, parallelism: 17, partition: hash}\n", "j.yaml:3:39: ", []string{"parallelism 17 is out of range 1..16"}},
		{"forward mismatch", "name: j\noperators:\n  - {name: p, kind: parse}\n  - {name: m, kind: map, parallelism: 2}\n", "j.yaml:4:5: ", []string{"forward needs equal parallelism", "p has 1 and m has 2"}},
		{"forward explicit", "name: j\noperators:\n  - {name: m, kind: map, parallelism: 2, partition: forward}\n", "j.yaml:3:53: ", []string{"forward needs equal parallelism", "source has 1"}},
		{"window on map", "name: j\noperators:\n  - name: m\n    window: 10s\n    kind: map\n", "j.yaml:4:5: ", []string{"window: only a window-count operator takes window; this one is a map"}},
		{"slide on filter", "name: j\noperators:\n  - {name: f, kind: filter, slide: 1s}\n", "j.yaml:3:29: ", []string{"slide: only a window-count operator takes slide"}},
		{"drop on count", "name: j\noperators:\n  - {name: c, kind: window-count, window: 1s, drop: [a]}\n", "j.yaml:3:47: ", []string{"drop: only a filter operator takes drop; this one is a window-count"}},
		{"window missing", "name: j\noperators:\n  - name: c\n    kind: window-count\n", "j.yaml:3:5: ", []string{`operator "c": a window-count needs a positive window`}},
		{"window zero", "name: j\noperators:\n  - {name: c, kind: window-count, window: 0s}\n", "j.yaml:3:43: ", []string{"needs a positive window, got 0s"}},
		{"window bad", "name: j\noperators:\n  - {name: c, kind: window-count, window: ten}\n", "j.yaml:3:43: ", []string{"window: expected a duration", `got string "ten"`}},
		{"slide zero", "name: j\noperators:\n  - {name: c, kind: window-count, window: 10s, slide: 0s}\n", "j.yaml:3:55: ", []string{"slide 0s must be positive"}},
		{"slide too big", "name: j\noperators:\n  - {name: c, kind: window-count, window: 10s, slide: 20s}\n", "j.yaml:3:55: ", []string{"slide 20s must be positive and at most the window 10s"}},
		{"window under 1ms", "name: j\noperators:\n  - {name: c, kind: window-count, window: 1ns}\n", "j.yaml:3:43: ", []string{"from 1ms to 24h0m0s, got 1ns"}},
		{"window fraction of 1ms", "name: j\noperators:\n  - {name: c, kind: window-count, window: 1500us}\n", "j.yaml:3:43: ", []string{"whole number of milliseconds"}},
		{"window over a day", "name: j\noperators:\n  - {name: c, kind: window-count, window: 25h}\n", "j.yaml:3:43: ", []string{"from 1ms to 24h0m0s, got 25h0m0s"}},
		{"slide under 1ms", "name: j\noperators:\n  - {name: c, kind: window-count, window: 1s, slide: 1ns}\n", "j.yaml:3:54: ", []string{"slide must be a whole number of milliseconds from 1ms to the window 1s, got 1ns"}},
		{"too many windows per record", "name: j\noperators:\n  - {name: c, kind: window-count, window: 1h, slide: 1ms}\n", "j.yaml:3:54: ", []string{"3600000 windows; at most 1000"}},
		{"slide not dividing", "name: j\noperators:\n  - name: c\n    kind: window-count\n    window: 10s\n    slide: 3s\n", "j.yaml:6:12: ", []string{"window 10s is not a multiple of slide 3s"}},
		{"drop scalar", "name: j\noperators:\n  - {name: f, kind: filter, drop: scroll}\n", "j.yaml:3:35: ", []string{`drop: expected a list, got string "scroll"`}},
		{"dependencies mapping", ops + "name: j\ndependencies: {name: d}\n", "j.yaml:3:15: ", []string{"dependencies: expected a list, got a mapping"}},
		{"dependency kind", ops + "name: j\ndependencies:\n  - name: d\n    kind: jar\n", "j.yaml:5:11: ", []string{`dependency "d": unknown kind "jar" (want connector or driver)`}},
		{"dependency no name", ops + "name: j\ndependencies:\n  - kind: driver\n", "j.yaml:4:5: ", []string{"dependency 1: name is required"}},
		{"version number", ops + "name: j\ndependencies:\n  - {name: d, kind: driver, version: 8.4}\n", "j.yaml:4:38: ", []string{"version: expected a string (put the value in quotes), got number 8.4"}},
		{"anchor", "name: &n j\n" + ops, "j.yaml:1:7: ", []string{"anchor &n: anchors, aliases and tags are not supported"}},
		{"anchor on a mapping", "name: j\nsource: &s {rate: 1}\n" + ops, "j.yaml:2:9: ", []string{"anchor &s: anchors, aliases and tags are not supported; write the value out"}},
		{"alias", "name: j\nsource: {rate: 1}\ndescription: *d\n" + ops, "j.yaml:3:14: ", []string{"alias *d: anchors, aliases and tags are not supported"}},
		{"tag", "name: !!str j\n" + ops, "j.yaml:1:7: ", []string{"tag !!str: anchors, aliases and tags are not supported"}},
		{"merge key", "name: j\n<<: {rate: 1}\n" + ops, "j.yaml:2:1: ", []string{`unknown key "<<" in job`}},
		{"number key", "name: j\n1: x\n" + ops, "j.yaml:2:1: ", []string{`unknown key "1" in job`}},
		{"too many nodes", "name: j\nsource:\n  actions:\n" + strings.Repeat("    - a\n", 1000), "j.yaml:1001:7: ", []string{"more than 1000 keys and list items"}},
		{"deep nesting", strings.Repeat("[\n", 1200) + strings.Repeat("]\n", 1200), "j.yaml:1002:1: ", []string{"more than 1000 keys and list items"}},
		{"deep nesting unclosed", strings.Repeat("[\n", 5000), "j.yaml:5000: ", []string{"invalid YAML: did not find expected node content"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := jobspec.Parse("j.yaml", []byte(tt.in))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", s)
			}
			var e *poserr.Error
			if !errors.As(err, &e) || !errors.Is(err, jobspec.ErrBadJob) {
				t.Fatalf("error %v is a %T, not a *poserr.Error", err, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tt.at) {
				t.Errorf("error %q does not start with %q", msg, tt.at)
			}
			for _, w := range tt.want {
				if !contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	line := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes
	for _, tt := range []struct {
		name, in, want string
	}{
		{"size", strings.Repeat(line, 700), "j.yaml:656:37: the file is longer than 65536 bytes"},
		{"line", "name: j\ndescription: " + strings.Repeat("é", 3000), "j.yaml:2:2001: a line longer than 2000 characters"},
		{"blank lines", "name: j\ndescription: >\n" + strings.Repeat("\n", 200), "j.yaml:103:1: more than 100 blank lines in a row"},
		{"blank lines cr", "name: j\ndescription: |\n" + strings.Repeat(" \r", 101) + "x", "j.yaml:103:1: more than 100 blank lines in a row"},
		{"blank lines crlf", "name: j\n" + strings.Repeat("\t\r\n", 101), "j.yaml:102:1: more than 100 blank lines in a row"},
	} {
		_, err := jobspec.Parse("j.yaml", []byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: Parse() = %v, want %q…", tt.name, err, tt.want)
		}
	}
	// Within the limits, a long file is fine.
	in := "name: j\noperators: [{name: m, kind: map}]\n" + strings.Repeat(line, 600) + strings.Repeat("\n", 100)
	if _, err := jobspec.Parse("j.yaml", []byte(in)); err != nil {
		t.Error(err)
	}
}

// A file that is not a job at all (a job pointed at /etc/passwd) is named
// by kind; none of its text is quoted back.
func TestNotAJobQuotesNothingOfIt(t *testing.T) {
	_, err := jobspec.Parse("passwd", []byte("root:x:0:0:root:/root:/bin/bash\n"))
	if err == nil || !strings.Contains(err.Error(), "got a string") || strings.Contains(err.Error(), "root") {
		t.Fatalf("got %v", err)
	}
}
