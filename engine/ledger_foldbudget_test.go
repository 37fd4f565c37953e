package engine

import (
	"context"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// A fold past its budget gives up its oldest blocks and makes them again
// from the source when asked: every folded window's exp is what a fold
// that kept everything says, and the counts agree, with a kill whose
// replacement writes windows again.
func TestLedgerFoldBudgetRemakesExactly(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	spec.Operators = append([]jobspec.Operator(nil), spec.Operators...)
	for i := range spec.Operators {
		if spec.Operators[i].Kind == jobspec.KindWindowCount {
			spec.Operators[i].Window, spec.Operators[i].Slide = time.Second, 10*time.Millisecond
		}
	}
	run := func(budget int, keepAll bool) *Runtime {
		cfg := DefaultConfig()
		cfg.Semantics = AtLeastOnce
		rt, err := New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close() })
		rt.ledger.foldBudget = budget
		if keepAll {
			rt.ledger.windowTimes = nil
		}
		if err := rt.KillAt("count[1]", 3000); err != nil {
			t.Fatal(err)
		}
		rt.Admit(12000)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return rt
	}
	all, small := run(0, true), run(512, false)
	dropped := 0
	for key, f := range small.ledger.folded {
		for _, b := range f.blocks {
			if b.dropped {
				dropped++
			}
		}
		if small.ledger.foldedBelow != all.ledger.foldedBelow {
			t.Fatalf("folded below %d, and %d keeping everything", small.ledger.foldedBelow, all.ledger.foldedBelow)
		}
		for s := f.blocks[0].first; s < small.ledger.foldedBelow; s += 10 {
			want, _, _ := all.ledger.folded[key].at(s)
			if got := small.ledger.foldedExp(key, s); got != want {
				t.Fatalf("%s window %d: exp %d made again, %d kept", key, s, got, want)
			}
		}
	}
	if dropped == 0 {
		t.Fatal("no block was dropped: the budget was never reached")
	}
	if a, s := all.ledger.Totals(), small.ledger.Totals(); a != s {
		t.Errorf("totals %+v with a small fold, %+v keeping everything", s, a)
	}
}
