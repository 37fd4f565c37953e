package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
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
	lines = append(lines, m.helpBar(m.activeKeys()))
	return strings.Join(draw.Block(lines, m.w, m.h), "\n")
}

func (m Model) tooSmallView() string {
	return tooSmallText(m.w, m.h, m.st.Warn) // terminal.go: fits 40×10
}

// labChrome puts the lab screen's status bar above body and its message
// line below.
func (m Model) labChrome(body []string) []string {
	lines := append([]string{m.statusBar()}, body...)
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
	if m.bottom == narrowStack {
		return draw.Join(m.ledger.Lines(), append(m.output.Lines(), m.events.Lines()...))
	}
	if m.inLayout(PaneOutput) {
		row = append(row, m.output.Lines())
	}
	row = append(row, m.ledger.Lines())
	switch m.bottom {
	case fourCols:
		row = append(row, m.filter.Lines(), m.events.Lines())
	case stacked:
		row = append(row, append(m.filter.Lines(), m.events.Lines()...))
	case shared:
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

// statusBar is the top line: job, settings, virtual time, speed, state.
func (m Model) statusBar() string {
	st, s, snap := m.st, m.frame.Settings, m.frame.Snap
	// The engine's word on the guarantee and mechanism in effect wins over
	// what was asked for (at-least-once brings upstream backup along).
	sem, ha, filter := s["semantics"], s["ha"], s["filter"]
	if snap.Semantics != "" {
		sem, ha = snap.Semantics, snap.HA
	}
	if snap.Filter != nil && snap.Filter.Spec != "" {
		filter = snap.Filter.Spec // the passwords job's list is a filter it sets itself
	}
	state := st.StatusRunning.Render("▶ running")
	if m.paused {
		state = st.StatusOff.Render("⏸ paused")
	}
	if !m.frame.Started {
		state = st.StatusOff.Render("⏸ ready")
	}
	if m.frame.Playing {
		state = st.StatusRunning.Render("▶ run to " + draw.Clock(m.frame.PlayEndMS))
		if m.paused {
			state = st.StatusOff.Render("⏸ run to " + draw.Clock(m.frame.PlayEndMS))
		}
	}
	if snap.State == "failed" {
		state = st.Bad.Render("✗ failed") // not paused: nothing will run on
	}
	kv := func(k, v string) string {
		return m.kept("status", k+"\x00"+v, func() string { return st.StatusKey.Render(k+" ") + st.Bold.Render(v) })
	}
	semSeg := kv("sem", orDash(sem))
	if m.frame.Note != "" && s["semantics"] != "" && s["semantics"] != sem {
		// A weaker guarantee than asked: R shows config.note, why.
		semSeg += st.Warn.Render(" (asked " + s["semantics"] + ")")
	}
	// Segments in display order, each with a rank: when the bar is too
	// wide the highest ranks go first.
	segs := []struct {
		text string
		rank int
	}{
		{m.kept("status", "streamlab", func() string { return st.Accent.Render("streamlab") }), 9},
		{kv("job", orDash(s["job"])), 1},
		{kv("mode", orDash(s["mode"])), 4},
		{kv("sink", orDash(s["sink"])), 5},
		{semSeg, 1},
		{kv("ha", orDash(ha)), 6},
		{kv("filter", orDash(filter)), 7},
		{kv("t", draw.Clock(m.frame.ClockMS)), 1},
		{bridge.FormatSpeed(m.speed), 2},
		{state, 0},
	}
	sep := m.kept("status", " │ ", func() string { return st.Muted.Render(" │ ") })
	join := func(limit int) string {
		var parts []string
		for _, sg := range segs {
			if sg.rank <= limit {
				parts = append(parts, sg.text)
			}
		}
		return " " + strings.Join(parts, sep)
	}
	bar := join(9)
	for limit := 8; limit >= 0 && ansi.StringWidth(bar) > m.w; limit-- {
		bar = join(limit)
	}
	return st.StatusBar.Render(draw.Fit(bar, m.w))
}

// kept is render's result for part and text, rendered once and kept:
// most of the status bar is the same at every frame.
func (m Model) kept(part, text string, render func() string) string {
	return draw.Kept(m.rendered, part, text, 0, render)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

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

// helpBarKey is what the help bar draws from: the width, and each key's
// help as the bar shows it, the same at almost every frame.
type helpBarKey struct {
	w, helpW int
	keys     string
}

func (m Model) helpBar(k helpKeys) string {
	bindings := k.ShortHelp()
	var keys strings.Builder
	for _, b := range bindings {
		h := b.Help()
		keys.WriteString(strconv.FormatBool(b.Enabled()) + "\x00" + h.Key + "\x00" + h.Desc + "\x00")
	}
	render := func() []string { return []string{draw.Fit(" "+m.help.ShortHelpView(bindings), m.w)} }
	return m.helpMemo.Lines(helpBarKey{m.w, m.help.Width, keys.String()}, render)[0]
}
