package engine

import (
	"context"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/script"
)

// `why` still finds a window whose cell the ledger folded long ago, by
// its start and by its time of day, with its count on both sides.
func TestWhyFindsAFoldedWindow(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	spec.Operators = append([]jobspec.Operator(nil), spec.Operators...)
	for i := range spec.Operators {
		if spec.Operators[i].Kind == jobspec.KindWindowCount {
			spec.Operators[i].Window, spec.Operators[i].Slide = time.Second, 10*time.Millisecond
		}
	}
	rt, err := New(spec, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(20000) // more rows than the lineage keeps
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := rt.ledger
	first := rt.Source().At(0).Time
	start := first - first%10 // a window holding the first record
	k := windowKey{start, rt.Source().At(0).Key}
	if l.cells[k] != nil || start >= l.foldedBelow {
		t.Fatalf("the window of the first record is not folded (folded below %d, start %d)", l.foldedBelow, start)
	}
	for _, row := range []script.Row{
		{Kind: script.RowWindow, Key: k.key, Start: start},
		{Kind: script.RowWindow, Key: k.key, Clock: floorMod(start, dayMS), HasClock: true},
	} {
		p, err := rt.Explain(row)
		if err != nil {
			t.Fatalf("%s: %v", row, err)
		}
		if p.WindowStart != start || p.Expected < 1 || p.Got != p.Expected {
			t.Errorf("%s: window %d, expected %d, got %d; want window %d with the same count on both sides", row, p.WindowStart, p.Expected, p.Got, start)
		}
	}
}
