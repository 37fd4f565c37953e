package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/layout"
)

// bloomLines configure the passthrough job with a small Bloom filter in a
// dedup stage, and a failure that makes upstream backup replay records.
var bloomLines = []string{"set semantics at-least-once", "set mode append", "set filter bloom m=512 k=3", "kill map at 300"}

// bloomLab is the lab at w×h on the passthrough job with bloomLines, after
// four seconds, and its session.
func bloomLab(t testing.TB, w, h int) (Model, *fakeEngine, *session) {
	t.Helper()
	s := newSession(t, "passthrough", bloomLines...)
	m, eng := labModel(t, w, h, s)
	m = s.run(m, 4*time.Second)
	return m, eng, s
}

// focusFilter tabs to the filter pane.
func focusFilter(t testing.TB, m Model) Model {
	t.Helper()
	for range paneCount {
		if m.Focus() == PaneFilter {
			return m
		}
		m, _ = press(t, m, "tab")
	}
	t.Fatal("tab never reached the filter pane")
	return m
}

func sentProbe(t *testing.T, eng *fakeEngine, id uint64) {
	t.Helper()
	if r := sentKind(t, eng, bridge.Probe); r.ID != id {
		t.Errorf("probed %d, want %d", r.ID, id)
	}
}

func TestFilterPaneKeys(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record)
	}{
		{"↑ probes the newest sink row", []string{"up"}, func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record) {
			newest := rows[len(rows)-1]
			sentProbe(t, eng, engine.DedupID(newest))
			if tg := m.filter.Target(); tg == nil || tg.Row != newest {
				t.Errorf("target %+v", tg)
			}
		}},
		{"↑ again probes an older row", []string{"up", "up", "up"}, func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record) {
			sentProbe(t, eng, engine.DedupID(rows[len(rows)-3]))
		}},
		{"↓ probes a newer row", []string{"up", "up", "up", "down"}, func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record) {
			sentProbe(t, eng, engine.DedupID(rows[len(rows)-2]))
		}},
		{"↓ stops at the newest", []string{"up", "down", "down"}, func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record) {
			sentProbe(t, eng, engine.DedupID(rows[len(rows)-1]))
		}},
		{"end goes back to the newest", []string{"up", "up", "up", "end"}, func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record) {
			sentProbe(t, eng, engine.DedupID(rows[len(rows)-1]))
		}},
		{"n probes an id no record has", []string{"n"}, func(t *testing.T, m Model, eng *fakeEngine, rows []engine.Record) {
			r := sentKind(t, eng, bridge.Probe)
			for _, row := range rows {
				if engine.DedupID(row) == r.ID {
					t.Fatalf("the made-up id %d is a sink row's", r.ID)
				}
			}
			if tg := m.filter.Target(); tg == nil || tg.MadeUp != 1 {
				t.Errorf("target %+v", tg)
			}
		}},
		{"n again makes another id", []string{"n", "n"}, func(t *testing.T, m Model, eng *fakeEngine, _ []engine.Record) {
			if len(eng.reqs) != 2 || eng.reqs[0].ID == eng.reqs[1].ID || m.filter.Target().MadeUp != 2 {
				t.Errorf("requests %+v", eng.reqs)
			}
		}},
		{"x stops probing", []string{"up", "x"}, func(t *testing.T, m Model, eng *fakeEngine, _ []engine.Record) {
			sentKind(t, eng, bridge.StopProbe)
			if m.filter.Target() != nil {
				t.Error("still a target")
			}
		}},
		{"x with nothing probed sends nothing", []string{"x"}, func(t *testing.T, m Model, eng *fakeEngine, _ []engine.Record) {
			if len(eng.reqs) != 0 {
				t.Errorf("sent %+v", eng.reqs)
			}
		}},
		{"the help bar shows the pane's keys", nil, func(t *testing.T, m Model, _ *fakeEngine, _ []engine.Record) {
			if !strings.Contains(plain(m.View()), "probe a sink row") {
				t.Error("no filter keys in the help bar")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, eng, _ := bloomLab(t, 200, 50)
			m = focusFilter(t, m)
			m.paused = true
			eng.reqs = nil
			rows := m.frame.Snap.Rows
			if len(rows) < 3 {
				t.Fatalf("%d sink rows", len(rows))
			}
			m, _ = press(t, m, tt.keys...)
			tt.check(t, m, eng, rows)
		})
	}
}

func TestProbeAnswerReachesThePane(t *testing.T) {
	m, eng, s := bloomLab(t, 120, 40)
	m = focusFilter(t, m)
	m, _ = press(t, m, "up")
	s.forward(eng)
	m = s.run(m, 100*time.Millisecond)
	bits := m.filter.Probe()
	if len(bits) != 3 {
		t.Fatalf("probe %+v, want k=3 bits", bits)
	}
	for _, b := range bits {
		if !b.Set {
			t.Errorf("a row in the sink was added to the filter, but bit %d is clear", b.Bit)
		}
	}
	view := plain(m.View())
	if !strings.Contains(view, "hash 1 → bit") || !strings.Contains(view, "a test says maybe") {
		t.Errorf("no probe on screen:\n%s", view)
	}
	// A frame of a new session drops the target.
	m.applyFrame(bridge.Frame{Gen: m.frame.Gen + 1, Snap: m.frame.Snap, Probe: &bridge.FilterProbe{ID: 1}})
	if m.filter.Target() != nil || m.filter.Probe() != nil {
		t.Error("a new session kept the probe")
	}
}

func TestFilterPaneJoinsTheFocusOrderWithAFilter(t *testing.T) {
	m, _ := started(t) // clicks, no filter, 80×24
	m, _ = press(t, m, "tab", "tab", "tab")
	if m.Focus() != PaneEvents {
		t.Errorf("without a filter the third tab focused %d, want events", m.Focus())
	}
	if strings.Contains(plain(m.View()), "Filter") {
		t.Error("a filter pane without a filter at 80×24")
	}

	m, _, _ = bloomLab(t, 80, 24)
	m, _ = press(t, m, "tab", "tab", "tab")
	if m.Focus() != PaneFilter {
		t.Fatalf("focus %d, want the filter pane", m.Focus())
	}
	view := plain(m.View())
	if !strings.Contains(view, "Filter · bloom") || strings.Contains(view, "Events") {
		t.Errorf("the shared slot shows the wrong pane:\n%s", view)
	}
	m, _ = press(t, m, "tab")
	view = plain(m.View())
	if m.Focus() != PaneEvents || !strings.Contains(view, "Events") || strings.Contains(view, "Filter · bloom") {
		t.Errorf("tab to events: focus %d\n%s", m.Focus(), view)
	}
	m, _ = press(t, m, "tab", "shift+tab", "shift+tab")
	if m.Focus() != PaneFilter || !strings.Contains(plain(m.View()), "Filter · bloom") {
		t.Errorf("shift+tab back: focus %d", m.Focus())
	}
}

func TestLayoutsWithAFilter(t *testing.T) {
	for _, tt := range []struct {
		w, h int
		want layout.Bottom
	}{{80, 24, layout.Shared}, {81, 25, layout.Shared}, {100, 30, layout.Shared}, {120, 40, layout.Stacked}, {133, 41, layout.Stacked}, {200, 50, layout.FourCols}, {250, 70, layout.FourCols}} {
		m, _, _ := bloomLab(t, tt.w, tt.h)
		if m.bottom != tt.want {
			t.Errorf("%d×%d: layout %d, want %d", tt.w, tt.h, m.bottom, tt.want)
		}
		checkSize(t, m.View(), tt.w, tt.h)
	}
	// The filter pane appears when a frame brings a filter, and goes with it.
	m, _ := labModel(t, 80, 24, nil)
	m.setFocus(PaneEvents)
	withFilter := bridge.Frame{Gen: 1, Snap: engine.Snapshot{Filter: &engine.FilterStats{}}}
	m.applyFrame(withFilter)
	if m.bottom != layout.Shared || !m.inLayout(PaneFilter) {
		t.Fatalf("a frame with a filter: layout %d", m.bottom)
	}
	m.setFocus(PaneFilter)
	m.applyFrame(bridge.Frame{Gen: 2})
	if m.bottom != layout.ThreeCols || m.inLayout(PaneFilter) || m.Focus() != PanePipeline {
		t.Errorf("without a filter: layout %d, focus %d", m.bottom, m.Focus())
	}
	// Stacked, an exact set's four lines leave the rest to the events.
	m, _ = labModel(t, 120, 40, nil)
	exact := &engine.FilterStats{Stats: filter.Stats{Kind: filter.KindExact}}
	m.applyFrame(bridge.Frame{Gen: 1, Snap: engine.Snapshot{Filter: exact}})
	if m.bottom != layout.Stacked || m.rects[PaneFilter].H != layout.ExactH {
		t.Errorf("an exact set stacked: layout %d, height %d", m.bottom, m.rects[PaneFilter].H)
	}
	m.applyFrame(bridge.Frame{Gen: 1, Snap: engine.Snapshot{Filter: &engine.FilterStats{Stats: filter.Stats{Kind: filter.KindBloom}}}})
	if m.rects[PaneFilter].H <= layout.ExactH {
		t.Errorf("a Bloom filter stacked: height %d", m.rects[PaneFilter].H)
	}
	m.applyFrame(bridge.Frame{Gen: 2})
	if m.bottom != layout.ThreeCols {
		t.Errorf("without a filter: layout %d", m.bottom)
	}
}

func TestWideLabShowsHowToAddAFilter(t *testing.T) {
	s := newSession(t, "clicks")
	m, eng := labModel(t, 200, 50, s)
	m = s.run(m, time.Second)
	view := plain(m.View())
	if !strings.Contains(view, "set filter bloom n=10000 p=0.01") {
		t.Errorf("no hint:\n%s", view)
	}
	m = focusFilter(t, m)
	eng.reqs = nil
	_, _ = press(t, m, "up", "n", "x")
	if len(eng.reqs) != 0 {
		t.Errorf("probe keys without a filter sent %+v", eng.reqs)
	}
}

func TestMouseClickInTheSharedSlot(t *testing.T) {
	m, _, _ := bloomLab(t, 80, 24)
	r := m.rects[PaneFilter]
	next, _ := m.Update(tea.MouseMsg{X: r.X + 2, Y: r.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if f := next.(Model).Focus(); f != PaneFilter {
		t.Errorf("a click on the filter pane focused %d", f)
	}
}

func TestGoldenFilter(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}} {
		m, eng, s := bloomLab(t, size.w, size.h)
		m = focusFilter(t, m)
		m, _ = press(t, m, "up")
		s.forward(eng)
		m = s.run(m, 100*time.Millisecond)
		view := m.View()
		checkSize(t, view, size.w, size.h)
		golden(t, "filter_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
}
