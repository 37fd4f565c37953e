package ledger

import (
	"flag"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package's goldens are the lab's, in package tui.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func frame() bridge.Frame {
	tl := engine.Timeline{StepMS: 250, Marks: []engine.TimelineMark{{TimeMS: 3000, Kind: engine.MarkKilled}, {TimeMS: 8000, Kind: engine.MarkRestarted}}}
	for ms := int64(0); ms <= 10_000; ms += 250 {
		s := engine.TimelineSample{TimeMS: ms}
		s.Delivered = ms / 10
		tl.Samples = append(tl.Samples, s)
	}
	snap := engine.Snapshot{HasLedger: true, Ledger: engine.LedgerTotals{Delivered: 1000, Unique: 1000, Expected: 1000, Correct: true}}
	return bridge.Frame{Gen: 1, Started: true, ClockMS: 10_000, Snap: snap, Timeline: tl}
}

func view(w, h int, keys ...string) (Model, string) {
	m := New(styles.New(styles.Mono))
	m.SetSize(w, h)
	m.SetFrame(frame())
	for _, k := range keys {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	return m, ansi.Strip(m.View())
}

func TestTallPaneChartsUnderTheNumbers(t *testing.T) {
	_, v := view(36, 30)
	for _, want := range []string{"delivered", "correct", "events", "✗", "▲", "0s", "10s", "killed"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if n := len(strings.Split(v, "\n")); n != 30 {
		t.Errorf("%d lines", n)
	}
}

func TestShortPaneSwapsNumbersForTheChart(t *testing.T) {
	_, v := view(30, 9)
	if strings.Contains(v, "events") || !strings.Contains(v, "expected") {
		t.Errorf("short pane before c:\n%s", v)
	}
	m, v := view(30, 9, "c")
	if !m.Chart() || !strings.Contains(v, "events") || !strings.Contains(v, "kill") || strings.Contains(v, "expected") {
		t.Errorf("after c:\n%s", v)
	}
	_, v = view(30, 9, "c", "d")
	if !strings.Contains(v, "changes") || !strings.Contains(v, "per ") {
		t.Errorf("after c d:\n%s", v)
	}
	// In ASCII the chart keeps to ASCII (the frame is the lab's to map).
	m = New(styles.New(styles.Mono))
	m.SetASCII(true)
	m.SetSize(30, 9)
	m.SetFrame(frame())
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	for _, l := range lines[1 : len(lines)-1] {
		inner := []rune(l)[1 : len([]rune(l))-1]
		for _, r := range inner {
			if r > 127 {
				t.Fatalf("%q in an ASCII chart:\n%s", r, strings.Join(lines, "\n"))
			}
		}
	}
}
