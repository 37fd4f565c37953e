package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// A dedup stage that filters input before it is counted runs in complete
// mode, as Spark runs dropDuplicates before a groupBy there; one that
// filters an aggregation's result rows is refused, since complete mode
// repeats every row on purpose.
func TestDedupInCompleteModeOnlyBeforeTheAggregation(t *testing.T) {
	before, ok := jobspec.Builtin("clicks")
	if !ok {
		t.Fatal("no clicks job")
	}
	ops := append([]jobspec.Operator{}, before.Operators[:1]...)
	ops = append(ops, jobspec.Operator{Name: "dedup", Kind: jobspec.KindDedup, Parallelism: 1})
	ops = append(ops, before.Operators[1:]...)
	before.Operators = ops
	cfg := DefaultConfig()
	cfg.Mode = ModeComplete
	cfg.Filter = filter.Spec{Kind: filter.KindExact}
	rt, err := New(before, cfg)
	if err != nil {
		t.Fatalf("a dedup before the count, in complete mode: %v", err)
	}
	rt.Admit(500)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rep := rt.Report(); !rep.Sink.Correct || rep.Sink.Lost != 0 {
		t.Errorf("with no failure the table is not the failure-free one: %+v", rep.Sink)
	}

	after, _ := jobspec.Builtin("clicks") // set filter puts the stage before the sink
	if _, err := New(after, cfg); !errors.Is(err, ErrBadConfig) {
		t.Errorf("a dedup of the counts' rows in complete mode: %v, want ErrBadConfig", err)
	}
}
