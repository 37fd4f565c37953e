package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/tui/pane/pipeline"
)

// rect is a pane's place on the screen.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// Fixed lines of the lab screen: the status bar on top, the message (or
// palette) line and the help bar at the bottom.
const chromeLines = 3

// bottomLayout is how the panes below the pipeline share the screen.
type bottomLayout int

const (
	// threeCols: output, ledger, events: a job without a filter.
	threeCols bottomLayout = iota
	// fourCols: output, ledger, filter, events, on wide screens; without a
	// filter the filter pane says how to add one.
	fourCols
	// stacked: output, ledger, and the filter above the events.
	stacked
	// shared: output, ledger, and one slot that the filter and the events
	// share, showing whichever had the focus last (the filter at first).
	shared
	// narrowStack: beside a lesson on a small screen, the ledger, and the
	// output above the events in the column right of it.
	narrowStack
)

// Layout thresholds, in cells.
const (
	fourColsW   = 160 // wide enough for four columns
	stackedH    = 24  // bottom rows tall enough to stack filter and events
	filterMaxH  = 20  // a stacked filter pane: map, numbers and probe
	exactH      = 7   // a stacked exact set's pane
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
)

// narrowStackH is the least bottom height that stacks the output above
// the events beside a lesson.
const narrowStackH = 12

// stackOutput puts the output pane above the events, right of the ledger,
// when a lesson's column leaves too little width for three side by side:
// the output's windows and counts and the events' words stay in view. The
// ledger gives up its sparklines before the output its window column.
func (m *Model) stackOutput(w, y, h int) {
	ledgerW := min(ledgerMinW, max(w-outputMinW, ledgerLeast), w)
	outH := h / 2
	m.bottom = narrowStack
	m.rects[PaneLedger] = rect{0, y, ledgerW, h}
	m.rects[PaneOutput] = rect{ledgerW, y, w - ledgerW, outH}
	m.rects[PaneEvents] = rect{ledgerW, y + outH, w - ledgerW, h - outH}
}

// dropOutput gives the output pane's room to the ledger and the panes
// beside it, when a lesson's column leaves too little for three.
func (m *Model) dropOutput(w, y, h int) {
	ledgerW := min(max(w*3/5, ledgerMinW), w)
	m.rects[PaneOutput] = rect{}
	m.rects[PaneLedger] = rect{0, y, ledgerW, h}
	for _, p := range []Pane{PaneFilter, PaneEvents} {
		if r := m.rects[p]; r.w > 0 {
			m.rects[p] = rect{ledgerW, r.y, w - ledgerW, r.h}
		}
	}
}

// resize lays the panes out once per size change (not per frame): the
// pipeline on top, as tall as its nodes need and the bottom row allows;
// output, ledger and events side by side below it, and the filter pane
// beside, above or instead of the events (see bottomLayout).
func (m *Model) resize(w, h int) {
	m.w, m.h = w, h
	m.helpBar.SetWidth(w)
	m.home.SetSize(w, max(h-1, 0))
	m.palette.SetWidth(w)
	body := max(h-chromeLines, 0)
	m.report.SetSize(min(w-2, 124), body)
	// In a lesson or an exercise its pane takes a column on the right,
	// and the lab's panes share what is left.
	guideW := 0
	if m.guide.Active() {
		guideW = min(max(w*2/5, guideMinW), guideMaxW)
		w -= guideW
	}
	filtered := m.hasFilter()
	least := bottomMin
	if filtered {
		least = bottomMinFx
	}
	// Framed nodes of five lines, and the pane's frame; when they do not
	// fit, the nodes go compact (two lines) and give the rest away.
	pipeH := m.nodeRows()*5 + 2
	if pipeH > body-least {
		pipeH = max(min(m.nodeRows()*2+3, body-least), 0)
	}
	if n := pipeline.ListLines(m.frame.Snap, w); n > 0 {
		pipeH = min(pipeH, n+2) // a node a line: the rest goes below
	}
	bottomH, y := body-pipeH, 1+pipeH
	m.rects = [paneCount]rect{}
	m.rects[PanePipeline] = rect{0, 1, w, pipeH}
	ledgerW := min(max(w*3/10, 30), 50)
	switch {
	case w >= fourColsW:
		m.bottom = fourCols
		ledgerW = min(max(w/5, 30), 44)
		filterW := min(max(w*3/10, 44), 68)
		outW := (w - ledgerW - filterW) / 2
		m.rects[PaneOutput] = rect{0, y, outW, bottomH}
		m.rects[PaneLedger] = rect{outW, y, ledgerW, bottomH}
		m.rects[PaneFilter] = rect{outW + ledgerW, y, filterW, bottomH}
		m.rects[PaneEvents] = rect{outW + ledgerW + filterW, y, w - outW - ledgerW - filterW, bottomH}
	case filtered && bottomH >= stackedH:
		m.bottom = stacked
		outW := (w - ledgerW) * 2 / 5
		rightW := w - ledgerW - outW
		filterH := min(bottomH-eventsMinH, filterMaxH)
		if m.filterKind() == filter.KindExact {
			filterH = min(filterH, exactH) // four lines of numbers
		}
		m.rects[PaneOutput] = rect{0, y, outW, bottomH}
		m.rects[PaneLedger] = rect{outW, y, ledgerW, bottomH}
		m.rects[PaneFilter] = rect{outW + ledgerW, y, rightW, filterH}
		m.rects[PaneEvents] = rect{outW + ledgerW, y + filterH, rightW, bottomH - filterH}
	case filtered:
		m.bottom = shared
		ledgerW = min(max(w*3/10, 28), 50)
		outW := (w - ledgerW) * 12 / 25
		slot := rect{outW + ledgerW, y, w - ledgerW - outW, bottomH}
		m.rects[PaneOutput] = rect{0, y, outW, bottomH}
		m.rects[PaneLedger] = rect{outW, y, ledgerW, bottomH}
		m.rects[PaneFilter], m.rects[PaneEvents] = slot, slot
	default:
		m.bottom = threeCols
		outW := (w - ledgerW) / 2
		m.rects[PaneOutput] = rect{0, y, outW, bottomH}
		m.rects[PaneLedger] = rect{outW, y, ledgerW, bottomH}
		m.rects[PaneEvents] = rect{outW + ledgerW, y, w - ledgerW - outW, bottomH}
	}
	if guideW > 0 {
		m.rects[PaneLesson] = rect{w, 1, guideW, body}
		switch {
		case m.bottom == threeCols && m.threeTooNarrow() && bottomH >= narrowStackH:
			m.stackOutput(w, y, bottomH)
		case w < narrowLabW:
			m.dropOutput(w, y, bottomH)
		}
	}
	for p, pn := range m.panes() {
		pn.SetSize(m.rects[p].w, m.rects[p].h)
	}
	m.predict.SetSize(m.rects[PaneLesson].w, m.rects[PaneLesson].h)
	if !m.inLayout(m.focus) {
		m.setFocus(PanePipeline)
	}
	if m.eventsScreen {
		m.events.SetSize(m.w, body)
	}
}

// threeTooNarrow reports whether the output and events panes, side by
// side with the ledger, are too narrow for an output row's window or a
// refusal's words.
func (m Model) threeTooNarrow() bool {
	return m.rects[PaneOutput].w < outputMinW || m.rects[PaneEvents].w < eventsMinW
}

// hasFilter reports whether the job has a membership filter.
func (m Model) hasFilter() bool { return m.frame.Snap.Filter != nil }

// filterKind is the kind of the job's filter, "" without one.
func (m Model) filterKind() string {
	switch f := m.frame.Snap.Filter; {
	case f == nil:
		return ""
	case f.Kind == "":
		return "unknown"
	default:
		return f.Kind
	}
}

// inLayout reports whether pane p is part of the layout (and so of the
// focus order), shown or waiting for its turn in a shared slot.
func (m Model) inLayout(p Pane) bool { return m.rects[p].w > 0 && m.rects[p].h > 0 }

// visible reports whether pane p is on screen now.
func (m Model) visible(p Pane) bool {
	if m.bottom == shared && (p == PaneFilter || p == PaneEvents) {
		return p == m.slot
	}
	return m.inLayout(p)
}

// nodeRows is the most nodes any stage of the job has (2 before the
// first frame: the clicks job's count stage).
func (m Model) nodeRows() int {
	rows := 0
	for _, st := range m.frame.Snap.Stages {
		rows = max(rows, len(st.Nodes))
	}
	if rows == 0 {
		return 2
	}
	return rows
}

// tooSmall reports whether the terminal is below the minimum size.
func (m Model) tooSmall() bool { return m.w < MinWidth || m.h < MinHeight }

// mouse focuses the pane under a left click, and in the pipeline selects
// the node under it.
func (m Model) mouse(ev tea.MouseMsg) Model {
	if !m.opts.Mouse || m.screen != ScreenLab || m.tooSmall() {
		return m
	}
	if ev.Action != tea.MouseActionPress || ev.Button != tea.MouseButtonLeft {
		return m
	}
	if m.overlays().clicksBlocked() {
		return m
	}
	for p := range paneCount {
		r := m.rects[p]
		if !m.visible(p) || !r.contains(ev.X, ev.Y) {
			continue
		}
		m.setFocus(p)
		if p == PanePipeline {
			m.pipeline.Click(ev.X-r.x, ev.Y-r.y)
		}
	}
	return m
}
