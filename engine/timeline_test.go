package engine_test

import (
	"context"
	"slices"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// The timeline a chart draws: the ledger's running totals in order of
// virtual time, ending at the report's, with the kill, the restart and
// the completed checkpoints marked where they happened; bounded however
// long the job runs.
func TestTimelineMarksTheFailureAndEndsAtTheReport(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.HA, cfg.CheckpointInterval = engine.AtLeastOnce, engine.HAPassiveStandby, 200
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if err := rt.KillAt("count[1]", 600); err != nil {
		t.Fatal(err)
	}
	for range 40 {
		rt.AdmitFor(engine.DefaultConfig().Lease) // 15 s a time: 10 minutes
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	tl, rep := rt.Timeline(), rt.Report()
	if n := len(tl.Samples); n == 0 || n > engine.TimelineSamples {
		t.Fatalf("%d samples", n)
	}
	if tl.StepMS <= 250 {
		t.Errorf("10 minutes in samples %d ms apart: the interval never doubled", tl.StepMS)
	}
	if !slices.IsSortedFunc(tl.Samples, func(a, b engine.TimelineSample) int { return int(a.TimeMS - b.TimeMS) }) {
		t.Error("samples out of order")
	}
	last := tl.Samples[len(tl.Samples)-1]
	if last.Delivered != rep.Sink.Delivered || last.Duplicates != rep.Sink.Duplicates || last.Lost != rep.Sink.Lost {
		t.Errorf("the last sample %+v, the report's sink %+v", last.LedgerTotals, rep.Sink)
	}
	count := map[engine.MarkKind]int64{}
	var killedAt, restartedAt int64 = -1, -1
	for _, m := range tl.Marks {
		count[m.Kind]++
		switch {
		case m.Kind == engine.MarkKilled && killedAt < 0:
			killedAt = m.TimeMS
		case m.Kind == engine.MarkRestarted && restartedAt < 0:
			restartedAt = m.TimeMS
		}
	}
	if count[engine.MarkKilled] != 1 || count[engine.MarkRestarted] != 1 {
		t.Errorf("marks %v; one kill and one restart happened", count)
	}
	if count[engine.MarkCheckpoint]+tl.MoreMarks != rep.Checkpoints.Completed {
		t.Errorf("%d checkpoint marks (+%d not kept), %d completed", count[engine.MarkCheckpoint], tl.MoreMarks, rep.Checkpoints.Completed)
	}
	if !(killedAt >= 0 && restartedAt > killedAt) {
		t.Errorf("killed at %d ms, restarted at %d ms", killedAt, restartedAt)
	}
}
