package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/layout"
	"github.com/streamlab/streamlab/tui/pane/pipeline"
)

// resize lays the panes out once per size change (not per frame; see
// package layout) and sizes every part of the screen to it.
func (m *Model) resize(w, h int) {
	m.w, m.h = w, h
	m.helpBar.SetWidth(w)
	m.home.SetSize(w, max(h-1, 0))
	m.palette.SetWidth(w)
	body := max(h-layout.ChromeLines, 0)
	m.report.SetSize(min(w-2, 124), body)
	s := layout.Place(layout.Input{
		W: w, H: h, Lesson: m.guide.Active(), Filter: m.filterKind(), NodeRows: m.nodeRows(),
		ListLines: func(w int) int { return pipeline.ListLines(m.frame.Snap, w) },
	})
	m.bottom = s.Bottom
	m.rects = [paneCount]layout.Rect{
		PanePipeline: s.Pipeline, PaneOutput: s.Output, PaneLedger: s.Ledger,
		PaneFilter: s.Filter, PaneEvents: s.Events, PaneLesson: s.Lesson,
	}
	for p, pn := range m.panes() {
		pn.SetSize(m.rects[p].W, m.rects[p].H)
	}
	m.predict.SetSize(m.rects[PaneLesson].W, m.rects[PaneLesson].H)
	if !m.inLayout(m.focus) {
		m.setFocus(PanePipeline)
	}
	if m.eventsScreen {
		m.events.SetSize(m.w, body)
	}
}

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
func (m Model) inLayout(p Pane) bool { return m.rects[p].Shown() }

// visible reports whether pane p is on screen now.
func (m Model) visible(p Pane) bool {
	if m.bottom == layout.Shared && (p == PaneFilter || p == PaneEvents) {
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
		if !m.visible(p) || !r.Contains(ev.X, ev.Y) {
			continue
		}
		m.setFocus(p)
		if p == PanePipeline {
			m.pipeline.Click(ev.X-r.X, ev.Y-r.Y)
		}
	}
	return m
}
