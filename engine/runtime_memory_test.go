package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// TestMemoryBudgetStopsAGrowingState checks that a run whose windows pile
// up fails once its state passes the budget, near it, with a message that
// names the windows and the settings that close them; and that where it
// stops is the same on every run.
func TestMemoryBudgetStopsAGrowingState(t *testing.T) {
	const budget = 20_000_000
	stop := func() (offset int64, held int64, msg string) {
		cfg := DefaultConfig()
		cfg.MemoryBudget = budget
		cfg.NoLedger = true // the windows, not the ledger's counts of them, hold the most
		rt := growingWindowsWith(t, cfg)
		rt.Admit(20000)
		if err := rt.Run(context.Background()); !errors.Is(err, ErrMemoryBudget) {
			t.Fatalf("the run returned %v, want its failure over the budget", err)
		}
		snap := rt.Snapshot()
		if snap.State != StateFailed || !errors.Is(rt.err, ErrMemoryBudget) {
			t.Fatalf("the run is %s (%v) at %d MB held; want failed over the budget", snap.State, rt.err, rt.MemoryHeld()>>20)
		}
		return snap.Offset, rt.MemoryHeld(), snap.Error
	}
	off, held, msg := stop()
	t.Logf("stopped at offset %d holding %d bytes: %s", off, held, msg)
	if held < budget || held > budget+budget/10 {
		t.Errorf("the run stopped holding %d bytes; want just past the budget %d", held, budget)
	}
	for _, want := range []string{"of the 20.0 MB it may hold", "open windows", "set source.watermark", "set window.slide"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message %q does not say %q", msg, want)
		}
	}
	if off2, _, msg2 := stop(); off2 != off || msg2 != msg {
		t.Errorf("a second run stopped at %d (%q), the first at %d (%q)", off2, msg2, off, msg)
	}
	// Without a budget the same run goes on.
	rt := growingWindows(t)
	runMore(t, rt, 5000)
	if rt.Snapshot().State != StateRunning {
		t.Errorf("without a budget the run is %s", rt.Snapshot().State)
	}
}

// TestMemoryBudgetRefusesABigFilter: a Bloom filter whose bits alone pass
// the budget is refused before the job starts, saying so; a smaller one,
// or any without a budget, is not.
func TestMemoryBudgetRefusesABigFilter(t *testing.T) {
	spec, _ := jobspec.Builtin("passthrough")
	cfg := DefaultConfig()
	cfg.MemoryBudget = 64 << 20
	cfg.Filter = filter.Spec{Kind: filter.KindBloom, M: 1_000_000_000, K: 3}
	_, err := Validate(spec, cfg)
	if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "125.0 MB of bits before a record comes") {
		t.Errorf("a 125 MB filter under a 64 MB budget: %v", err)
	}
	cfg.Filter.M = 10_000_000
	if _, err := Validate(spec, cfg); err != nil {
		t.Errorf("a 1.25 MB filter under a 64 MB budget: %v", err)
	}
	cfg.Filter.M, cfg.MemoryBudget = 1_000_000_000, 0
	if _, err := Validate(spec, cfg); err != nil {
		t.Errorf("a 125 MB filter without a budget: %v", err)
	}
}

// BenchmarkMemoryBudgetCheck runs the clicks job with a budget and, as
// the baseline in the same run, without one: the check every
// memoryCheckEvery steps should cost a few percent at most.
func BenchmarkMemoryBudgetCheck(b *testing.B) {
	spec, _ := jobspec.Builtin("clicks")
	run := func(budget int64) float64 {
		var spent time.Duration
		for range b.N {
			cfg := DefaultConfig()
			cfg.MemoryBudget = budget
			rt, err := New(spec, cfg)
			if err != nil {
				b.Fatal(err)
			}
			rt.Admit(20_000)
			start := time.Now()
			if err := rt.Run(context.Background()); err != nil {
				b.Fatal(err)
			}
			spent += time.Since(start)
			rt.Close()
		}
		return float64(spent.Nanoseconds()) / float64(b.N)
	}
	b.ResetTimer()
	without, with := run(0), run(1_000_000_000)
	b.ReportMetric(without, "ns/run-without")
	b.ReportMetric(with, "ns/run-with")
	b.ReportMetric(with/without, "with/without")
}
