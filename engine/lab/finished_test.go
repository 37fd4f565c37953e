package lab_test

import (
	"context"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
)

// Finished sees the runtime the report describes, before it is closed:
// its timeline ends where the report's sink does.
func TestFinishedSeesTheReportsRuntime(t *testing.T) {
	src := []byte("job clicks\nset semantics at-least-once\nkill count[1] at 300\nrun 2000\nrun 10s\n")
	var tl engine.Timeline
	calls := 0
	rep, err := lab.RunScript(context.Background(), "t.lab", src, lab.Options{Finished: func(rt *engine.Runtime) {
		calls++
		tl = rt.Timeline()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || len(tl.Samples) == 0 {
		t.Fatalf("called %d times, %d samples", calls, len(tl.Samples))
	}
	if last := tl.Samples[len(tl.Samples)-1]; last.Delivered != rep.Sink.Delivered || last.Lost != rep.Sink.Lost {
		t.Errorf("timeline ends at %+v, the report's sink is %+v", last.LedgerTotals, rep.Sink)
	}

}
