package chart

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// LooksFor maps the lab's styles onto the chart classes: what a formula
// predicts in the accent colour, what was measured in the warning one,
// the ledger's series in the colours its pane gives them, and a kill as
// the pipeline draws a dead node. Under the mono theme (NO_COLOR) the
// styles carry no colour and the glyphs alone tell the series apart.
func LooksFor(st *styles.Styles) *Looks {
	return NewLooks(map[Class]lipgloss.Style{
		Axis:       st.Muted,
		Theory:     st.Accent,
		Measured:   st.Warn,
		Gauge:      st.OK,
		Delivered:  st.Text,
		Duplicates: st.Duplicate,
		Lost:       st.Bad,
		Killed:     st.Killed,
		Restarted:  st.OK,
		Checkpoint: st.Accent,
	})
}

// Render draws s in class c's look, rendered once and then kept.
func (l *Looks) Render(c Class, s string) string {
	if l == nil || !l.set || c == Plain {
		return s
	}
	return draw.Kept(l.kept, "", s, int(c), func() string { return l.styles[c].Render(s) })
}
