package styles

import (
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// newFrame is a Frame that keeps the edges drawn with it.
func newFrame(shape lipgloss.Border, edge, title lipgloss.Style) Frame {
	return Frame{Shape: shape, Edge: edge, Title: title, drawn: NewRendered()}
}

// Edges keeps the frame's edges as drawn ("top", "left", …, with the
// text set in them and their width); nil, which keeps nothing, for a
// Frame made without New.
func (f Frame) Edges() *Rendered { return f.drawn }

// Rendered keeps what lipgloss rendered, by what it was rendered from. A
// lab renders the same pieces at every frame (a box's edges, a chart's
// axis), and each Render costs microseconds where a look-up costs tens
// of nanoseconds.
type Rendered struct {
	mu   sync.Mutex
	kept map[renderKey]string
}

// NewRendered is an empty Rendered.
func NewRendered() *Rendered { return &Rendered{kept: map[renderKey]string{}} }

// renderKey is what a piece is rendered from: the caller's name for it,
// its text and a number (a width, a class), and the colour profile
// lipgloss writes in now. The terminal's background is not in it: it is
// settled before the first frame is drawn, and asking lipgloss for it
// could send the terminal a query where none was sent before (a plain
// or colourless lab never asks).
type renderKey struct {
	part, text string
	n          int
	profile    termenv.Profile
}

// maxRendered bounds what a Rendered keeps: pieces that count things are
// rendered anew as the counts move, and the old ones are not asked for
// again.
const maxRendered = 256

// Get is render's result for part with text and n: rendered the first
// time, then kept. A nil Rendered renders every time.
func (r *Rendered) Get(part, text string, n int, render func() string) string {
	if r == nil {
		return render()
	}
	k := renderKey{part: part, text: text, n: n, profile: lipgloss.ColorProfile()}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.kept[k]; ok {
		return s
	}
	if len(r.kept) >= maxRendered {
		clear(r.kept)
	}
	s := render()
	r.kept[k] = s
	return s
}
