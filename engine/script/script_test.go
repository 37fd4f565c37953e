package script_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// designBlock uses every core verb, with the trailing comments a script may
// carry.
const designBlock = `job clicks                         # a built-in job, or: job path/to/job.yaml
set semantics exactly-once         # at-most-once | at-least-once | exactly-once
set ha passive-standby             # none | upstream-backup | passive-standby | active-standby
set mode update                    # append | update | complete
set sink table                     # log | table
set checkpoint.interval 500        # records between barriers
set deployment standalone          # standalone (manual task restarts) | managed (a resource manager replaces them)
set restart fixed-delay attempts=3 delay=10s
set filter bloom n=10000 p=0.01    # none | exact | bloom n=N p=P | bloom m=M k=K
set seed 7
run 2000                           # admit 2000 more source records, process until quiet
run 30s                            # advance virtual time
kill count[1]                      # kill a node now; also: kill jobmanager
kill count[1] at 1200              # kill it once it has processed 1200 records
restart count[1]
expect sink.lost == 0              # any report field (README: Report fields); a failed expect makes ` + "`streamlab run`" + ` exit 1
expect duplicates > 0              # short names for the sink's fields: delivered, lost, duplicates, correct
report
`

func TestDesignBlock(t *testing.T) {
	s, err := script.Parse("design.lab", []byte(designBlock))
	if err != nil {
		t.Fatal(err)
	}
	if s.File != "design.lab" || len(s.Commands) != 18 {
		t.Fatalf("got file %q and %d commands, want design.lab and 18", s.File, len(s.Commands))
	}
	var verbs []string
	for i, c := range s.Commands {
		if c.Line != i+1 || c.Col != 1 {
			t.Errorf("command %d at %d:%d, want %d:1", i, c.Line, c.Col, i+1)
		}
		verbs = append(verbs, c.Verb)
	}
	want := "job set set set set set set set set set run run kill kill restart expect expect report"
	if got := strings.Join(verbs, " "); got != want {
		t.Errorf("verbs\n got %s\nwant %s", got, want)
	}
	if got := s.Commands[8].Text; got != "set filter bloom n=10000 p=0.01" {
		t.Errorf("Text without comment = %q", got)
	}
	// The canonical form of the whole block parses to the same commands.
	again, err := script.Parse("saved.lab", []byte(script.Format(s.Commands)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Commands {
		if !s.Commands[i].Equal(again.Commands[i]) {
			t.Errorf("line %d: %q reparsed as %q", i+1, s.Commands[i], again.Commands[i])
		}
	}
}

func args(texts ...string) []script.Arg {
	var as []script.Arg
	for _, t := range texts {
		as = append(as, script.Arg{Text: t})
	}
	return as
}

func TestParseLineValid(t *testing.T) {
	tests := []struct {
		line string
		want script.Command
	}{
		{"job clicks", script.Command{Verb: "job", Args: args("clicks")}},
		{"job path/to/job.yaml", script.Command{Verb: "job", Args: args("path/to/job.yaml")}},
		{`job "my labs/job #2.yaml"`, script.Command{Verb: "job", Args: args("my labs/job #2.yaml")}},
		{`job C:\labs\x.yaml`, script.Command{Verb: "job", Args: args(`C:\labs\x.yaml`)}},
		{`job "say \"hi\" \\ bye"`, script.Command{Verb: "job", Args: args(`say "hi" \ bye`)}},
		{"set semantics exactly-once", script.Command{Verb: "set", Args: args("semantics", "exactly-once")}},
		{"set source.disorder 0s", script.Command{Verb: "set", Args: args("source.disorder", "0s")}},
		{"\tset\trestart  fixed-delay\tattempts=3 delay=10s  ", script.Command{Verb: "set",
			Args:   args("restart", "fixed-delay"),
			Params: []script.Param{{Name: "attempts", Value: "3"}, {Name: "delay", Value: "10s"}}}},
		{"set filter bloom m=1024 k=3", script.Command{Verb: "set", Args: args("filter", "bloom"),
			Params: []script.Param{{Name: "m", Value: "1024"}, {Name: "k", Value: "3"}}}},
		{"set restart failure-rate max-failures=3 interval=5m delay=1s", script.Command{Verb: "set",
			Args:   args("restart", "failure-rate"),
			Params: []script.Param{{Name: "max-failures", Value: "3"}, {Name: "interval", Value: "5m"}, {Name: "delay", Value: "1s"}}}},
		{`set label "a=b" x=y=z`, script.Command{Verb: "set", Args: args("label", "a=b"),
			Params: []script.Param{{Name: "x", Value: "y=z"}}}},
		{"run 1", script.Command{Verb: "run", Args: args("1"), Count: 1}},
		{"run 10000000", script.Command{Verb: "run", Args: args("10000000"), Count: 10_000_000}},
		{"run 1m30s", script.Command{Verb: "run", Args: args("1m30s"), Duration: 90 * time.Second}},
		{"run 500ms", script.Command{Verb: "run", Args: args("500ms"), Duration: 500 * time.Millisecond}},
		{"run 24h", script.Command{Verb: "run", Args: args("24h"), Duration: 24 * time.Hour}},
		{"kill jobmanager", script.Command{Verb: "kill", Args: args("jobmanager"), Node: "jobmanager"}},
		{"kill source at 0", script.Command{Verb: "kill", Args: args("source", "at", "0"), Node: "source", HasAt: true}},
		{"kill count[10] at 1200#soon", script.Command{Verb: "kill", Args: args("count[10]", "at", "1200"), Node: "count[10]", At: 1200, HasAt: true}},
		{"restart parse", script.Command{Verb: "restart", Args: args("parse"), Node: "parse"}},
		{"expect sink.lost==0", script.Command{Verb: "expect", Args: args("sink.lost", "==", "0"),
			Expr: script.Expr{Field: "sink.lost", Op: "==", Value: script.Value{Kind: script.Number, Text: "0"}}}},
		{"expect filter.measured_fp <= 0.01 # tight", script.Command{Verb: "expect", Args: args("filter.measured_fp", "<=", "0.01"),
			Expr: script.Expr{Field: "filter.measured_fp", Op: "<=", Value: script.Value{Kind: script.Number, Text: "0.01", Num: 0.01}}}},
		{"expect x != -1.5e3", script.Command{Verb: "expect", Args: args("x", "!=", "-1.5e3"),
			Expr: script.Expr{Field: "x", Op: "!=", Value: script.Value{Kind: script.Number, Text: "-1.5e3", Num: -1500}}}},
		{"expect sink.correct == true", script.Command{Verb: "expect", Args: args("sink.correct", "==", "true"),
			Expr: script.Expr{Field: "sink.correct", Op: "==", Value: script.Value{Kind: script.Bool, Text: "true", Bool: true}}}},
		{"expect job.state == failed", script.Command{Verb: "expect", Args: args("job.state", "==", "failed"),
			Expr: script.Expr{Field: "job.state", Op: "==", Value: script.Value{Kind: script.String, Text: "failed"}}}},
		{`expect job.name=="a # b"`, script.Command{Verb: "expect", Args: args("job.name", "==", "a # b"),
			Expr: script.Expr{Field: "job.name", Op: "==", Value: script.Value{Kind: script.String, Text: "a # b"}}}},
		{`expect job.seed>"7"`, script.Command{Verb: "expect", Args: args("job.seed", ">", "7"),
			Expr: script.Expr{Field: "job.seed", Op: ">", Value: script.Value{Kind: script.String, Text: "7"}}}},
		{"report", script.Command{Verb: "report"}},
		{"report # done", script.Command{Verb: "report"}},
		{"step", script.Command{Verb: "step", Count: 1}},
		{"step 25", script.Command{Verb: "step", Args: args("25"), Count: 25}},
		{"pause", script.Command{Verb: "pause"}},
		{"resume", script.Command{Verb: "resume"}},
		{"", script.Command{}},
		{"   \t ", script.Command{}},
		{"# only a comment", script.Command{}},
	}
	for _, tt := range tests {
		got, err := script.ParseLine("t.lab", 1, tt.line)
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("%q:\n got %#v\nwant %#v", tt.line, got, tt.want)
		}
	}
}

func TestPositions(t *testing.T) {
	src := "# a lab\n\n  set filter  bloom n=10000\tp=0.01 # fp\r\nexpect  sink.lost==0  # none lost\n"
	s, err := script.Parse("lab.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	set, exp := s.Commands[0], s.Commands[1]
	want := script.Command{Verb: "set", Line: 3, Col: 3, Text: "set filter  bloom n=10000\tp=0.01",
		Args:   []script.Arg{{"filter", 3, 7}, {"bloom", 3, 15}},
		Params: []script.Param{{"n", "10000", 3, 21}, {"p", "0.01", 3, 29}}}
	if !reflect.DeepEqual(set, want) {
		t.Errorf("set:\n got %#v\nwant %#v", set, want)
	}
	if exp.Line != 4 || exp.Col != 1 || exp.Text != "expect  sink.lost==0" || exp.Expr.Text != "sink.lost==0" {
		t.Errorf("expect at %d:%d text %q expr %q", exp.Line, exp.Col, exp.Text, exp.Expr.Text)
	}
	wantArgs := []script.Arg{{"sink.lost", 4, 9}, {"==", 4, 18}, {"0", 4, 20}}
	if !reflect.DeepEqual(exp.Args, wantArgs) {
		t.Errorf("expect args %v, want %v", exp.Args, wantArgs)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src  string
		want string // the whole error; "..." stands for any text
	}{
		{"job clicks\nrun 10\n    kil count[1]", `lab.txt:3:5: unknown verb "kil"; expected one of job, set, run, kill, fail, restart, expect, report, step, pause, resume, why (did you mean kill?)`},
		{"Report", `lab.txt:1:1: unknown verb "Report"; expected one of job, set, run, kill, fail, restart, expect, report, step, pause, resume, why (did you mean report?)`},
		{`kil "count[1]`, `lab.txt:1:1: unknown verb "kil"; expected one of ... (did you mean kill?)`},
		{"frobnicate", `lab.txt:1:1: unknown verb "frobnicate"; expected one of job, set, run, kill, fail, restart, expect, report, step, pause, resume, why`},
		{"job", `lab.txt:1:4: job needs a job name or a path to a job file, e.g. "job clicks"`},
		{"job my job.yaml", `lab.txt:1:8: job takes one argument, got extra "job.yaml"; quote a path that has spaces`},
		{`job "clicks`, `lab.txt:1:5: unterminated quoted string; add a closing "`},
		{`job "a\tb"`, `lab.txt:1:7: unknown escape in a quoted string; only \" and \\ are allowed`},
		{`job "a"b`, `lab.txt:1:8: expected a space after the closing quote, got "b"`},
		{`job a"b c"`, `lab.txt:1:6: unexpected quote inside "a\"b"; quote the whole argument instead`},
		{"set", `lab.txt:1:4: set needs KEY VALUE, e.g. "set semantics exactly-once"`},
		{"set seed", `lab.txt:1:9: set seed needs a value, e.g. "set seed 7"`},
		{"set 9lives 1", `lab.txt:1:5: bad setting name "9lives"; expected a dotted name like ...`},
		{"set checkpoint..interval 1", `lab.txt:1:5: bad setting name "checkpoint..interval"; ...`},
		{"set restart attempts=3", `lab.txt:1:13: set restart needs a value before its parameters, got "attempts=3"`},
		{"set filter bloom =0.01", `lab.txt:1:18: parameter "=0.01" needs a name before =, e.g. n=10000`},
		{"set filter bloom n=", `lab.txt:1:18: parameter n needs a value after =, e.g. n=3`},
		{"set filter bloom 9=1", `lab.txt:1:18: bad parameter name "9"; ...`},
		{"set filter bloom n=1 p=0.1 n=2", `lab.txt:1:28: parameter n given twice (first at column 18)`},
		{"run", `lab.txt:1:4: run needs a record count or a duration, e.g. "run 2000" or "run 30s"`},
		{"run fast", `lab.txt:1:5: run needs a record count or a duration, got "fast"; e.g. "run 2000" or "run 30s"`},
		{"run 10 20", `lab.txt:1:8: run takes one argument, got extra "20"`},
		{"run 0", `lab.txt:1:5: run needs a positive record count, got 0`},
		{"run -5s", `lab.txt:1:5: run needs a positive duration, got "-5s"`},
		{"run 0s", `lab.txt:1:5: run needs a positive duration, got "0s"`},
		{"run 10000001", `lab.txt:1:5: run count 10000001 is too large; at most 10000000 records per run`},
		{"run 99999999999999999999999", `lab.txt:1:5: run count 99999999999999999999999 is too large; ...`},
		{"run 25h", `lab.txt:1:5: run duration 25h is too long; at most 24h per run`},
		{"run 1_000", `lab.txt:1:5: run needs a record count or a duration, got "1_000"; ...`},
		{"kill", `lab.txt:1:5: kill needs a node name, e.g. "kill count[1]", "kill count[1] at 1200" or "kill sink at commit"`},
		{"fail", `lab.txt:1:5: fail needs a node name, e.g. "fail count[1]" or "fail count[1] at 1200"`},
		{"fail sink at commit", `lab.txt:1:14: "at" needs a non-negative record count, got "commit"; e.g. "fail count[1]" or "fail count[1] at 1200"`},
		{"fail count[1] when 3", `lab.txt:1:15: expected "at N" after the node, got "when"; ...`},
		{"fail count[1] at 3 4", `lab.txt:1:20: fail takes NODE [at N], got extra "4"`},
		{"kill count[x]", `lab.txt:1:6: bad node name "count[x]"; expected a node like count[1], parse, sink or jobmanager`},
		{"kill count[01]", `lab.txt:1:6: bad node name "count[01]"; ...`},
		{"kill count[1] when 5", `lab.txt:1:15: expected "at N" after the node, got "when"; ...`},
		{"kill count[1] at", `lab.txt:1:17: "at" needs a record count, e.g. ...`},
		{"kill count[1] at -1", `lab.txt:1:18: "at" needs a non-negative record count or "commit", got "-1"; ...`},
		{"kill sink at commitx", `lab.txt:1:14: "at" needs a non-negative record count or "commit", got "commitx"; ...`},
		{"kill count[1] at 5 now", `lab.txt:1:20: kill takes NODE [at N], got extra "now"`},
		{"restart", `lab.txt:1:8: restart needs a node name, e.g. "restart count[1]"`},
		{"restart a b", `lab.txt:1:11: restart takes one node, got extra "b"`},
		{"expect", `lab.txt:1:7: expect needs FIELD OP VALUE, e.g. "sink.lost == 0"`},
		{"expect   # nothing", `lab.txt:1:10: expect needs FIELD OP VALUE, e.g. "sink.lost == 0"`},
		{"expect sink.lost", `lab.txt:1:17: expect needs FIELD OP VALUE, e.g. "sink.lost == 0"; sink.lost has no operator`},
		{"expect sink.lost ==", `lab.txt:1:20: expect needs FIELD OP VALUE, e.g. "sink.lost == 0"; sink.lost == has no value`},
		{"expect sink.lost is 0", `lab.txt:1:18: expected a comparison (==, !=, <, <=, >, >=) after sink.lost, got "is"`},
		{"expect sink.lost = 0", `lab.txt:1:18: "=" is not a comparison; did you mean ==?`},
		{"expect sink.lost => 0", `lab.txt:1:18: unknown comparison "=>"; expected one of ==, !=, <, <=, >, >=`},
		{"expect == 0", `lab.txt:1:8: expect needs FIELD OP VALUE, e.g. "sink.lost == 0"; got "==" where a field was expected`},
		{"expect 1x == 0", `lab.txt:1:8: bad field name "1x"; expected a dotted name like sink.lost or job.state`},
		{"expect sink.lost == 0 1", `lab.txt:1:23: unexpected "1" after the expression; ...`},
		{"expect recovery.time_ms < 5s", `lab.txt:1:27: bad number "5s"; quote it to compare as text`},
		{"expect x < 1e999", `lab.txt:1:12: number 1e999 is out of range`},
		{"report now", `lab.txt:1:8: report takes no arguments, got "now"`},
		{"pause 1", `lab.txt:1:7: pause takes no arguments, got "1"`},
		{"step 0", `lab.txt:1:6: step needs a number of steps from 1 to 1000000, got "0"`},
		{"step 1 2", `lab.txt:1:8: step takes at most one count, got extra "2"`},
		{"set x" + strings.Repeat(" y", 64), `lab.txt:1:133: too many arguments; a command takes at most 64`},
		{"report\n" + strings.Repeat("x", 4097), `lab.txt:2:4097: line is 4097 bytes long; at most 4096 are allowed`},
		{"job cl\xffcks", `lab.txt:1:7: invalid UTF-8 (byte 0xff); lab scripts are UTF-8 text`},
		{"job \x00", `lab.txt:1:5: NUL byte; lab scripts are text (is this a binary file?)`},
		{"job a\x1bb", `lab.txt:1:6: control character U+001B; lab scripts are plain text`},
		{"report\rreport", `lab.txt:1:7: line break inside a command; give one command a line`},
		{strings.Repeat("report\n", 10_000) + "report", `lab.txt:10001:1: script is longer than 10000 lines`},
		{strings.Repeat("\n", 10_000) + "#", `lab.txt:10001:1: script is longer than 10000 lines`},
	}
	for _, tt := range tests {
		_, err := script.Parse("lab.txt", []byte(tt.src))
		var se *poserr.Error
		if !errors.As(err, &se) || !errors.Is(err, script.ErrSyntax) {
			t.Errorf("%.40q: got %v, want a *poserr.Error of kind ErrSyntax", tt.src, err)
			continue
		}
		if got := err.Error(); !matches(got, tt.want) {
			t.Errorf("%.40q:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// matches reports whether got is want, where "..." in want matches any text.
func matches(got, want string) bool {
	parts := strings.Split(want, "...")
	if len(parts) == 1 {
		return got == want
	}
	rest, ok := strings.CutPrefix(got, parts[0])
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if !ok || i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return ok && strings.HasSuffix(rest, parts[len(parts)-1])
}

func TestLimitsAccepted(t *testing.T) {
	long := "job " + strings.Repeat("x", script.MaxLineBytes-4)
	src := "\uFEFF" + strings.Repeat("report\r\n", script.MaxLines-1) + long + "\n"
	s, err := script.Parse("big.lab", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Commands) != script.MaxLines {
		t.Errorf("got %d commands, want %d", len(s.Commands), script.MaxLines)
	}
	if _, err := script.ParseLine("t", 1, "set x"+strings.Repeat(" y", script.MaxArgs-1)); err != nil {
		t.Error(err)
	}
}

func TestParseLineErrorPosition(t *testing.T) {
	_, err := script.ParseLine("palette", 0, "kill")
	var se *poserr.Error
	if !errors.As(err, &se) || !errors.Is(err, script.ErrSyntax) || se.File != "palette" || se.Line != 1 || se.Col != 5 {
		t.Fatalf("got %#v", err)
	}
	_, err = script.ParseLine("", 7, "stop")
	if got := err.Error(); !strings.HasPrefix(got, `7:1: unknown verb "stop"`) || !strings.HasSuffix(got, "(did you mean step?)") {
		t.Errorf("got %s", got)
	}
}

func TestStringRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  job   clicks   # c", "job clicks"},
		{`job "my labs/a.yaml"`, `job "my labs/a.yaml"`},
		{`job "plain"`, "job plain"},
		{`job a=b`, "job a=b"},
		{`job ""`, `job ""`},
		{"set\trestart fixed-delay  attempts=3 delay=10s", "set restart fixed-delay attempts=3 delay=10s"},
		{`set label "a=b" n=1 "x y" w`, `set label "a=b" "x y" w n=1`},
		{"run 90s", "run 90s"},
		{"kill count[1]   at 1200", "kill count[1] at 1200"},
		{"expect sink.lost==0", "expect sink.lost == 0"},
		{`expect job.state=="failed"`, "expect job.state == failed"},
		{`expect job.seed == "7"`, `expect job.seed == "7"`},
		{`expect x == "true"`, `expect x == "true"`},
		{`expect x == "-y"`, `expect x == -y`},
		{`expect x == "a<b"`, `expect x == "a<b"`},
		{`expect x == ""`, `expect x == ""`},
		{"step", "step"},
		{"step 3", "step 3"},
	}
	for _, tt := range tests {
		c, err := script.ParseLine("t", 1, tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := c.String(); got != tt.want {
			t.Errorf("%q.String() = %q, want %q", tt.in, got, tt.want)
		}
		again, err := script.ParseLine("t", 1, c.String())
		if err != nil || !again.Equal(c) {
			t.Errorf("%q: reparsed %q as %#v, %v", tt.in, c.String(), again, err)
		}
	}
}

func TestFormatSkipsEmpty(t *testing.T) {
	run, _ := script.ParseLine("t", 1, "run 10")
	got := script.Format([]script.Command{{}, run, {Verb: "report"}})
	if got != "run 10\nreport\n" {
		t.Errorf("Format = %q", got)
	}
}
