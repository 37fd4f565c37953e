package pipeline

import (
	"flag"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
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

// recoverySnap is a two-stage job under upstream backup with one node of
// each kind of trouble.
func recoverySnap() engine.Snapshot {
	return engine.Snapshot{
		Job: "passthrough", TimeMS: 4000, Semantics: "at-least-once", HA: engine.HAUpstreamBackup, Failures: 2, Backup: 1234,
		Stages: []engine.StageSnapshot{{Name: "source", Nodes: []int{0}}, {Name: "map", Nodes: []int{1, 2}}, {Name: "sink", Nodes: []int{3}}},
		Nodes: []engine.NodeSnapshot{
			{Name: "source", State: engine.NodeRunning, QueueCap: 64, Backup: 40},
			{Name: "map[0]", Stage: 1, State: engine.NodeRestarting, RestartAtMS: 7250, HasRestart: true, QueueCap: 64, Backup: 3},
			{Name: "map[1]", Stage: 1, Index: 1, State: engine.NodeKilled, QueueCap: 64},
			{Name: "sink", Stage: 2, State: engine.NodeRunning, QueueCap: 64},
		},
	}
}

func recoveryView(t *testing.T, w, h int) string {
	t.Helper()
	m := New(styles.New(styles.Mono))
	m.SetSize(w, h)
	m.SetFrame(bridge.Frame{Gen: 1, Snap: recoverySnap(), ClockMS: 4000})
	return ansi.Strip(m.View())
}

func TestRecoveryIsDrawn(t *testing.T) {
	for _, size := range [][2]int{{120, 12}, {80, 12}, {80, 6}} {
		view := recoveryView(t, size[0], size[1])
		wants := []string{
			"3.2s",       // map[0]'s countdown: 7250 − 4000 ms
			"killed",     // map[1], whatever the size
			"r restarts", // and how to bring it back
			"40",         // what source keeps for downstream
			"at-least-once via upstream-backup",
		}
		if size[1] == 6 {
			wants = wants[:4] // a short pane keeps the title to the job
		}
		for _, want := range wants {
			if !strings.Contains(strings.ToLower(view), want) {
				t.Errorf("%d×%d: no %q in\n%s", size[0], size[1], want, view)
			}
		}
	}
	if view := recoveryView(t, 120, 12); !strings.Contains(view, "✗ KILLED") || !strings.Contains(view, "in 3.2s") ||
		!strings.Contains(view, "backup 40") || !strings.Contains(view, "2 failures · backup 1.2k") {
		t.Errorf("a wide pane spells it out:\n%s", view)
	}
	if view := recoveryView(t, 80, 6); !strings.Contains(view, "bk 40") {
		t.Errorf("a compact node shortens backup to bk:\n%s", view)
	}
}

func TestCountdown(t *testing.T) {
	m := New(styles.New(styles.Mono))
	m.clock = 1000
	for _, c := range []struct {
		at   int64
		want string
	}{{1000, "now"}, {900, "now"}, {4250, "3.2s"}, {13_000, "12s"}, {126_000, "2m05s"}} {
		if got := m.countdown(engine.NodeSnapshot{RestartAtMS: c.at, HasRestart: true}); got != c.want {
			t.Errorf("restart at %d: %q, want %q", c.at, got, c.want)
		}
	}
}

func TestCheckpointsInTheTitle(t *testing.T) {
	m := New(styles.New(styles.Mono))
	m.SetSize(100, 8)
	s := recoverySnap()
	s.HA, s.Checkpoints, s.Failures = engine.HAPassiveStandby, 1, 0
	m.SetFrame(bridge.Frame{Gen: 1, Snap: s})
	title := strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]
	if !strings.Contains(title, "via passive-standby · 1 checkpoint") || strings.Contains(title, "failure") || strings.Contains(title, "backup") {
		t.Errorf("title %q", title)
	}
}

// A checkpoint barrier waiting at a node is drawn in its queue line, so a
// learner stepping through the job sees barriers move.
func TestBarriersAreDrawn(t *testing.T) {
	snap := recoverySnap()
	for i := range snap.Nodes {
		snap.Nodes[i].Barriers = 0
	}
	m := New(styles.New(styles.Mono))
	m.SetSize(120, 12)
	m.SetFrame(bridge.Frame{Gen: 1, Snap: snap})
	if strings.Contains(ansi.Strip(m.View()), "▮") {
		t.Fatal("a barrier drawn where none waits")
	}
	snap.Nodes[0].Barriers = 1
	m.SetFrame(bridge.Frame{Gen: 2, Snap: snap})
	if !strings.Contains(ansi.Strip(m.View()), "▮") {
		t.Fatalf("no barrier drawn:\n%s", ansi.Strip(m.View()))
	}
}

// A node whose watermark a dead sender holds back says so, with the
// watermark it is held at; the selection is marked in the node's name and
// starts on a parallel stage, not the source.
func TestHeldWatermarkAndSelection(t *testing.T) {
	m := New(styles.New(styles.Mono))
	m.SetSize(120, 14)
	snap := engine.Snapshot{
		Stages: []engine.StageSnapshot{{Name: "source", Nodes: []int{0}}, {Name: "count", Nodes: []int{1, 2}}, {Name: "sink", Nodes: []int{3}}},
		Nodes: []engine.NodeSnapshot{
			{Name: "source", State: engine.NodeRunning},
			{Name: "count[0]", Stage: 1, State: engine.NodeRunning, WatermarkHeld: true, Watermark: 1767268805000},
			{Name: "count[1]", Stage: 1, Index: 1, State: engine.NodeKilled},
			{Name: "sink", Stage: 2, State: engine.NodeRunning},
		},
	}
	m.SetFrame(bridge.Frame{Gen: 1, Snap: snap})
	if m.Selected() != "count[0]" {
		t.Errorf("selection starts on %s", m.Selected())
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"▸count[0]", "⏸wm 12:00:05"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not drawn:\n%s", want, view)
		}
	}
}

// A pane too narrow for the stages side by side lists every node, one a
// line, rather than showing two stages of five; a click picks a line.
func TestNarrowPaneListsEveryNode(t *testing.T) {
	m := New(styles.New(styles.Mono))
	m.SetSize(46, 11)
	snap := engine.Snapshot{
		Stages: []engine.StageSnapshot{{Nodes: []int{0}}, {Nodes: []int{1}}, {Nodes: []int{2, 3}}, {Nodes: []int{4}}},
		Nodes: []engine.NodeSnapshot{
			{Name: "source", State: engine.NodeRunning, In: 2200},
			{Name: "parse", Stage: 1, State: engine.NodeRunning},
			{Name: "count[0]", Stage: 2, State: engine.NodeRunning, WatermarkHeld: true, Watermark: 1767268805000},
			{Name: "count[1]", Stage: 2, Index: 1, State: engine.NodeKilled},
			{Name: "sink", Stage: 3, State: engine.NodeRunning},
		},
	}
	m.SetFrame(bridge.Frame{Gen: 1, Snap: snap})
	view := ansi.Strip(m.View())
	for _, want := range []string{"source", "parse", "▸ count[0]", "⏸wm 12:00:05", "count[1] ✗ KILLED", "sink", "in 2.2k"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not drawn:\n%s", want, view)
		}
	}
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "count[1]") {
			if !m.Click(3, i) || m.Selected() != "count[1]" {
				t.Errorf("a click on count[1]'s line selected %s", m.Selected())
			}
		}
	}
}
