package tui

import tea "github.com/charmbracelet/bubbletea"

// rect is a pane's place on the screen.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// Fixed lines of the lab screen: the status bar on top, the message (or
// palette) line and the help bar at the bottom.
const chromeLines = 3

// resize lays the panes out once per size change (not per frame): the
// pipeline on top, as tall as its nodes need and the bottom row allows;
// output, ledger and events side by side below it.
func (m *Model) resize(w, h int) {
	m.w, m.h = w, h
	m.help.Width = w
	m.home.SetSize(w, max(h-1, 0))
	m.palette.SetWidth(w)
	body := max(h-chromeLines, 0)
	const bottomMin = 8 // the ledger's six lines and a frame
	// Framed nodes of five lines, and the pane's frame.
	pipeH := max(min(m.nodeRows()*5+2, body-bottomMin), 0)
	bottomH := body - pipeH
	ledgerW := min(max(w*3/10, 30), 50)
	outW := (w - ledgerW) / 2
	eventsW := w - ledgerW - outW
	m.rects[PanePipeline] = rect{0, 1, w, pipeH}
	m.rects[PaneOutput] = rect{0, 1 + pipeH, outW, bottomH}
	m.rects[PaneLedger] = rect{outW, 1 + pipeH, ledgerW, bottomH}
	m.rects[PaneEvents] = rect{outW + ledgerW, 1 + pipeH, eventsW, bottomH}
	m.pipeline.SetSize(w, pipeH)
	m.output.SetSize(outW, bottomH)
	m.ledger.SetSize(ledgerW, bottomH)
	m.events.SetSize(eventsW, bottomH)
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
	if m.palette.Active() || m.picker.Active() || m.confirm != "" || m.showHelp {
		return m
	}
	for p := range paneCount {
		r := m.rects[p]
		if !r.contains(ev.X, ev.Y) {
			continue
		}
		m.setFocus(p)
		if p == PanePipeline {
			m.pipeline.Click(ev.X-r.x, ev.Y-r.y)
		}
	}
	return m
}
