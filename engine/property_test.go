package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/internal/refmodel"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/restart"
)

// scenario is a random job, configuration and failure schedule.
type scenario struct {
	spec  jobspec.Spec
	cfg   engine.Config
	steps []step
	desc  []string
	// dir holds the table sink's file, which is read back with SQL.
	dir string
}

// step is one action of a scenario; admissions go to adm too, so that the
// reference model knows where each micro-batch ended.
type step func(rt *engine.Runtime, adm *refmodel.Admissions) error

// dbCount names each run's database file apart.
var dbCount atomic.Int64

// drawSpec draws a job shape: one of the built-in jobs, or 1–4 operator
// stages of parse, map, filter and (last) a tumbling or sliding window
// count, each with a parallelism of 1–4 and forward, hash or rebalance
// edges.
func drawSpec(t *rapid.T) jobspec.Spec {
	if rapid.IntRange(0, 3).Draw(t, "builtin") == 0 {
		spec, _ := jobspec.Builtin(rapid.SampledFrom([]string{"clicks", "passthrough"}).Draw(t, "job"))
		return spec
	}
	spec := jobspec.Spec{Name: "shape", Source: jobspec.DefaultSource()}
	actions := spec.Source.Actions
	prev := 1
	stages := rapid.IntRange(1, 4).Draw(t, "stages")
	for i := range stages {
		kinds := []string{jobspec.KindParse, jobspec.KindMap, jobspec.KindFilter}
		if i == stages-1 {
			kinds = append(kinds, jobspec.KindWindowCount, jobspec.KindWindowCount)
		}
		op := jobspec.Operator{Name: fmt.Sprintf("op%d", i), Kind: rapid.SampledFrom(kinds).Draw(t, "kind"),
			Parallelism: rapid.IntRange(1, 4).Draw(t, "parallelism")}
		partitions := []string{jobspec.PartitionHash, jobspec.PartitionRebalance}
		if op.Parallelism == prev {
			partitions = append(partitions, jobspec.PartitionForward)
		}
		if op.Kind == jobspec.KindWindowCount && op.Parallelism > 1 {
			partitions = []string{jobspec.PartitionHash} // counts per key need keyed input
		}
		op.Partition = rapid.SampledFrom(partitions).Draw(t, "partition")
		switch op.Kind {
		case jobspec.KindFilter:
			op.Drop = rapid.SliceOfNDistinct(rapid.SampledFrom(actions), 0, 2, rapid.ID[string]).Draw(t, "drop")
		case jobspec.KindWindowCount:
			op.Window = time.Duration(rapid.SampledFrom([]int{5, 10, 20}).Draw(t, "window")) * time.Second
			op.Slide = op.Window / time.Duration(rapid.SampledFrom([]int{1, 1, 2, 4}).Draw(t, "slides"))
			op.Key = rapid.SampledFrom([]string{"", jobspec.KeyAction, jobspec.KeyDevice}).Draw(t, "key")
		}
		spec.Operators = append(spec.Operators, op)
		prev = op.Parallelism
	}
	if err := spec.WithDefaults().Validate(); err != nil {
		t.Fatalf("drew an invalid spec: %v", err)
	}
	return spec.WithDefaults()
}

// drawRestart draws a restart strategy that keeps restarting through a
// scenario's few failures, with delays up to a few seconds.
func drawRestart(t *rapid.T) restart.Strategy {
	ms := func(label string, hi int) string { return fmt.Sprintf("%dms", rapid.IntRange(0, hi).Draw(t, label)) }
	var s restart.Strategy
	var err error
	switch rapid.IntRange(0, 2).Draw(t, "restart") {
	case 0:
		s, err = restart.Parse(restart.FixedDelay, map[string]string{"attempts": "1000", "delay": ms("delay", 3000)})
	case 1:
		s, err = restart.Parse(restart.FailureRate, map[string]string{"max": "1000", "interval": "1m", "delay": ms("delay", 3000)})
	default:
		s, err = restart.Parse(restart.Exponential, map[string]string{"initial": "1s", "max": "5s", "jitter": "0.1"})
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func drawScenario(t *rapid.T, semantics engine.Semantics, dir string) scenario {
	spec := drawSpec(t)
	spec.Source.Rate = rapid.SampledFrom([]int{50, 100, 200}).Draw(t, "rate")
	cfg := engine.DefaultConfig()
	cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
	cfg.Semantics = semantics
	aggregates := slices.ContainsFunc(spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
	modes := []engine.Mode{engine.ModeAppend, engine.ModeUpdate}
	if aggregates {
		modes = append(modes, engine.ModeComplete)
	}
	cfg.Mode = rapid.SampledFrom(modes).Draw(t, "mode")
	// The table is read back and compared with the reference model; the
	// log is checked through the engine's own ledger only.
	cfg.Sink = rapid.SampledFrom([]engine.SinkKind{engine.SinkLog, engine.SinkTable, engine.SinkTable}).Draw(t, "sink")
	switch semantics {
	case engine.ExactlyOnce:
		cfg.Sink = engine.SinkTable
		cfg.HA = rapid.SampledFrom([]engine.HAScheme{engine.HAPassiveStandby, engine.HAActiveStandby}).Draw(t, "ha")
		if cfg.Mode != engine.ModeAppend {
			cfg.SinkCommit = rapid.SampledFrom([]engine.SinkCommit{engine.CommitTransactional, engine.CommitIdempotent}).Draw(t, "commit")
		}
	case engine.AtLeastOnce:
		cfg.HA = rapid.SampledFrom([]engine.HAScheme{engine.HAUpstreamBackup, engine.HAPassiveStandby, engine.HAActiveStandby}).Draw(t, "ha")
	}
	cfg.Deployment = rapid.SampledFrom([]engine.Deployment{engine.DeployManaged, engine.DeployManaged, engine.DeployStandalone}).Draw(t, "deployment")
	cfg.CheckpointInterval = rapid.Int64Range(50, 800).Draw(t, "interval")
	cfg.Restart = drawRestart(t)
	cfg.Provision = time.Duration(rapid.IntRange(0, 60_000).Draw(t, "provision")) * time.Millisecond
	cfg.JobManagerHA = rapid.SampledFrom([]engine.JobManagerHA{engine.JobManagerHAStandby, engine.JobManagerHAStandby, engine.JobManagerHANone}).Draw(t, "jobmanager.ha")
	cfg.Lease = time.Duration(rapid.IntRange(1, 20).Draw(t, "lease")) * time.Second

	nodes := spec.Nodes()
	transactional := cfg.Sink == engine.SinkTable && semantics == engine.ExactlyOnce && cfg.HA == engine.HAPassiveStandby && cfg.SinkCommit == engine.CommitTransactional
	s := scenario{spec: spec, cfg: cfg, dir: dir}
	for i := range rapid.IntRange(1, 5).Draw(t, "phases") {
		switch rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("action%d", i)) {
		case 0, 1:
			name, at := rapid.SampledFrom(nodes).Draw(t, "node"), rapid.Int64Range(0, 1500).Draw(t, "at")
			s.desc = append(s.desc, fmt.Sprintf("kill %s at %d", name, at))
			s.steps = append(s.steps, func(rt *engine.Runtime, _ *refmodel.Admissions) error { return rt.KillAt(name, at) })
		case 2:
			name := rapid.SampledFrom(append(slices.Clone(nodes), engine.JobManager)).Draw(t, "now")
			s.desc = append(s.desc, "kill "+name)
			s.steps = append(s.steps, func(rt *engine.Runtime, _ *refmodel.Admissions) error {
				if err := rt.Kill(name); !errors.Is(err, engine.ErrAlreadyDown) {
					return err
				}
				return nil // a second failure of a node that is down changes nothing
			})
		case 3:
			if transactional {
				s.desc = append(s.desc, "kill sink at commit")
				s.steps = append(s.steps, func(rt *engine.Runtime, _ *refmodel.Admissions) error { return rt.KillAtCommit("sink") })
			}
		}
		n := rapid.Int64Range(1, 600).Draw(t, "records")
		s.desc = append(s.desc, fmt.Sprintf("run %d", n))
		s.steps = append(s.steps, func(rt *engine.Runtime, adm *refmodel.Admissions) error {
			rt.Admit(n)
			adm.Records(n)
			return rt.Run(context.Background())
		})
	}
	// Quiet time at the end, until every node is up again, lets every
	// scheduled restart happen (see run).
	s.desc = append(s.desc, "run 10s until all nodes run")
	return s
}

// settle runs quiet time, 10 s at a time, restarting by hand what a
// standalone deployment leaves down: rounds of it if rounds > 0, or until
// every node is up again; it returns how many rounds that took.
func settle(rt *engine.Runtime, rounds int) (int, error) {
	return settleAdm(rt, rounds, nil)
}

// settleAdm is settle that also records the admissions in adm (if not nil).
func settleAdm(rt *engine.Runtime, rounds int, adm *refmodel.Admissions) (int, error) {
	limit := rounds
	if limit <= 0 {
		limit = 40
	}
	for i := 1; i <= limit; i++ {
		if rt.Config().Deployment == engine.DeployStandalone {
			for _, n := range rt.Snapshot().Nodes {
				if n.State == engine.NodeKilled {
					if err := rt.Restart(n.Name); err != nil {
						return i, err
					}
				}
			}
		}
		if err := quiet(rt, 1, adm); err != nil {
			return i, err
		}
		up := !slices.ContainsFunc(rt.Snapshot().Nodes, func(n engine.NodeSnapshot) bool { return n.State != engine.NodeRunning })
		if rounds <= 0 && up {
			return i, nil
		}
	}
	if rounds > 0 {
		return rounds, nil
	}
	return limit, fmt.Errorf("nodes still down after %d s of quiet time", limit*10)
}

// quiet runs rounds × 10 s of quiet time, recording it in adm if not nil.
func quiet(rt *engine.Runtime, rounds int, adm *refmodel.Admissions) error {
	for range rounds {
		rt.AdmitFor(10 * time.Second)
		if adm != nil {
			adm.For(10 * time.Second)
		}
		if err := rt.Run(context.Background()); err != nil {
			return err
		}
	}
	return nil
}

// outcome is what a scenario's run ended with.
type outcome struct {
	rep    report.Report
	rounds int
	// table is the sink's table read back with SQL, and want what the
	// reference model computes from the dumped source; both only with a
	// table sink (hasTable).
	table    table
	want     refmodel.Output
	hasTable bool
}

// run plays the scenario, then quiet time: rounds of it if rounds > 0, or
// until every node is up again.
func (s scenario) run(t *rapid.T, rounds int) outcome {
	cfg := s.cfg
	if cfg.Sink == engine.SinkTable {
		cfg.DBPath = filepath.Join(s.dir, fmt.Sprintf("run%d.db", dbCount.Add(1)))
	}
	rt, err := engine.New(s.spec, cfg)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer rt.Close()
	adm := refmodel.NewAdmissions(s.spec.Source.Rate)
	for _, step := range s.steps {
		if err := step(rt, adm); err != nil {
			if rt.Snapshot().State == engine.StateFailed {
				return outcome{rep: rt.Report(), rounds: rounds} // the report says why
			}
			t.Fatalf("%v", err)
		}
	}
	rounds, err = settleAdm(rt, rounds, adm)
	if err != nil && rt.Snapshot().State != engine.StateFailed {
		t.Fatalf("%v", err)
	}
	o := outcome{rep: rt.Report(), rounds: rounds}
	if cfg.Sink != engine.SinkTable || engine.JobStateOf(o.rep.Job) == engine.StateFailed {
		return o
	}
	var dump bytes.Buffer
	if err := rt.DumpSource(&dump); err != nil {
		t.Fatalf("%v", err)
	}
	if err := rt.Close(); err != nil {
		t.Fatalf("%v", err)
	}
	events, err := refmodel.ReadDump(&dump)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if o.want, err = refmodel.Run(s.spec, string(cfg.Mode), events, adm.Bounds); err != nil {
		t.Fatalf("%v", err)
	}
	o.table, o.hasTable = readTable(t, cfg.DBPath, !o.want.Windowed), true
	return o
}

// effects compares a table with the model in terms of the input records'
// effects: for events, how often each event is in the table; for results,
// the count a reader gets for a key and window (in append mode the sum of
// the rows written for it, else its row). With got and exp per cell:
// duplicates is Σ max(got−exp, 0), lost Σ max(exp−got, 0); late is what
// the model left out of a cell as late, which a failure may count (a
// watermark held back for a dead sender, or a replacement that starts
// without one), and is no duplicate: doubled is Σ max(got−exp−late, 0) and
// excess the number of cells with got > exp + late.
type effects struct{ duplicates, doubled, lateCounted, lost, excess int64 }

func compareEffects(o outcome, mode engine.Mode) effects {
	type cell struct{ got, exp, late int64 }
	cells := map[any]*cell{}
	at := func(k any) *cell {
		c := cells[k]
		if c == nil {
			c = &cell{}
			cells[k] = c
		}
		return c
	}
	if !o.want.Windowed {
		for _, e := range o.table.events {
			at(e).got++
		}
		for _, e := range o.want.Events {
			at(e).exp++
		}
	} else {
		for _, r := range o.table.rows {
			c := at(refmodel.Row{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Key: r.Key})
			if mode == engine.ModeAppend {
				c.got += r.Value
			} else {
				c.got = r.Value
			}
		}
		for _, r := range o.want.Rows {
			at(refmodel.Row{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Key: r.Key}).exp = r.Value
		}
		for _, r := range o.want.Late {
			at(refmodel.Row{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Key: r.Key}).late = r.Value
		}
	}
	var e effects
	for _, c := range cells {
		if c.got > c.exp {
			e.duplicates += c.got - c.exp
			e.lateCounted += min(c.got-c.exp, c.late)
			if c.got > c.exp+c.late {
				e.doubled += c.got - c.exp - c.late
				e.excess++
			}
		} else {
			e.lost += c.exp - c.got
		}
	}
	return e
}

// checkAgainstModel applies the two-sided check of the guarantee in effect
// to a table read back after failures:
//
//   - exactly-once: the table equals the model's;
//   - at-least-once: nothing is missing, and what is doubled needs a
//     replay: a job without aggregation duplicates at most the records
//     replayed, and an aggregation over-counts at most as many windows as
//     the replayed records fall in (a re-fired window may repeat restored
//     state, so its excess is not bounded by the replay), besides windows
//     that counted records the model found late: the watermark waits for
//     a dead sender under rollback recovery, so fewer records are late;
//   - at-most-once: nothing is doubled (beyond records the model found
//     late: a replacement starts without a watermark), and nothing is lost
//     without a failure; a job without state loses at most what was lost
//     in flight.
func checkAgainstModel(t *rapid.T, o outcome, desc []string) {
	rep := o.rep
	e := compareEffects(o, engine.Mode(rep.Config.Mode))
	r := rep.Recovery
	if e.lateCounted != rep.Sink.LateCounted {
		t.Fatalf("the report counts %d late records counted, the table and the model %d (%+v), after %v", rep.Sink.LateCounted, e.lateCounted, e, desc)
	}
	switch engine.Semantics(rep.Config.Semantics) {
	case engine.ExactlyOnce:
		m := modelRun{rep: rep, got: o.table, want: o.want}
		if d := m.diff(); d != "" {
			t.Fatalf("exactly-once differs from the model (%+v): %s, after %v", e, d, desc)
		}
	case engine.AtLeastOnce:
		if e.lost != 0 {
			t.Fatalf("at-least-once lost %d against the model (%+v, recovery %+v) after %v", e.lost, e, r, desc)
		}
		if !o.want.Windowed && e.duplicates > r.Replayed {
			t.Fatalf("at-least-once: %d duplicates, %d replayed, after %v", e.duplicates, r.Replayed, desc)
		}
		if o.want.Windowed && e.excess > r.Replayed*o.want.WindowsPerRecord {
			t.Fatalf("at-least-once: %d windows over-counted, %d records replayed (in %d windows each), after %v",
				e.excess, r.Replayed, o.want.WindowsPerRecord, desc)
		}
	case engine.AtMostOnce:
		if e.doubled != 0 {
			t.Fatalf("at-most-once doubled %d against the model (%+v) after %v", e.doubled, e, desc)
		}
		if r.Failures == 0 && r.JobManagerFailovers == 0 && e.lost != 0 {
			t.Fatalf("at-most-once lost %d with no failure, after %v", e.lost, desc)
		}
		if !o.want.Windowed && e.lost > r.LostInFlight {
			t.Fatalf("at-most-once lost %d, %d lost in flight, after %v", e.lost, r.LostInFlight, desc)
		}
	}
}

// acceptableFailure reports whether a failed job failed for a reason its
// scheme documents.
func acceptableFailure(rep report.Report, cfg engine.Config) bool {
	switch {
	case rep.Config.HA == string(engine.HAActiveStandby) && strings.Contains(rep.Job.Error, "no active standby left"):
		return true // a second failure before a new standby was up: the scheme gives up, as it says
	case cfg.JobManagerHA == engine.JobManagerHANone && strings.Contains(rep.Job.Error, "high availability is off"):
		return true // without HA the job fails with its job manager, as Flink's does
	}
	return false
}

// The guarantees hold whatever the job shape, seed and failure schedule,
// judged against the reference model with a table sink (and against the
// engine's ledger with either): exactly-once equals the model,
// at-least-once loses nothing and doubles only what was replayed,
// at-most-once doubles nothing. A job fails only for the reasons the
// scheme documents. Passive standby is also checked on the concurrent
// executor, where the schedule allows it.
func TestGuaranteesUnderFailures(t *testing.T) {
	for _, semantics := range []engine.Semantics{engine.AtMostOnce, engine.AtLeastOnce, engine.ExactlyOnce} {
		t.Run(string(semantics), func(t *testing.T) {
			dir := t.TempDir()
			rapid.Check(t, func(t *rapid.T) {
				s := drawScenario(t, semantics, dir)
				o := s.run(t, 0)
				rep := o.rep
				if engine.JobStateOf(rep.Job) == engine.StateFailed {
					if acceptableFailure(rep, s.cfg) {
						return
					}
					t.Fatalf("job failed: %s (%v)", rep.Job.Error, s.desc)
				}
				sk := rep.Sink
				if sk.Pending != 0 {
					t.Fatalf("every node is up, yet %d pending: %+v after %v", sk.Pending, sk, s.desc)
				}
				switch engine.Semantics(rep.Config.Semantics) {
				case engine.ExactlyOnce:
					if sk.Lost != 0 || sk.Duplicates != 0 || !sk.Correct {
						t.Fatalf("exactly-once broken: %+v after %v", sk, s.desc)
					}
				case engine.AtLeastOnce:
					if sk.Lost != 0 {
						t.Fatalf("at-least-once lost %d: %+v after %v", sk.Lost, sk, s.desc)
					}
				case engine.AtMostOnce:
					// A replacement starts without a watermark: it may count
					// what the failure-free run dropped as late.
					if sk.Duplicates != sk.LateCounted {
						t.Fatalf("at-most-once duplicated %d: %+v after %v", sk.Duplicates, sk, s.desc)
					}
				}
				if o.hasTable {
					checkAgainstModel(t, o, s.desc)
				}
				if rep.Config.HA == string(engine.HAPassiveStandby) && o.hasTable && !slices.Contains(s.desc, "kill sink at commit") {
					// The concurrent executor fails over from the same
					// checkpoints, wherever its goroutines had got to, and
					// its table must pass the same check against the model.
					// (It runs failures under passive standby only, and
					// cannot place a kill at a commit.)
					s.cfg.Executor = engine.ExecConcurrent
					c := s.run(t, 0)
					if engine.JobStateOf(c.rep.Job) == engine.StateFailed {
						if acceptableFailure(c.rep, s.cfg) {
							return
						}
						t.Fatalf("concurrent executor: job failed: %s (%v)", c.rep.Job.Error, s.desc)
					}
					if c.rep.Sink.Pending != 0 {
						t.Fatalf("concurrent executor: every node is up, yet %d pending after %v", c.rep.Sink.Pending, s.desc)
					}
					checkAgainstModel(t, c, append(s.desc, "(concurrent executor)"))
				}
			})
		})
	}
}
