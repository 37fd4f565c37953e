package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"

	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/layout"
)

// View draws the screen.
func (m Model) View() string {
	if m.w == 0 {
		return "starting…"
	}
	if m.tooSmall() {
		return m.tooSmallView()
	}
	lines := m.overlays().draw(m, nil)
	if m.screen == ScreenLab {
		lines = m.labChrome(lines)
	}
	lines = append(lines, m.helpBar.Line(m.activeKeys(), m.w))
	return strings.Join(draw.Block(lines, m.w, m.h), "\n")
}

func (m Model) tooSmallView() string {
	return tooSmallText(m.w, m.h, m.st.Warn) // terminal.go: fits 40×10
}

// labChrome puts the lab screen's status bar above body and its message
// line below.
func (m Model) labChrome(body []string) []string {
	lines := append([]string{m.statusBar.Line(m.frame, m.paused, m.speed, m.w)}, body...)
	return append(lines, m.messageLine())
}

// panesLines draws the lab's panes as the layout places them, with the
// lesson's (or the prediction's) column.
func (m Model) panesLines() []string {
	body := append(m.pipeline.Lines(), m.bottomLines()...)
	if m.predict.Active() {
		return draw.Join(body, m.predict.Lines())
	}
	if m.guide.Active() {
		return draw.Join(body, m.guide.Lines())
	}
	return body
}

// bottomLines draws the panes below the pipeline, as the layout places
// them.
func (m Model) bottomLines() []string {
	var row [][]string
	if m.bottom == layout.NarrowStack {
		return draw.Join(m.ledger.Lines(), append(m.output.Lines(), m.events.Lines()...))
	}
	if m.inLayout(PaneOutput) {
		row = append(row, m.output.Lines())
	}
	row = append(row, m.ledger.Lines())
	switch m.bottom {
	case layout.FourCols:
		row = append(row, m.filter.Lines(), m.events.Lines())
	case layout.Stacked:
		row = append(row, append(m.filter.Lines(), m.events.Lines()...))
	case layout.Shared:
		if m.slot == PaneEvents {
			row = append(row, m.events.Lines())
		} else {
			row = append(row, m.filter.Lines())
		}
	default:
		row = append(row, m.events.Lines())
	}
	return draw.Join(row...)
}

// activeKeys are the keys that work right now: the top overlay's (see
// allOverlays).
func (m Model) activeKeys() helpKeys { return m.overlays().keys(m) }

// focusedKeys are the focused pane's keys.
func (m Model) focusedKeys() help.KeyMap { return m.panes()[m.focus].keyMap() }

// messageLine is the palette while it is open, else the last message.
func (m Model) messageLine() string {
	if m.palette.Active() {
		return draw.Fit(m.palette.View(), m.w)
	}
	if m.msg.text == "" {
		return ""
	}
	if m.msg.isErr {
		return draw.Fit(m.st.Bad.Render("✗ ")+m.st.Bad.Render(m.msg.text), m.w)
	}
	return draw.Fit(m.st.Muted.Render(m.msg.text), m.w)
}
