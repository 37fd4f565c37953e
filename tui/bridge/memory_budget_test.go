package bridge

import (
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine"
)

// TestLabToldOfItsMemoryBudget: in the lab, a run whose windows pile up
// past the budget ends with the job failed, and the frame carries why;
// a filter past the budget is refused at its line.
func TestLabToldOfItsMemoryBudget(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1, MemoryBudget: 20_000_000})
	b.Handle(Request{Kind: Line, Line: "set filter bloom m=1000000000 k=3"})
	if rs := b.Frame().Results; len(rs) != 1 || !strings.Contains(rs[0].Err, "125.0 MB of bits before a record comes") {
		t.Errorf("a 125 MB filter under a 20 MB budget: %+v", rs)
	}
	for _, line := range []string{"set window 1s", "set window.slide 1ms", "set source.watermark none", "set source.rate 10", "run 1000"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	finish(t, b)
	f := b.Frame()
	if f.Snap.State != engine.StateFailed || !strings.Contains(f.Snap.Error, "memory budget") || !strings.Contains(f.Snap.Error, "set window.slide") {
		t.Errorf("the job is %s: %q; want failed over the memory budget, saying what to change", f.Snap.State, f.Snap.Error)
	}
}
