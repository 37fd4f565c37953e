// Package layout places the lab's panes on the screen: from the screen's
// size, a lesson's column, the job's filter and its stages, where each
// pane goes. The lab asks once per size change (or when the job's shape
// changes), not per frame; the package draws nothing.
package layout

import "github.com/streamlab/streamlab/engine/filter"

// Rect is a pane's place on the screen.
type Rect struct{ X, Y, W, H int }

// Contains reports whether the cell at x, y is inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Shown reports whether r has room for a pane.
func (r Rect) Shown() bool { return r.W > 0 && r.H > 0 }

// ChromeLines are the lab screen's fixed lines: the status bar on top, the
// message (or palette) line and the help bar at the bottom.
const ChromeLines = 3

// Bottom is how the panes below the pipeline share the screen.
type Bottom int

const (
	// ThreeCols: output, ledger, events: a job without a filter.
	ThreeCols Bottom = iota
	// FourCols: output, ledger, filter, events, on wide screens; without a
	// filter the filter pane says how to add one.
	FourCols
	// Stacked: output, ledger, and the filter above the events.
	Stacked
	// Shared: output, ledger, and one slot that the filter and the events
	// share, showing whichever had the focus last (the filter at first).
	Shared
	// NarrowStack: beside a lesson on a small screen, the ledger, and the
	// output above the events in the column right of it.
	NarrowStack
)

// ExactH is the height of a stacked exact set's pane: four lines of
// numbers, framed.
const ExactH = 7

// Thresholds, in cells.
const (
	fourColsW   = 160 // wide enough for four columns
	stackedH    = 24  // bottom rows tall enough to stack filter and events
	filterMaxH  = 20  // a stacked filter pane: map, numbers and probe
	eventsMinH  = 8   // what a stacked events pane keeps
	bottomMin   = 8   // the ledger's six lines and a frame
	bottomMinFx = 12  // with a filter: its map, numbers and probe too
	guideMinW   = 33  // the lesson pane's column (at 80 wide, the ledger keeps its numbers whole beside it)
	guideMaxW   = 64
	narrowLabW  = 70 // beside a lesson, narrower than this drops the output pane
	ledgerMinW  = 28
	ledgerLeast = 20 // the ledger's numbers without their sparklines
	// outputMinW fits an output row with its window, key, count and a ×N
	// mark, framed: less, and the window column goes.
	outputMinW = 26
	// eventsMinW lets a refusal wrap in a few lines of whole words.
	eventsMinW = 36
	// narrowStackH is the least bottom height that stacks the output
	// above the events beside a lesson.
	narrowStackH = 12
)

// Input is what the places depend on.
type Input struct {
	W, H int // the screen's size
	// Lesson gives a lesson's or an exercise's pane a column on the right.
	Lesson bool
	// Filter is the kind of the job's membership filter, "" without one.
	Filter string
	// NodeRows is the most nodes any stage of the job has.
	NodeRows int
	// ListLines is how many lines the pipeline takes at width w when it
	// lists its nodes a line each, 0 when it draws them as boxes.
	ListLines func(w int) int
}

// Screen is where each pane goes; a pane that is not in the layout has an
// empty Rect.
type Screen struct {
	Pipeline, Output, Ledger, Filter, Events, Lesson Rect
	Bottom                                           Bottom
}

// Place lays the panes out: the pipeline on top, as tall as its nodes need
// and the bottom row allows; output, ledger and events side by side below
// it, and the filter pane beside, above or instead of the events (see
// Bottom); a lesson's pane in a column on the right.
func Place(in Input) Screen {
	w, body := in.W, max(in.H-ChromeLines, 0)
	guideW := 0
	if in.Lesson {
		guideW = min(max(w*2/5, guideMinW), guideMaxW)
		w -= guideW
	}
	filtered := in.Filter != ""
	least := bottomMin
	if filtered {
		least = bottomMinFx
	}
	// Framed nodes of five lines, and the pane's frame; when they do not
	// fit, the nodes go compact (two lines) and give the rest away.
	pipeH := in.NodeRows*5 + 2
	if pipeH > body-least {
		pipeH = max(min(in.NodeRows*2+3, body-least), 0)
	}
	if n := in.ListLines(w); n > 0 {
		pipeH = min(pipeH, n+2) // a node a line: the rest goes below
	}
	bottomH, y := body-pipeH, 1+pipeH
	s := Screen{Pipeline: Rect{0, 1, w, pipeH}}
	ledgerW := min(max(w*3/10, 30), 50)
	switch {
	case w >= fourColsW:
		s.Bottom = FourCols
		ledgerW = min(max(w/5, 30), 44)
		filterW := min(max(w*3/10, 44), 68)
		outW := (w - ledgerW - filterW) / 2
		s.Output = Rect{0, y, outW, bottomH}
		s.Ledger = Rect{outW, y, ledgerW, bottomH}
		s.Filter = Rect{outW + ledgerW, y, filterW, bottomH}
		s.Events = Rect{outW + ledgerW + filterW, y, w - outW - ledgerW - filterW, bottomH}
	case filtered && bottomH >= stackedH:
		s.Bottom = Stacked
		outW := (w - ledgerW) * 2 / 5
		rightW := w - ledgerW - outW
		filterH := min(bottomH-eventsMinH, filterMaxH)
		if in.Filter == filter.KindExact {
			filterH = min(filterH, ExactH)
		}
		s.Output = Rect{0, y, outW, bottomH}
		s.Ledger = Rect{outW, y, ledgerW, bottomH}
		s.Filter = Rect{outW + ledgerW, y, rightW, filterH}
		s.Events = Rect{outW + ledgerW, y + filterH, rightW, bottomH - filterH}
	case filtered:
		s.Bottom = Shared
		ledgerW = min(max(w*3/10, 28), 50)
		outW := (w - ledgerW) * 12 / 25
		slot := Rect{outW + ledgerW, y, w - ledgerW - outW, bottomH}
		s.Output = Rect{0, y, outW, bottomH}
		s.Ledger = Rect{outW, y, ledgerW, bottomH}
		s.Filter, s.Events = slot, slot
	default:
		s.Bottom = ThreeCols
		outW := (w - ledgerW) / 2
		s.Output = Rect{0, y, outW, bottomH}
		s.Ledger = Rect{outW, y, ledgerW, bottomH}
		s.Events = Rect{outW + ledgerW, y, w - ledgerW - outW, bottomH}
	}
	if guideW > 0 {
		s.Lesson = Rect{w, 1, guideW, body}
		switch {
		case s.Bottom == ThreeCols && s.threeTooNarrow() && bottomH >= narrowStackH:
			s.stackOutput(w, y, bottomH)
		case w < narrowLabW:
			s.dropOutput(w, y, bottomH)
		}
	}
	return s
}

// threeTooNarrow reports whether the output and events panes, side by
// side with the ledger, are too narrow for an output row's window or a
// refusal's words.
func (s Screen) threeTooNarrow() bool {
	return s.Output.W < outputMinW || s.Events.W < eventsMinW
}

// stackOutput puts the output pane above the events, right of the ledger,
// when a lesson's column leaves too little width for three side by side:
// the output's windows and counts and the events' words stay in view. The
// ledger gives up its sparklines before the output its window column.
func (s *Screen) stackOutput(w, y, h int) {
	ledgerW := min(ledgerMinW, max(w-outputMinW, ledgerLeast), w)
	outH := h / 2
	s.Bottom = NarrowStack
	s.Ledger = Rect{0, y, ledgerW, h}
	s.Output = Rect{ledgerW, y, w - ledgerW, outH}
	s.Events = Rect{ledgerW, y + outH, w - ledgerW, h - outH}
}

// dropOutput gives the output pane's room to the ledger and the panes
// beside it, when a lesson's column leaves too little for three.
func (s *Screen) dropOutput(w, y, h int) {
	ledgerW := min(max(w*3/5, ledgerMinW), w)
	s.Output = Rect{}
	s.Ledger = Rect{0, y, ledgerW, h}
	for _, r := range []*Rect{&s.Filter, &s.Events} {
		if r.W > 0 {
			*r = Rect{ledgerW, r.Y, w - ledgerW, r.H}
		}
	}
}
