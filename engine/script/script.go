// Package script parses lab scripts: the one command language
// that TUI keys, the command palette, lessons, exercises and `streamlab run`
// all speak.
//
// A script is one command a line; `#` starts a comment that runs to the end
// of the line (outside a quoted string), and blank lines are ignored. Tokens
// are separated by spaces or tabs; a token may be a double-quoted string
// (escapes \" and \\ only) so that paths and texts can hold spaces or '#'.
//
// The parser checks the shape of each command only. It deliberately does not
// know which settings, jobs, nodes or report fields exist: the interpreter
// does, with the job in hand. So every argument keeps its text, line and
// column, and the interpreter can point at the exact token it rejects. The
// package imports nothing else of the engine, so the terminal's command
// palette can use it to check a line as it is typed.
package script

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamlab/streamlab/internal/poserr"
)

// Limits on input, so that no script can make a run or a parse unbounded.
const (
	MaxLineBytes   = 4096           // bytes in one line, without its line break
	MaxLines       = 10_000         // lines in one script
	MaxRunRecords  = 10_000_000     // records in one `run`, counted or timed (rate × duration)
	MaxRunDuration = 24 * time.Hour // virtual time in one `run DURATION`
	MaxSteps       = 1_000_000      // scheduler steps in one `step N`
	MaxArgs        = 64             // arguments after the verb; bounds a script's memory
	// MaxScriptRecords bounds the records all of one script's runs admit
	// together, whatever their unit.
	MaxScriptRecords = 100_000_000
)

// The verbs, in the order error messages list them.
const (
	VerbJob     = "job"     // job NAME_OR_PATH
	VerbSet     = "set"     // set KEY VALUE [WORD | name=value ...]
	VerbRun     = "run"     // run N | run DURATION
	VerbKill    = "kill"    // kill NODE [at N]: its task manager is lost
	VerbFail    = "fail"    // fail NODE [at N]: its task throws, its task manager stays
	VerbRestart = "restart" // restart NODE
	VerbExpect  = "expect"  // expect FIELD OP VALUE
	VerbReport  = "report"  // report
	VerbStep    = "step"    // step [N]
	VerbPause   = "pause"   // pause
	VerbResume  = "resume"  // resume
	VerbWhy     = "why"     // why ROW: the provenance of one sink row
)

var verbs = []string{VerbJob, VerbSet, VerbRun, VerbKill, VerbFail, VerbRestart,
	VerbExpect, VerbReport, VerbStep, VerbPause, VerbResume, VerbWhy}

// StartsJob reports whether verb acts on the running job, so that a
// driver (the terminal lab, the lessons' verifier) starts the job before
// it and a subscriber sees every event it causes; job, set, pause, resume
// and why act on the settings or the screen alone.
func StartsJob(verb string) bool {
	switch verb {
	case VerbRun, VerbStep, VerbKill, VerbFail, VerbRestart, VerbExpect, VerbReport:
		return true
	}
	return false
}

// Script is a parsed lab script.
type Script struct {
	File     string    // as given to Parse; used in error messages
	Commands []Command // in source order; blank and comment lines are dropped
}

// Command is one parsed line.
//
// Args are the tokens after the verb, in order, with quotes removed, except
// the name=value tokens of `set`, which are in Params. So:
//
//	job clicks                      Args: clicks
//	set restart fixed-delay a=3     Args: restart, fixed-delay   Params: a=3
//	run 30s                         Args: 30s
//	kill count[1] at 1200           Args: count[1], at, 1200
//	expect sink.lost==0             Args: sink.lost, ==, 0
//	step                            Args: (none)
//
// The typed fields below are filled in for the verbs that have them and are
// zero otherwise; their positions are those of the matching Args.
type Command struct {
	Verb      string
	Line, Col int    // of the verb; 1-based, Col counts bytes
	Text      string // the source text, trimmed, without its comment
	Args      []Arg
	Params    []Param // set only; in source order, names unique

	Count    int64         // run N: records; step [N]: steps (1 when omitted)
	Duration time.Duration // run DURATION: virtual time
	Node     string        // kill, fail, restart: the node name
	At       int64         // kill|fail NODE at N: records processed by the node
	HasAt    bool          // kill or fail has an `at` clause
	AtCommit bool          // kill NODE at commit: once a checkpoint completed, before the sink commits
	Expr     Expr          // expect
}

// Arg is one argument as written, with quotes removed.
type Arg struct {
	Text      string
	Line, Col int
}

// Param is a name=value argument of `set`, e.g. attempts=3. Values cannot
// be quoted and so hold no spaces.
type Param struct {
	Name, Value string
	Line, Col   int // of the name
}

// Expr is the expression of an `expect`: FIELD OP VALUE.
type Expr struct {
	Field string // a dotted name, e.g. sink.lost
	Op    string // one of == != < <= > >=
	Value Value
	Text  string // as written, trimmed, e.g. "sink.lost==0"; for reports
}

// ValueKind says how an expect value is to be compared.
type ValueKind uint8

// The kinds of an expect value. A bare word and a quoted string are both
// String: `job.state == failed` and `job.state == "failed"` mean the same.
// Quote a text that would otherwise read as a number or a boolean ("7").
const (
	String ValueKind = iota
	Number
	Bool
)

func (k ValueKind) String() string {
	switch k {
	case String:
		return "string"
	case Number:
		return "number"
	case Bool:
		return "bool"
	}
	return fmt.Sprintf("ValueKind(%d)", uint8(k))
}

// Value is the right-hand side of an expect expression.
type Value struct {
	Kind ValueKind
	Text string  // the string, the number as written, or "true"/"false"
	Num  float64 // Kind == Number
	Bool bool    // Kind == Bool
}

// ErrSyntax is matched (errors.Is) by every error Parse and ParseLine
// return; each is a *poserr.Error at the line and column (in bytes, a tab is
// one column) the problem starts.
var ErrSyntax = errors.New("lab script syntax error")

// Param returns the parameter with the given name, if the command has it.
func (c Command) Param(name string) (Param, bool) {
	for _, p := range c.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Parse parses a whole script and returns it, or the first error as a
// *poserr.Error of kind ErrSyntax. file names the script in error messages. A leading UTF-8 byte
// order mark is ignored; lines may end in "\n" or "\r\n".
func Parse(file string, src []byte) (*Script, error) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	s := &Script{File: file}
	for n := 1; len(src) > 0; n++ {
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		if n > MaxLines {
			return nil, poserr.New(ErrSyntax, file, n, 1, fmt.Sprintf("script is longer than %d lines", MaxLines))
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		c, err := ParseLine(file, n, string(line))
		if err != nil {
			return nil, err
		}
		if c.Verb != "" {
			s.Commands = append(s.Commands, c)
		}
	}
	return s, nil
}

// ParseLine parses one line, as the terminal's command palette does; line
// is its number in error messages (values below 1 count as 1). An empty or
// comment-only line gives a zero Command, whose Verb is "". Errors are
// *poserr.Error of kind ErrSyntax.
func ParseLine(file string, line int, text string) (Command, error) {
	line = max(line, 1)
	c, err := parseLine(line, text)
	if err != nil {
		err.File, err.Line = file, line
		return Command{}, err
	}
	return c, nil
}

// Format writes commands as a script, one canonical line each (see
// Command.String), so that the terminal can save a session. Commands with
// an empty Verb are skipped.
func Format(cmds []Command) string {
	var b strings.Builder
	for _, c := range cmds {
		if c.Verb == "" {
			continue
		}
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}
