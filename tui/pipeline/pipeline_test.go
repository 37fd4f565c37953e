package pipeline

import (
	"flag"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func TestRateOverVirtualTime(t *testing.T) {
	var r rate
	r.add(0, 0)
	r.add(500, 40)
	r.add(500, 50) // same time: the newer count wins
	r.add(1000, 100)
	if got := r.perSecond(); got != 100 {
		t.Errorf("rate %v, want 100/s", got)
	}
	r.add(10_000, 1000) // older samples fall out of the window
	if len(r.s) > 2 {
		t.Errorf("kept %d samples", len(r.s))
	}
}

func TestUnknownStatesStillDraw(t *testing.T) {
	st := styles.New(styles.Mono)
	if l := stateLook(st, "killed"); !l.down {
		t.Error("killed is not down")
	}
	if l := stateLook(st, "some-future-state"); l.glyph == "" || l.down {
		t.Errorf("look %+v", l)
	}
}

func TestLayoutHitsTheNodeDrawn(t *testing.T) {
	stages := []engine.StageSnapshot{{Nodes: []int{0}}, {Nodes: []int{1, 2}}, {Nodes: []int{3}}}
	g := layoutFor(stages, 78, 10, 0)
	if g.nodeH != boxedH || g.count != 3 {
		t.Fatalf("geometry %+v", g)
	}
	if got := g.hit(stages, g.x(1)+1, g.y(2, 1)+1); got != 2 {
		t.Errorf("hit %d, want node 2", got)
	}
	if got := g.hit(stages, g.x(1)-1, g.y(2, 1)+1); got != -1 {
		t.Errorf("hit between columns: %d", got)
	}
	narrow := layoutFor(append(stages, stages...), 78, 4, 5)
	if narrow.nodeH != compactH || narrow.count >= 6 || !narrow.shown(5) {
		t.Errorf("narrow geometry %+v", narrow)
	}
}
