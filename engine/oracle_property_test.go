package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/internal/refmodel"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// drawSlidingJob draws parse → a sliding window-count, both possibly
// parallel: records belong to several windows, so upstream backup may only
// release a record once its last window has fired.
func drawSlidingJob(t *rapid.T) jobspec.Spec {
	spec := jobspec.Spec{Name: "sliding", Source: jobspec.DefaultSource()}
	pp := rapid.IntRange(1, 2).Draw(t, "parse.parallelism")
	cp := rapid.IntRange(1, 3).Draw(t, "count.parallelism")
	window := time.Duration(rapid.SampledFrom([]int{10, 20}).Draw(t, "window")) * time.Second
	spec.Operators = []jobspec.Operator{
		{Name: "parse", Kind: jobspec.KindParse, Parallelism: pp, Partition: jobspec.PartitionRebalance},
		{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: cp, Partition: jobspec.PartitionHash,
			Window: window, Slide: window / time.Duration(rapid.SampledFrom([]int{2, 4}).Draw(t, "slides"))},
	}
	spec = spec.WithDefaults()
	if err := spec.Validate(); err != nil {
		t.Fatalf("drew an invalid spec: %v", err)
	}
	return spec
}

// Upstream backup under sliding windows, with the counters killed: the
// table loses nothing against the reference model, and over-counts only
// windows that a replay re-fired.
func TestSlidingWindowsUnderUpstreamBackup(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		spec := drawSlidingJob(t)
		spec.Source.Rate = rapid.SampledFrom([]int{50, 100, 200}).Draw(t, "rate")
		cfg := engine.DefaultConfig()
		cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
		cfg.Semantics, cfg.HA, cfg.Sink = engine.AtLeastOnce, engine.HAUpstreamBackup, engine.SinkTable
		cfg.Mode = rapid.SampledFrom([]engine.Mode{engine.ModeAppend, engine.ModeUpdate, engine.ModeComplete}).Draw(t, "mode")
		cfg.Restart = drawRestart(t)
		cfg.Deployment = rapid.SampledFrom([]engine.Deployment{engine.DeployManaged, engine.DeployStandalone}).Draw(t, "deployment")
		cfg.Provision = time.Duration(rapid.IntRange(0, 30_000).Draw(t, "provision")) * time.Millisecond
		// Deterministic executor only: the engine refuses upstream backup
		// under the concurrent executor (it trims and replays per channel).
		s := scenario{spec: spec, cfg: cfg, dir: dir}
		var counters []string
		for _, n := range spec.Nodes() {
			if len(n) >= 5 && n[:5] == "count" {
				counters = append(counters, n)
			}
		}
		for i := range rapid.IntRange(1, 3).Draw(t, "phases") {
			name := rapid.SampledFrom(counters).Draw(t, fmt.Sprintf("victim%d", i))
			at := rapid.Int64Range(1, 1500).Draw(t, "at")
			s.desc = append(s.desc, fmt.Sprintf("kill %s at %d", name, at))
			s.steps = append(s.steps, func(rt *engine.Runtime, _ *refmodel.Admissions) error { return rt.KillAt(name, at) })
			n := rapid.Int64Range(200, 2000).Draw(t, "records")
			s.desc = append(s.desc, fmt.Sprintf("run %d", n))
			s.steps = append(s.steps, func(rt *engine.Runtime, adm *refmodel.Admissions) error {
				rt.Admit(n)
				adm.Records(n)
				return rt.Run(context.Background())
			})
		}
		o := s.run(t, 0)
		if engine.JobStateOf(o.rep.Job) == engine.StateFailed {
			t.Fatalf("job failed: %s (%v)", o.rep.Job.Error, s.desc)
		}
		if o.rep.Sink.Pending != 0 || o.rep.Sink.Lost != 0 {
			t.Fatalf("sink %+v after %v", o.rep.Sink, s.desc)
		}
		checkAgainstModel(t, o, s.desc)
	})
}

// barriersInFlight counts the checkpoint barriers queued or held anywhere.
func barriersInFlight(rt *engine.Runtime) int {
	n := 0
	for _, node := range rt.Snapshot().Nodes {
		n += node.Barriers
	}
	return n
}

// Flink's documentation, "High Availability" and "Checkpointing": a
// checkpoint the failed job manager (or a failed task) had not completed is
// abandoned; the job restores the latest completed one, and a
// two-phase-commit sink commits only what a completed checkpoint covers. So
// the job manager or a task killed while a barrier travels the graph
// (reached by stepping) leaves an exactly-once table equal to the
// reference model.
func TestJobManagerKilledMidCheckpoint(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		spec := drawSpec(t)
		if rapid.Bool().Draw(t, "sliding") {
			spec = drawSlidingJob(t)
		}
		cfg := engine.DefaultConfig()
		cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
		cfg.Semantics, cfg.HA, cfg.Sink = engine.ExactlyOnce, engine.HAPassiveStandby, engine.SinkTable
		modes := []engine.Mode{}
		for _, m := range engine.Modes {
			if engine.CheckMode(spec, m, true) == nil {
				modes = append(modes, m)
			}
		}
		cfg.Mode = rapid.SampledFrom(modes).Draw(t, "mode")
		if cfg.Mode != engine.ModeAppend {
			cfg.SinkCommit = rapid.SampledFrom([]engine.SinkCommit{engine.CommitTransactional, engine.CommitIdempotent}).Draw(t, "commit")
		}
		cfg.CheckpointInterval = rapid.Int64Range(50, 400).Draw(t, "interval")
		cfg.JobManagerHA = engine.JobManagerHAStandby
		cfg.Lease = time.Duration(rapid.IntRange(1, 20).Draw(t, "lease")) * time.Second
		cfg.Restart = drawRestart(t)
		cfg.Deployment = rapid.SampledFrom([]engine.Deployment{engine.DeployManaged, engine.DeployStandalone}).Draw(t, "deployment")
		before := rapid.Int64Range(0, 1500).Draw(t, "before")
		extra := rapid.IntRange(0, 40).Draw(t, "extra steps")
		after := rapid.Int64Range(1, 1500).Draw(t, "after")
		// The job manager, or a task: a checkpoint that a task died
		// during never completes, so its transaction must not commit.
		victim := rapid.SampledFrom(append(spec.Nodes(), engine.JobManager, engine.JobManager)).Draw(t, "victim")
		s := scenario{spec: spec, cfg: cfg, dir: dir}
		s.desc = []string{fmt.Sprintf("run %d", before), fmt.Sprintf("admit %d and step until a barrier is in flight, then %d steps more", after, extra),
			"kill " + victim, "run"}
		s.steps = []step{
			func(rt *engine.Runtime, adm *refmodel.Admissions) error {
				rt.Admit(before)
				adm.Records(before)
				return rt.Run(context.Background())
			},
			func(rt *engine.Runtime, adm *refmodel.Admissions) error {
				rt.Admit(after)
				adm.Records(after)
				for barriersInFlight(rt) == 0 {
					if ok, err := rt.Step(); err != nil || !ok {
						return err // the run ended before a barrier went out
					}
				}
				for range extra {
					if barriersInFlight(rt) == 0 {
						break
					}
					if _, err := rt.Step(); err != nil {
						return err
					}
				}
				if err := rt.Kill(victim); err != nil {
					return err
				}
				return rt.Run(context.Background())
			},
		}
		o := s.run(t, 0)
		if engine.JobStateOf(o.rep.Job) == engine.StateFailed {
			t.Fatalf("job failed: %s (%v)", o.rep.Job.Error, s.desc)
		}
		if o.rep.Sink.Pending != 0 {
			t.Fatalf("every node is up, yet %d pending: %+v after %v", o.rep.Sink.Pending, o.rep.Sink, s.desc)
		}
		if o.rep.Config.Semantics != string(engine.ExactlyOnce) {
			t.Fatalf("exactly-once in effect expected, got %s: %s", o.rep.Config.Semantics, o.rep.Config.Note)
		}
		checkAgainstModel(t, o, s.desc)
	})
}

// Upstream backup may release a record only once the last window it falls
// in has fired (Hwang et al., 2005: a record is trimmed from the output
// queue when downstream no longer needs it). Under 10 s windows sliding
// every 2.5 s a record belongs to four windows; a counter killed while
// they are open must get it again from parse's queue. A fixed set of
// schedules, so that a release after the first window fails every run.
func TestSlidingWindowRecordsReleasedAfterTheirLastWindow(t *testing.T) {
	spec := jobspec.Spec{Name: "sliding", Source: jobspec.DefaultSource(), Operators: []jobspec.Operator{
		{Name: "parse", Kind: jobspec.KindParse, Parallelism: 1},
		{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 2, Partition: jobspec.PartitionHash,
			Window: 10 * time.Second, Slide: 2500 * time.Millisecond},
	}}.WithDefaults()
	for _, seed := range []int64{1, 2, 3} {
		for _, at := range []int64{300, 900, 1500} {
			t.Run(fmt.Sprintf("seed%d/at%d", seed, at), func(t *testing.T) {
				cfg := engine.DefaultConfig()
				cfg.Seed, cfg.Mode = seed, engine.ModeAppend
				cfg.Semantics, cfg.HA, cfg.Sink = engine.AtLeastOnce, engine.HAUpstreamBackup, engine.SinkTable
				cfg.DBPath = filepath.Join(t.TempDir(), "out.db")
				rt, err := engine.New(spec, cfg)
				if err != nil {
					t.Fatal(err)
				}
				adm := refmodel.NewAdmissions(spec.Source.Rate)
				if err := rt.KillAt("count[0]", at); err != nil {
					t.Fatal(err)
				}
				rt.Admit(3000)
				adm.Records(3000)
				if err := rt.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				if _, err := settleAdm(rt, 0, adm); err != nil {
					t.Fatal(err)
				}
				var dump bytes.Buffer
				if err := rt.DumpSource(&dump); err != nil {
					t.Fatal(err)
				}
				rep := rt.Report()
				if err := rt.Close(); err != nil {
					t.Fatal(err)
				}
				events, err := refmodel.ReadDump(&dump)
				if err != nil {
					t.Fatal(err)
				}
				want, err := refmodel.Run(spec, string(cfg.Mode), events, adm.Bounds)
				if err != nil {
					t.Fatal(err)
				}
				o := outcome{rep: rep, table: readTable(t, cfg.DBPath, false), want: want, hasTable: true}
				if e := compareEffects(o, cfg.Mode); e.lost != 0 || rep.Sink.Lost != 0 || rep.Recovery.Failures != 1 {
					t.Fatalf("lost %d against the model (ledger %d), recovery %+v", e.lost, rep.Sink.Lost, rep.Recovery)
				}
			})
		}
	}
}
