package styles

import (
	"strconv"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestFrameKeepsWhatItDrew counts a frame's drawings: an edge drawn again
// with the same text and width is kept, another text, width or edge is
// drawn, and the frame keeps at most maxRendered of them.
func TestFrameKeepsWhatItDrew(t *testing.T) {
	f := New(Default).Pane
	draws := 0
	get := func(part, text string, w int) string {
		return f.Edges().Get(part, text, w, func() string {
			draws++
			return part + "|" + text + "|" + strconv.Itoa(w)
		})
	}
	steps := []struct {
		part, text string
		w, draws   int
	}{{"top", "Ledger", 30, 1}, {"top", "Ledger", 30, 1}, {"top", "Ledger", 31, 2}, {"top", "Events", 31, 3}, {"bottom", "Events", 31, 4}, {"top", "Ledger", 30, 4}}
	for _, s := range steps {
		if got, want := get(s.part, s.text, s.w), s.part+"|"+s.text+"|"+strconv.Itoa(s.w); got != want || draws != s.draws {
			t.Fatalf("%s %q %d: got %q after %d drawings, want %q after %d", s.part, s.text, s.w, got, draws, want, s.draws)
		}
	}
	for i := range 2 * maxRendered {
		get("top", "title", i)
	}
	if n := len(f.Edges().kept); n > maxRendered {
		t.Fatalf("the frame keeps %d edges, want at most %d", n, maxRendered)
	}
	hand := Frame{Shape: lipgloss.NormalBorder()}
	hand.Edges().Get("top", "", 5, func() string { draws++; return "" })
	hand.Edges().Get("top", "", 5, func() string { draws++; return "" })
	if draws != 4+2*maxRendered+2 {
		t.Fatalf("a Frame made by hand drew %d times in all, want every time", draws)
	}
}
