package pipeline

import "github.com/streamlab/streamlab/engine"

// Sizes of the drawing, in cells.
const (
	minColW  = 15 // narrower than this and the numbers no longer fit
	maxColW  = 30
	boxedH   = 5 // a framed node: border, three lines, border
	compactH = 2 // an unframed node: two lines
)

// geometry is where everything goes. It depends only on the stages and the
// pane size, so View and mouse clicks compute the same places.
type geometry struct {
	first, count int // the stages shown: [first, first+count)
	colW, arrowW int
	left         int // blank cells before the first column (centring)
	nodeH        int // boxedH or compactH
	rows         int // most nodes in one shown stage
	top          int // blank lines above the drawing (centring)
	h            int
	// list: the stages do not fit side by side, so every node gets a line
	// of its own, in stage order (the compact stage form); order lists the
	// node indexes line by line.
	list  bool
	order []int
}

// layoutFor fits stages into w×h, keeping stage sel in view.
func layoutFor(stages []engine.StageSnapshot, w, h, sel int) geometry {
	g := geometry{h: h, count: len(stages), arrowW: 5}
	if g.count == 0 || w <= 0 || h <= 0 {
		return g
	}
	for _, aw := range []int{4, 3} {
		if w < g.count*(minColW+2)+(g.count-1)*g.arrowW {
			g.arrowW = aw
		}
	}
	if fit := (w + g.arrowW) / (minColW + g.arrowW); fit < g.count {
		for _, st := range stages {
			g.order = append(g.order, st.Nodes...)
		}
		if len(g.order) <= h {
			g.list, g.first = true, 0
			g.top = (h - len(g.order)) / 2
			return g
		}
		g.order = nil
		g.count = max(fit, 1)
		g.first = min(max(sel-g.count/2, 0), len(stages)-g.count)
	}
	g.colW = min((w-(g.count-1)*g.arrowW)/g.count, maxColW)
	g.left = (w - (g.count*g.colW + (g.count-1)*g.arrowW)) / 2
	for _, st := range stages[g.first : g.first+g.count] {
		g.rows = max(g.rows, len(st.Nodes))
	}
	g.nodeH = boxedH
	if g.rows*boxedH > h {
		g.nodeH = compactH
	}
	g.top = max((h-g.rows*g.nodeH)/2, 0)
	return g
}

// x is the left edge of shown stage i (an index into stages).
func (g geometry) x(i int) int {
	return g.left + (i-g.first)*(g.colW+g.arrowW)
}

// y is the top edge of node j of a stage with n nodes.
func (g geometry) y(n, j int) int {
	return g.top + (g.rows-n)*g.nodeH/2 + j*g.nodeH
}

// mid is the row the arrows are drawn on.
func (g geometry) mid() int {
	return g.top + max(g.rows*g.nodeH/2, 0)
}

// shown reports whether stage i is drawn.
func (g geometry) shown(i int) bool { return i >= g.first && i < g.first+g.count }

// hit returns the node index (into the snapshot's Nodes) at (x, y), or -1.
func (g geometry) hit(stages []engine.StageSnapshot, x, y int) int {
	if g.list {
		if i := y - g.top; i >= 0 && i < len(g.order) {
			return g.order[i]
		}
		return -1
	}
	for i := g.first; i < g.first+g.count; i++ {
		if x < g.x(i) || x >= g.x(i)+g.colW {
			continue
		}
		st := stages[i]
		for j, n := range st.Nodes {
			if top := g.y(len(st.Nodes), j); y >= top && y < top+g.nodeH {
				return n
			}
		}
	}
	return -1
}

// ListLines is how many lines the compact stage form of snap takes in a
// pane w wide, or 0 when the stages fit side by side there; the lab gives
// the rest of the height to the panes below.
func ListLines(snap engine.Snapshot, w int) int {
	g := layoutFor(snap.Stages, w-2, len(snap.Nodes)+1, 0)
	if !g.list {
		return 0
	}
	return len(g.order)
}
