package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine/script"
)

// TestPasteIntoThePaletteIsCutToALine: a megabyte pasted or sent at once
// into the command palette leaves at most one script line's worth in it
// (script.MaxLineBytes): the rest goes nowhere, and nothing is sent.
func TestPasteIntoThePaletteIsCutToALine(t *testing.T) {
	for _, paste := range []bool{true, false} {
		m, eng := labModel(t, 120, 40, nil)
		m, _ = press(t, m, ":")
		if !m.palette.Active() {
			t.Fatal("the palette did not open")
		}
		next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x", 1<<20)), Paste: paste})
		m = next.(Model)
		if n := len(m.palette.Value()); n == 0 || n > script.MaxLineBytes {
			t.Errorf("paste %v: the palette holds %d bytes, want 1 to %d", paste, n, script.MaxLineBytes)
		}
		if got := sentLines(eng.reqs); len(got) != 0 {
			t.Errorf("paste %v: sent %q", paste, got)
		}
	}
}

// BenchmarkBurstPerByte measures keys that arrive together (the terminal
// reader hands a run of printable bytes over as one message), per byte,
// for a burst of 1 KiB and one of 16 KiB (what a served lab reads at
// once), into the palette's line and at the lab with the palette closed
// (each key on its own): the ratios stay near 1 because a burst costs in
// proportion to its bytes, and the line never grows past
// script.MaxLineBytes.
func BenchmarkBurstPerByte(b *testing.B) {
	perByte := func(n int, palette bool) float64 {
		burst := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x", n))}
		var spent time.Duration
		for range b.N {
			m, _ := labModel(b, 120, 40, nil)
			if palette {
				m, _ = press(b, m, ":")
			}
			start := time.Now()
			m.Update(burst)
			spent += time.Since(start)
		}
		return float64(spent.Nanoseconds()) / float64(b.N*n)
	}
	b.ResetTimer()
	for _, palette := range []bool{true, false} {
		name := "lab"
		if palette {
			name = "palette"
		}
		short, long := perByte(1<<10, palette), perByte(16<<10, palette)
		b.ReportMetric(short, "ns/byte-1KiB-"+name)
		b.ReportMetric(long, "ns/byte-16KiB-"+name)
		b.ReportMetric(long/short, "long/short-"+name)
	}
}
