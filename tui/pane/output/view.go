package output

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/draw"
)

// View draws the pane.
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }

// viewKey is everything Lines draws from: between frames that wrote no
// rows, nothing changes and the pane is drawn once. The table's rows
// stay highlighted for a while after they changed, so its drawing also
// depends on the clock.
type viewKey struct {
	rev          uint64
	sink         engine.SinkKind
	clock        int64
	w, h, scroll int
	focused      bool
}

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	k := viewKey{rev: m.rev, sink: m.sink, w: m.w, h: m.h, scroll: m.scroll, focused: m.focused}
	if m.tableView() {
		k.clock = m.clock
	}
	return m.memo.Lines(k, m.draw)
}

// draw draws the newest rows that fit, or those scrolled to.
func (m Model) draw() []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	title := "Output · " + string(m.sink)
	if m.tableView() {
		title += " (by window)"
	}
	if m.scroll > 0 {
		title += fmt.Sprintf(" ↑%d", m.scroll)
	}
	iw, ih := m.w-2, m.h-2
	var body []string
	switch {
	case ih <= 0:
	case m.total() == 0:
		body = []string{m.st.Muted.Render("nothing written yet")}
	case m.tableView():
		body = m.tableLines(iw, ih)
	default:
		body = m.logLines(iw, ih)
	}
	return draw.Box(frame, title, body, m.w, m.h)
}

// window returns the visible slice [from, to) of n rows, h at a time,
// scrolled up by m.scroll.
func (m Model) window(n, h int) (int, int) {
	to := max(n-m.scroll, 0)
	return max(to-h, 0), to
}

// clock renders an event time (Unix ms) as the time of day.
func clock(ms int64) string { return time.UnixMilli(ms).UTC().Format("15:04:05") }

// times marks a row written more than once.
func (m Model) times(n int) string {
	if n < 2 {
		return ""
	}
	return " " + m.st.Duplicate.Render("×"+strconv.Itoa(n))
}

func (m Model) logLines(w, h int) []string {
	from, to := m.window(len(m.log), h)
	out := make([]string, 0, to-from)
	for i, r := range m.log[from:to] {
		out = append(out, m.mark(from+i == to-1, m.row(r.rec, m.rowW(w))+m.times(r.times), w))
	}
	return out
}

// mark draws a row fitted to w cells. A focused pane keeps a cell before
// every row, so that its columns stay in line, and ▸ there marks the row
// w (why) asks about: the newest in view.
func (m Model) mark(marked bool, line string, w int) string {
	if !m.focused {
		return draw.Fit(line, w)
	}
	gutter := " "
	if marked {
		gutter = m.st.Selected.Render("▸")
	}
	return gutter + draw.Fit(line, w-1)
}

// rowW is the width a row's text has in w cells: one less in a focused
// pane, for the cell mark keeps before it.
func (m Model) rowW(w int) int {
	if m.focused {
		return w - 1
	}
	return w
}

// narrowW is the width below which a row leaves out its time: the count
// is what a learner reads.
const narrowW = 22

// keyW is the width of a row's key column in w cells: a cell narrower
// where the window, key, count and a ×N mark would not fit otherwise.
func keyW(w int) int {
	if w >= narrowW && w < narrowW+3 {
		return 6
	}
	return 7
}

// row renders one sink row: "12:00:10 click 23" for a result (window
// start, key, count), "#id 12:00:01 click @offset" for an event.
func (m Model) row(r engine.Record, w int) string {
	at := m.st.Muted.Render(clock(r.WindowStart)) + " "
	if !r.IsResult() {
		at = m.st.Muted.Render(clock(r.Time)) + " "
	}
	if w < narrowW {
		at = ""
	}
	if r.IsResult() {
		return at + fmt.Sprintf("%-*s %5d", keyW(w), r.Key, r.Value)
	}
	return at + fmt.Sprintf("%-*s #%d", keyW(w), r.Action, r.Offset)
}

func (m Model) tableLines(w, h int) []string {
	cw := m.rowW(w)
	head := fmt.Sprintf("%-8s %-*s %5s", "window", keyW(cw), "key", "count")
	if cw < narrowW {
		head = fmt.Sprintf("%-7s %5s", "key", "count")
	}
	head = m.st.Muted.Render(draw.Fit(head, cw))
	if m.focused {
		head = " " + head
	}
	out := []string{head}
	from, to := m.window(len(m.order), h-1)
	for i, k := range m.order[from:to] {
		c := m.table[k]
		line := fmt.Sprintf("%s %-*s %5d", clock(c.rec.WindowStart), keyW(cw), c.rec.Key, c.rec.Value)
		if cw < narrowW {
			line = fmt.Sprintf("%-7s %5d", c.rec.Key, c.rec.Value)
		}
		style := lipgloss.Style(m.st.Text)
		if m.clock-c.changed < flashMS {
			style = m.st.Changed
		}
		out = append(out, m.mark(from+i == to-1, style.Render(line)+m.times(c.times), w))
	}
	return out
}
