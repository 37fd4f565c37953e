package styles

import (
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// newFrame is a Frame that keeps the edges drawn with it.
func newFrame(shape lipgloss.Border, edge, title lipgloss.Style) Frame {
	return Frame{Shape: shape, Edge: edge, Title: title, drawn: &drawnEdges{kept: map[edgeKey]string{}}}
}

// drawnEdges are a frame's edges as drawn, each by what it was drawn for.
// A lab draws the same edges at every frame, and each costs lipgloss a
// few Renders.
type drawnEdges struct {
	mu   sync.Mutex
	kept map[edgeKey]string
}

// edgeKey is what an edge is drawn from: which edge, the text set in it,
// its width, and how lipgloss writes styles now.
type edgeKey struct {
	part, text string
	w          int
	profile    termenv.Profile
	dark       bool
}

// maxDrawnEdges bounds what a frame keeps: titles that count things take
// a new edge as the counts move, and the old ones are not drawn again.
const maxDrawnEdges = 256

// Drawn is render's result for the frame's edge part ("top", "left", …)
// with text set in it, w cells wide: drawn the first time, then kept. A
// Frame made without New keeps nothing.
func (f Frame) Drawn(part, text string, w int, render func() string) string {
	if f.drawn == nil {
		return render()
	}
	k := edgeKey{part: part, text: text, w: w, profile: lipgloss.ColorProfile(), dark: lipgloss.HasDarkBackground()}
	d := f.drawn
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.kept[k]; ok {
		return s
	}
	if len(d.kept) >= maxDrawnEdges {
		clear(d.kept)
	}
	s := render()
	d.kept[k] = s
	return s
}
