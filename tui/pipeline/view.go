package pipeline

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/draw"
)

// partitionLabel names how records reach a stage, short enough for an
// arrow.
var partitionLabel = map[string]string{
	"forward": "fwd", "hash": "hash", "rebalance": "rr", "gather": "all", "broadcast": "all",
}

// View draws the pane.
func (m Model) View() string {
	return strings.Join(m.Lines(), "\n")
}

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	head := "Pipeline · " + m.snap.Job
	if m.snap.Job == "" {
		head = "Pipeline"
	}
	return draw.Box(frame, head, m.body(m.w-2, m.h-2), m.w, m.h)
}

func (m Model) body(w, h int) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	if len(m.snap.Stages) == 0 {
		return []string{m.st.Muted.Render("no job")}
	}
	g := layoutFor(m.snap.Stages, w, h, m.selStage())
	var cols [][]string
	if g.left > 0 {
		cols = append(cols, draw.Block(nil, g.left, h))
	}
	for i := g.first; i < g.first+g.count; i++ {
		if i > g.first {
			cols = append(cols, m.arrow(g, m.snap.Stages[i].Partition, i-1 >= 0))
		}
		cols = append(cols, m.column(g, m.snap.Stages[i]))
	}
	lines := draw.Join(cols...)
	if g.first > 0 {
		lines[g.mid()] = m.st.Muted.Render("‹") + ansi.TruncateLeft(lines[g.mid()], 1, "")
	}
	if g.first+g.count < len(m.snap.Stages) {
		lines[g.mid()] = draw.Fit(lines[g.mid()], w-1) + m.st.Muted.Render("›")
	}
	return draw.Block(lines, w, h)
}

// arrow is the gap between two stages: an arrow on the middle row, the
// partitioning above it when there is room.
func (m Model) arrow(g geometry, partition string, _ bool) []string {
	lines := make([]string, g.h)
	mid := g.mid()
	switch {
	case g.arrowW >= 5:
		lines[mid] = m.st.Muted.Render(" ──▶ ")
	case g.arrowW == 4:
		lines[mid] = m.st.Muted.Render("──▶ ")
	default:
		lines[mid] = m.st.Muted.Render("─▶ ")
	}
	if g.arrowW >= 4 && mid > 0 {
		lines[mid-1] = m.st.Muted.Render(draw.Fit(" "+partitionLabel[partition], g.arrowW))
	}
	return draw.Block(lines, g.arrowW, g.h)
}

// column draws one stage's nodes stacked and centred.
func (m Model) column(g geometry, st engine.StageSnapshot) []string {
	lines := make([]string, g.h)
	for j, ni := range st.Nodes {
		var box []string
		if g.nodeH == boxedH {
			box = m.boxed(ni, g.colW)
		} else {
			box = m.compact(ni, g.colW)
		}
		top := g.y(len(st.Nodes), j)
		for k, l := range box {
			if top+k < len(lines) {
				lines[top+k] = l
			}
		}
	}
	return draw.Block(lines, g.colW, g.h)
}

// spread puts left and right at the two ends of w cells.
func spread(left, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return draw.Fit(left, w)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m Model) rateOf(name string) string {
	if r := m.rates[name]; r != nil {
		return draw.Rate(r.perSecond())
	}
	return "0/s"
}

// queueLine is the queue bar and the held count.
func (m Model) queueLine(n engine.NodeSnapshot, barW int) string {
	st := m.st
	bar := draw.Bar(n.Queue, n.QueueCap, barW)
	style := st.OK
	switch fill := float64(n.Queue) / float64(max(n.QueueCap, 1)); {
	case fill >= 0.9:
		style = st.Bad
	case fill >= 0.5:
		style = st.Warn
	case n.Queue == 0:
		style = st.Muted
	}
	s := "q " + style.Render(bar) + " " + draw.Count(int64(n.Queue))
	if n.Held > 0 {
		s += " " + st.Warn.Render(fmt.Sprintf("held %d", n.Held))
	}
	return s
}

// boxed draws a node in a frame: the name in the border, then its state
// and rate, its counts, and its queue. Narrow boxes (80 columns) use the
// short form "300→298" for in and out and put the rate beside them.
func (m Model) boxed(i, w int) []string {
	n := m.snap.Nodes[i]
	st, lk := m.st, stateLook(m.st, n.State)
	frame := st.Node
	switch {
	case i == m.sel:
		frame = st.SelectedNode
	case lk.down:
		frame = st.KilledNode
	}
	iw := w - 2
	state := lk.style.Render(lk.glyph + " " + n.State)
	rate := st.Muted.Render(m.rateOf(n.Name))
	counts := "in " + draw.Count(n.In) + "  out " + draw.Count(n.Out)
	content := []string{spread(state, rate, iw), counts}
	if ansi.StringWidth(state)+ansi.StringWidth(rate)+1 > iw || len(counts) > iw {
		content = []string{state, spread(draw.Count(n.In)+"→"+draw.Count(n.Out), rate, iw)}
	}
	content = append(content, m.queueLine(n, max(min(iw-10, 8), 3)))
	return draw.Box(frame, n.Name, content, w, boxedH)
}

// compact draws a node on two unframed lines, for short terminals.
func (m Model) compact(i, w int) []string {
	n := m.snap.Nodes[i]
	st, lk := m.st, stateLook(m.st, n.State)
	name := st.Bold.Render(n.Name)
	if i == m.sel {
		name = st.Selected.Render("▸" + n.Name)
	}
	return []string{
		draw.Fit(spread(lk.style.Render(lk.glyph)+" "+name, m.rateOf(n.Name), w), w),
		draw.Fit("  "+m.queueLine(n, 3)+" in "+draw.Count(n.In), w),
	}
}
