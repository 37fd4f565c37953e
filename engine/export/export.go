// Package export writes a lab script's job, settings and failure schedule as
// a program for a real engine: Flink 2.3 through PyFlink or Flink SQL, and
// Spark 4.3 through PySpark. A learner takes an experiment from the lab to
// the engine it imitates, and the conformance harness runs the programs to
// check the lab against the real thing.
//
// Export never needs Java or Python: it runs the script in the lab only to
// learn the events its runs admit (written beside the program in the format
// of `streamlab run --dump-source`) and the settings in force, then prints
// text. What the real engine cannot do as the lab does (upstream backup,
// active standby, a kill by node in Spark, ...) is said in a comment in the
// program, never silently dropped.
package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// The targets, as `--to` names them.
const (
	PyFlink  = "pyflink"
	FlinkSQL = "flink-sql"
	PySpark  = "pyspark"
)

// Targets lists the targets in the order help shows them.
var Targets = []string{PyFlink, FlinkSQL, PySpark}

// Versions pinned by every exported program: the releases the conformance
// harness runs them on.
const (
	FlinkVersion = "2.3.0"
	SparkVersion = "4.3.0"
	// FlinkImage is the official image of that release for the compose file.
	FlinkImage = "flink:2.3.0-scala_2.12-java17"
)

// Names of the files an export writes.
const (
	EventsFile  = "events.jsonl"
	ComposeFile = "docker-compose.yaml"
)

// ErrBadInput marks a script export cannot read or run; the error is a
// *poserr.Error at the offending line where there is one.
var ErrBadInput = lab.ErrBadInput

// ErrTarget is returned for an unknown target.
var ErrTarget = errors.New("unknown target")

// Plan is what a lab script asks of a real engine: the job and settings in
// force after its set lines, the events its runs admitted, and its failure
// schedule.
type Plan struct {
	// Script names the script in the programs' headers (its base name).
	Script string
	Spec   jobspec.Spec
	Config engine.Config
	// Semantics and HA are what the lab says is in effect (engine.Guarantee),
	// Note why that differs from what was asked, if it does.
	Semantics engine.Semantics
	HA        engine.HAScheme
	Note      string
	// Events is the source log as JSON Lines; Records how many lines.
	Events  []byte
	Records int64
	// Kills are the script's kill lines that name a node processing records.
	Kills []Kill
	// Dropped are the script's lines no real program can replay (restart,
	// kill jobmanager, kill at commit, expect), each with why.
	Dropped []Dropped
	// RestartUnset is set when the script chose no restart strategy:
	// Config.Restart is then the one the lab resolves, as Flink does (none
	// without checkpoints, exponential-delay with them), and the Flink
	// programs set none either, so that Flink's own default applies.
	RestartUnset bool
}

// Kill is one `kill NODE [at N]` or `fail NODE [at N]` line.
type Kill struct {
	Line int
	Node string
	// Task is set for `fail`: the task throws and its task manager stays,
	// which is exactly what the exported program does. A `kill` loses the
	// task manager, which the program can only stand in for.
	Task bool
	// Op is the operator the node belongs to ("source" or "sink" for
	// those), Subtask its index (0 when the operator has parallelism 1).
	Op      string
	Subtask int
	// After is how many records the node has processed when it fails:
	// N for `kill NODE at N`; for a kill with no `at`, the records the
	// script had admitted by that line (the lab kills at once, before the
	// next run; Immediate is set).
	After     int64
	Immediate bool
}

// Dropped is a line of the script with no counterpart in the program.
type Dropped struct {
	Line int
	Text string
	Why  string
}

// Load runs the script src (named file in errors; a job file it names is
// found relative to it) in the lab and returns its plan. A script the lab
// refuses is refused here with the same positioned error (ErrBadInput).
// seed, when not nil, overrides the script's `set seed`, as `streamlab run
// --seed` does.
func Load(ctx context.Context, file string, src []byte, seed *int64) (*Plan, error) {
	sc, err := script.Parse(file, src)
	if err != nil {
		if se, ok := poserr.As(err, script.ErrSyntax); ok {
			return nil, poserr.New(ErrBadInput, se.File, se.Line, se.Col, se.Msg)
		}
		return nil, poserr.New(ErrBadInput, file, 0, 0, err.Error())
	}
	s := lab.NewSession(file, lab.Options{Seed: seed})
	defer s.Close()
	p := &Plan{Script: path.Base(strings.ReplaceAll(file, `\`, "/"))}
	if file == "-" || file == "" {
		p.Script = "standard input"
	}
	for _, c := range sc.Commands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var admitted int64
		if (c.Verb == script.VerbKill || c.Verb == script.VerbFail) && !c.HasAt && !c.AtCommit && c.Node != engine.JobManager {
			if rt := s.Running(); rt != nil {
				var n lineCounter
				if err := rt.DumpSource(&n); err != nil {
					return nil, err
				}
				admitted = int64(n)
			}
		}
		if err := s.Exec(ctx, c); err != nil {
			if errors.Is(err, lab.ErrBadInput) {
				return nil, err
			}
			// The job could not start (a failed submission, say): without
			// a runtime there are no events to export.
			return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
		}
		p.note(c, s.Spec(), admitted)
	}
	if _, err := s.ReportContext(ctx); err != nil {
		if errors.Is(err, lab.ErrBadInput) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrBadInput, file, err)
	}
	var buf bytes.Buffer
	if err := s.Running().DumpSource(&buf); err != nil {
		return nil, err
	}
	p.Events = buf.Bytes()
	p.Records = int64(bytes.Count(p.Events, []byte("\n")))
	p.Spec, p.Config = s.Spec(), s.Config()
	p.Semantics, p.HA, p.Note, err = engine.Guarantee(p.Config, p.Spec)
	if err != nil {
		return nil, poserr.New(ErrBadInput, file, 0, 0, engine.ConfigReason(err))
	}
	if p.Config.Restart.Kind == "" {
		p.Config.Restart, p.RestartUnset = engine.DefaultRestart(p.HA), true
	}
	return p, nil
}

// note records what command c means for the real program.
func (p *Plan) note(c script.Command, spec jobspec.Spec, admitted int64) {
	switch c.Verb {
	case script.VerbKill, script.VerbFail:
		switch {
		case c.Node == engine.JobManager:
			p.Dropped = append(p.Dropped, Dropped{c.Line, c.Text, "a job manager failure is not a record-level event: on the compose cluster run `docker compose kill jobmanager` (without high availability the job fails with it, as in the lab's jobmanager.ha none)"})
		case c.AtCommit:
			p.Dropped = append(p.Dropped, Dropped{c.Line, c.Text, "the moment between a completed checkpoint and the sink's commit cannot be picked from user code"})
		default:
			op, sub := splitNode(c.Node)
			k := Kill{Line: c.Line, Node: c.Node, Op: op, Subtask: sub, After: c.At, Task: c.Verb == script.VerbFail}
			if !c.HasAt {
				k.After, k.Immediate = admitted, true
			}
			p.Kills = append(p.Kills, k)
		}
	case script.VerbRestart:
		p.Dropped = append(p.Dropped, Dropped{c.Line, c.Text, "the real engine restarts failed tasks itself, by its restart strategy; on the compose cluster a lost task manager comes back with `docker compose start taskmanager`"})
	case script.VerbExpect:
		p.Dropped = append(p.Dropped, Dropped{c.Line, c.Text, "an expectation on the lab's report; compare this program's output with `streamlab run` of the same script"})
	case script.VerbStep:
		p.Dropped = append(p.Dropped, Dropped{c.Line, c.Text, "stepping the lab's scheduler has no counterpart; the records it admitted are in the events file"})
	}
}

// splitNode splits "count[1]" into ("count", 1) and "parse" into ("parse", 0).
func splitNode(node string) (string, int) {
	i := strings.IndexByte(node, '[')
	if i < 0 || !strings.HasSuffix(node, "]") {
		return node, 0
	}
	n := 0
	for _, r := range node[i+1 : len(node)-1] {
		n = n*10 + int(r-'0')
	}
	return node[:i], n
}

// A File is one file of an export, by its name in the output directory.
type File struct {
	Name string
	Data []byte
}

// Files renders plan p for target: the program, the events file and, for
// the Flink targets, the compose file of a one-JobManager, two-TaskManager cluster.
func Files(p *Plan, target string) ([]File, error) {
	var prog File
	switch target {
	case PyFlink:
		prog = File{ProgramName(p, target), []byte(pyflink(p))}
	case FlinkSQL:
		prog = File{ProgramName(p, target), []byte(flinkSQL(p))}
	case PySpark:
		prog = File{ProgramName(p, target), []byte(pyspark(p))}
	default:
		return nil, fmt.Errorf("%w %q; expected %s", ErrTarget, target, strings.Join(Targets, ", "))
	}
	files := []File{prog, {EventsFile, p.Events}}
	if target == PyFlink || target == FlinkSQL {
		files = append(files, File{ComposeFile, []byte(compose(p))})
	}
	return files, nil
}

// ProgramName is the name of the program file for target: the job's name
// and the target, e.g. clicks_pyflink.py or clicks_flink.sql.
func ProgramName(p *Plan, target string) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, p.Spec.Name)
	if name == "" {
		name = "job"
	}
	switch target {
	case FlinkSQL:
		return name + "_flink.sql"
	case PySpark:
		return name + "_pyspark.py"
	}
	return name + "_pyflink.py"
}

// aggregates reports whether the job counts in windows.
func aggregates(s jobspec.Spec) bool {
	return slices.ContainsFunc(s.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
}

// checkpointMillis is the lab's checkpoint interval (records between
// barriers) as the time the source takes to emit them at source.rate: the
// real engines checkpoint by time. Flink refuses less than 10 ms.
func checkpointMillis(p *Plan) int64 {
	ms := p.Config.CheckpointInterval * 1000 / int64(max(p.Spec.Source.Rate, 1))
	return max(ms, 10)
}

// recordsPerTrigger is how many events the source emits in one trigger
// interval: the lab's micro-batch.
func recordsPerTrigger(p *Plan) int64 {
	n := int64(p.Spec.Source.Rate) * p.Spec.Source.Trigger.Milliseconds() / 1000
	return max(n, 1)
}

// millis formats d in milliseconds.
func millis(d time.Duration) int64 { return d.Milliseconds() }

// pyString quotes s as a Python string literal.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// pyList quotes ss as a Python list of strings.
func pyList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = pyString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// sqlString quotes s as a SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// comment writes each line of text as a comment with the prefix ("# " or
// "-- "), wrapping nothing: callers keep lines short.
func comment(b *strings.Builder, prefix, text string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(strings.TrimRight(prefix+l, " ") + "\n")
	}
}

// lineCounter counts the lines written to it: the records admitted so far,
// as the source dump has them.
type lineCounter int64

func (n *lineCounter) Write(b []byte) (int, error) {
	*n += lineCounter(bytes.Count(b, []byte("\n")))
	return len(b), nil
}
