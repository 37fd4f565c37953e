package engine_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
)

// failureFree is a job, configuration and admissions with no failure.
type failureFree struct {
	spec jobspec.Spec
	cfg  engine.Config
	runs []int64
	desc []string
	dir  string
}

// drawFailureFree draws an exactly-once job with checkpoints (a small
// interval, so that runs take many), a dedup stage behind whatever
// parallel stage the job ends in (filters whose answer depends on the
// order ids arrive in: a small Bloom filter, a rotating one), and a few
// admissions.
func drawFailureFree(t *rapid.T, dir string) failureFree {
	spec := drawSpec(t)
	spec.Source.Rate = rapid.SampledFrom([]int{50, 100, 200}).Draw(t, "rate")
	cfg := engine.DefaultConfig()
	cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
	cfg.Semantics, cfg.HA, cfg.Sink = engine.ExactlyOnce, engine.HAPassiveStandby, engine.SinkTable
	modes := []engine.Mode{engine.ModeAppend, engine.ModeUpdate}
	if slices.ContainsFunc(spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount }) {
		modes = append(modes, engine.ModeComplete)
	}
	cfg.Mode = rapid.SampledFrom(modes).Draw(t, "mode")
	if cfg.Mode != engine.ModeAppend {
		cfg.SinkCommit = rapid.SampledFrom([]engine.SinkCommit{engine.CommitTransactional, engine.CommitIdempotent}).Draw(t, "commit")
	}
	if cfg.Mode != engine.ModeComplete {
		cfg.Filter = rapid.SampledFrom([]filter.Spec{
			{},
			{Kind: filter.KindExact},
			{Kind: filter.KindBloom, M: 512, K: 3},
			{Kind: filter.KindBloom, N: 300, P: 0.05},
			{Kind: filter.KindRotating, N: 100, P: 0.05},
		}).Draw(t, "filter")
	}
	cfg.CheckpointInterval = rapid.Int64Range(20, 400).Draw(t, "interval")
	s := failureFree{spec: spec, cfg: cfg, dir: dir}
	for range rapid.IntRange(1, 3).Draw(t, "runs") {
		n := rapid.Int64Range(1, 500).Draw(t, "records")
		s.runs = append(s.runs, n)
		s.desc = append(s.desc, fmt.Sprintf("run %d", n))
	}
	return s
}

// run plays s on executor, returning the report with the executor's name
// left out and the table read back with SQL.
func (s failureFree) run(t *rapid.T, executor engine.Executor) (report.Report, table) {
	cfg := s.cfg
	cfg.Executor = executor
	cfg.DBPath = filepath.Join(s.dir, fmt.Sprintf("run%d.db", dbCount.Add(1)))
	rt, err := engine.New(s.spec, cfg)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer rt.Close()
	for _, n := range s.runs {
		rt.Admit(n)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatalf("%s executor: %v", executor, err)
		}
	}
	rep := rt.Report()
	if err := rt.Close(); err != nil {
		t.Fatalf("%v", err)
	}
	rep.Job.Executor = ""
	events := !slices.ContainsFunc(s.spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
	return rep, readTable(t, cfg.DBPath, events)
}

// With no failure, exactly-once on the concurrent executor completes every
// checkpoint it takes, and its run equals the deterministic executor's:
// the same report and the same table, whatever GOMAXPROCS (each case draws
// 1, 2 or 8). (A barrier sent
// before its checkpoint began once let a task acknowledge it first; the
// acknowledgement was dropped and the whole run's output lost. A dedup
// stage behind a parallel stage once took its input in whatever order the
// goroutines delivered it, and a Bloom filter then dropped other ids.)
func TestConcurrentMatchesDeterministicWithoutFailures(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		s := drawFailureFree(t, dir)
		procs := rapid.SampledFrom([]int{1, 2, 8}).Draw(t, "GOMAXPROCS")
		want, wantTable := s.run(t, engine.ExecDeterministic)
		prev := runtime.GOMAXPROCS(procs)
		got, gotTable := s.run(t, engine.ExecConcurrent)
		runtime.GOMAXPROCS(prev)
		c := got.Checkpoints
		if c.Completed == 0 || c.Completed != c.LastID || c.Aborted != 0 {
			t.Fatalf("GOMAXPROCS=%d: no failure, yet checkpoints %+v (%s filter, %v)", procs, c, s.cfg.Filter, s.desc)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("GOMAXPROCS=%d: the concurrent executor's report differs from the deterministic one's (%v):\n%+v\nwant\n%+v", procs, s.desc, got, want)
		}
		if !reflect.DeepEqual(gotTable, wantTable) {
			t.Fatalf("GOMAXPROCS=%d: the concurrent executor's table differs from the deterministic one's (%v): %d rows, %d events; want %d, %d",
				procs, s.desc, len(gotTable.rows), len(gotTable.events), len(wantTable.rows), len(wantTable.events))
		}
	})
}
