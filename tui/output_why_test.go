package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/tui/bridge"
)

// TestWhyOfTheMarkedOutputRow: with the Output pane focused, ▸ marks the
// newest row in view, the scroll keys move it, and w asks why that row is
// there; the answer names the row the pane marked.
func TestWhyOfTheMarkedOutputRow(t *testing.T) {
	s := newSession(t, "passthrough", "set mode append", "set semantics at-least-once", "kill filter at 300")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, 12*time.Second)
	for m.focus != PaneOutput {
		m, _ = press(t, m, "tab")
	}
	newest, ok := m.output.Marked()
	if !ok || !strings.HasPrefix(newest, "offset=") || !strings.Contains(plain(m.View()), "▸") {
		t.Fatalf("marked %q, %v:\n%s", newest, ok, plain(m.View()))
	}
	m, _ = press(t, m, "up")
	older, _ := m.output.Marked()
	if older == newest {
		t.Fatalf("up left the mark on %s", newest)
	}
	m, _ = press(t, m, "w")
	r, _ := eng.last()
	if r.Kind != bridge.Line || r.Line != "why "+older {
		t.Fatalf("w sent %+v, want why %s", r, older)
	}
	s.forward(eng)
	m = s.run(m, 100*time.Millisecond)
	if v := plain(m.View()); !strings.Contains(v, "why "+older) {
		t.Errorf("the answer does not name the marked row %s:\n%s", older, v)
	}
}
