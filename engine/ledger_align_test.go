package engine_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// killedRun starts a built-in job with a node that fails once it has
// processed at records, and admits records.
func killedRun(t *testing.T, job string, cfg engine.Config, node string, at, records int64) *engine.Runtime {
	t.Helper()
	spec, _ := jobspec.Builtin(job)
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	if err := rt.KillAt(node, at); err != nil {
		t.Fatal(err)
	}
	rt.Admit(records)
	return rt
}

// stepNoDuplicates steps rt to the end of what was admitted, calling each
// after every step, and fails at the first step whose ledger shows a
// duplicate.
func stepNoDuplicates(t *testing.T, rt *engine.Runtime, each func()) {
	t.Helper()
	for steps := 0; ; steps++ {
		more, err := rt.Step()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			return
		}
		if steps > 1_000_000 {
			t.Fatal("the run does not end")
		}
		if each != nil {
			each()
		}
		if l, _ := rt.Ledger(); l.Duplicates != 0 {
			t.Fatalf("step %d: ledger %+v", steps, l)
		}
	}
}

// While a counter is down in complete mode the sink holds its batches back
// (see sinkOp.whole). The ledger compares each committed batch with the
// failure-free run at the same trigger, so it must count the held triggers
// too: upstream backup keeps every record for complete mode, and the
// replacement counts exactly what its predecessor did, so no step of the
// run may show a duplicate.
func TestLedgerFollowsHeldBatches(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.HA, cfg.Mode, cfg.Sink = engine.AtLeastOnce, engine.HAUpstreamBackup, engine.ModeComplete, engine.SinkTable
	cfg.DBPath = filepath.Join(t.TempDir(), "t.db")
	rt := killedRun(t, "clicks", cfg, "count[1]", 200, 900)
	held := false
	stepNoDuplicates(t, rt, func() {
		for _, n := range rt.Snapshot().Nodes {
			if n.Name == "count[1]" && n.State != engine.NodeRunning {
				held = true
			}
		}
	})
	rep := rt.Report()
	if !held || rep.Recovery.Failures != 1 || !rep.Sink.Correct {
		t.Fatalf("held %v, report %+v %+v", held, rep.Recovery, rep.Sink)
	}
}

// A node whose only input is down sends the sink no trigger, so the sink
// commits fewer batches than the source sent triggers. The ledger lines the
// failure-free run up by trigger: with a Bloom filter, which never lets a
// replayed duplicate through, no step of the run may show one (lined up by
// batches, some 400 records showed as duplicates from the restart to the
// end of the run).
func TestLedgerLinesUpByTrigger(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Mode = engine.AtLeastOnce, engine.ModeAppend
	f, err := filter.ParseSpec([]string{"bloom"}, map[string]string{"m": "20000", "k": "3"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Filter = f
	rt := killedRun(t, "passthrough", cfg, "map", 1500, 6000)
	stepNoDuplicates(t, rt, nil)
	if rep := rt.Report(); rep.Recovery.Restarts != 1 || rep.Recovery.Replayed == 0 {
		t.Fatalf("want a restart with a replay: %+v", rep.Recovery)
	}
}

// The timeline's lost is the report's: while a counter is down under
// upstream backup, what the sink lacks of its windows is owed (pending),
// not lost, so an at-least-once run without a filter never charts a loss.
func TestTimelineChartsNoLossThatIsOwed(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Semantics = engine.AtLeastOnce
	rt := killedRun(t, "clicks", cfg, "count[1]", 1200, 6000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	owed := false
	for _, s := range rt.Timeline().Samples {
		if s.Lost != 0 {
			t.Fatalf("at %d ms the timeline charts %d lost", s.TimeMS, s.Lost)
		}
		owed = owed || s.Expected > s.Unique
	}
	if !owed || rt.Report().Recovery.Restarts != 1 {
		t.Fatalf("want a restart, and samples while the sink lacked records: %+v", rt.Report().Recovery)
	}
}
