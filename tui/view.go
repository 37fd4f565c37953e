package tui

import (
	"fmt"
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

// overlayHelp draws every key that works now over body: the groups of
// the key maps one after another, in as many columns as the width allows,
// scrolled with the arrows when they do not fit the height.
func (m Model) overlayHelp(body []string, k helpKeys) []string {
	st := m.st
	type cell struct{ key, desc string }
	var cells []cell
	seen := map[string]bool{}
	keyW, descW := 0, 0
	for _, group := range k.FullHelp() {
		for _, b := range group {
			h := b.Help()
			if h.Key == "" || seen[h.Key+h.Desc] || !b.Enabled() {
				continue
			}
			seen[h.Key+h.Desc] = true
			cells = append(cells, cell{h.Key, h.Desc})
			keyW, descW = max(keyW, ansi.StringWidth(h.Key)), max(descW, ansi.StringWidth(h.Desc))
		}
	}
	descW = min(descW, 26)
	cellW := keyW + 1 + descW
	inner := min(m.w-6, 3*(cellW+2))
	cols := max(1, min((inner+2)/(cellW+2), 3))
	rows := (len(cells) + cols - 1) / cols
	var text []string
	for r := range rows {
		var line []string
		for c := range cols {
			if i := c*rows + r; i < len(cells) {
				line = append(line, st.Accent.Render(draw.Fit(cells[i].key, keyW))+" "+st.Muted.Render(draw.Fit(cells[i].desc, descW)))
			}
		}
		text = append(text, strings.Join(line, "  "))
	}
	page := max(len(body)-5, 3)
	off := min(max(m.helpOff, 0), max(len(text)-page, 0))
	foot := "? or esc closes this help"
	if len(text) > page {
		foot = fmt.Sprintf("keys %d–%d of %d · ↑↓ scroll · ", off+1, min(off+page, len(text)), len(text)) + foot
		text = text[off:min(off+page, len(text))]
	}
	text = append(text, "", st.Muted.Render(whyHelp), st.Muted.Render(foot))
	w := 0
	for _, l := range text {
		w = max(w, ansi.StringWidth(l))
	}
	w = min(w+2, m.w-2)
	box := draw.Box(st.Modal, "Keys", text, w+2, len(text)+2)
	return draw.Overlay(body, box, max((m.w-w-2)/2, 0), max((len(body)-len(box))/2, 0))
}

// whyHelp says what the palette's why asks for: a ROW as the Output pane
// shows it.
const whyHelp = ": why ROW explains a row: ROW is KEY@HH:MM:SS (click@12:00:10), offset=N or a record id"

// overlayConfirm asks whether to restart the job with a setting.
func (m Model) overlayConfirm(body []string) []string {
	st := m.st
	started := "The job is already running"
	switch m.frame.Snap.State {
	case "failed":
		started = "The job has failed"
	case "finished":
		started = "The job has finished"
	}
	text := []string{
		started + ", and settings are fixed",
		"when it starts. Restart it from the beginning with",
		"",
		"  " + st.Accent.Render(m.confirm),
		"",
		st.Muted.Render("(the session's script keeps your settings, not the runs)"),
		"",
		st.Accent.Render("y") + " restart   " + st.Accent.Render("n") + " leave it as it is",
	}
	return m.modal(body, "Restart the job?", text)
}

// modal draws a question's box over the middle of body, as wide as its
// widest line (within the screen).
func (m Model) modal(body []string, title string, text []string) []string {
	w := 0
	for _, l := range text {
		w = max(w, ansi.StringWidth(l))
	}
	w = min(w+2, m.w-4)
	box := draw.Box(m.st.Modal, title, text, w+2, len(text)+2)
	return draw.Overlay(body, box, max((m.w-w-2)/2, 0), max((len(body)-len(box))/2, 0))
}
