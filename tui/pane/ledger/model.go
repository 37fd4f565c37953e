// Package ledger is the lab's ledger pane: the ground truth. It shows what
// the sink delivered against a failure-free run of the same job and seed —
// delivered, unique, duplicates, lost, and whether the sink is correct —
// each with a sparkline of how it moved, what recovery still owes and what
// open transactions hold beside expected (never as lost), and, in a pane tall enough (or
// on c), a chart of delivered, duplicates and lost over virtual time with
// the kills, restarts and completed checkpoints marked where they
// happened, from the timeline the engine keeps.
package ledger

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/chart"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// maxSamples bounds the history each sparkline keeps.
const maxSamples = 240

// Model is the ledger pane.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	w, h    int
	focused bool
	gen     int64
	delta   bool

	has     bool
	totals  engine.LedgerTotals
	snap    engine.Snapshot
	lastMS  int64
	history [4][]int64 // delivered, unique, duplicates, lost

	timeline engine.Timeline
	clockMS  int64
	chart    bool // c: the chart fills a short pane
	glyphs   chart.Glyphs
	ink      *chart.Looks
}

// New returns an empty ledger pane.
func New(st *styles.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), lastMS: -1, glyphs: chart.Unicode, ink: chart.LooksFor(st)}
}

// SetASCII draws the chart in ASCII (a plain terminal).
func (m *Model) SetASCII(ascii bool) { m.glyphs = chart.For(ascii) }

// Chart reports whether c asked for the chart in a short pane.
func (m Model) Chart() bool { return m.chart }

// Keys is the pane's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the pane's outer size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetFocused says whether the pane has the keyboard.
func (m *Model) SetFocused(f bool) { m.focused = f }

// Totals are the latest counts.
func (m Model) Totals() engine.LedgerTotals { return m.totals }

// SetFrame takes the ledger from a frame, adding one sample per virtual
// second (so a paused lab does not flatten the lines).
func (m *Model) SetFrame(f bridge.Frame) {
	if f.Gen != m.gen {
		m.gen, m.history, m.lastMS = f.Gen, [4][]int64{}, -1
	}
	m.has, m.totals, m.snap = f.Snap.HasLedger, f.Snap.Ledger, f.Snap
	m.timeline, m.clockMS = f.Timeline, f.ClockMS
	if !m.has || !f.Started {
		return
	}
	// One sample per virtual second: a sparkline then spans as many
	// seconds as it has cells, whatever the frame rate or speed.
	bucket := f.ClockMS / 1000
	same := bucket == m.lastMS
	m.lastMS = bucket
	t := f.Snap.Ledger
	for i, v := range []int64{t.Delivered, t.Unique, t.Duplicates, t.Lost} {
		if same && len(m.history[i]) > 0 {
			m.history[i][len(m.history[i])-1] = v
			continue
		}
		h := append(m.history[i], v)
		if len(h) > maxSamples {
			h = h[len(h)-maxSamples:]
		}
		m.history[i] = h
	}
}

// Update toggles the sparklines between totals and changes.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, m.keys.Delta):
			m.delta = !m.delta
		case key.Matches(k, m.keys.Chart):
			m.chart = !m.chart
		}
	}
	return m, nil
}

// Delta reports whether the sparklines show changes rather than totals.
func (m Model) Delta() bool { return m.delta }

// View draws the pane.
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	title := "Ledger"
	if m.delta {
		title += " · changes"
	}
	iw, ih := m.w-2, m.h-2
	var body []string
	switch {
	case m.has && ih >= bodyLines+1+chartMinH:
		// Tall: the numbers, and the chart in place of the sparklines.
		body = m.body(iw, false)
		ch := min(ih-len(body)-1, chartMaxH)
		body = append(body, "")
		body = append(body, m.chartLines(iw, ch)...)
		if extra := ih - len(body); extra >= 2 {
			body = append(body, m.context(extra)...)
		}
	case m.has && m.chart:
		body = m.chartLines(iw, ih)
	default:
		body = m.body(iw, true)
		if extra := ih - len(body); extra >= 2 {
			body = append(body, m.context(extra-1)...)
		}
	}
	return draw.Box(frame, title, body, m.w, m.h)
}

// Heights of the chart: the least worth drawing beside the numbers, the
// most it takes (the rest goes to the context lines).
const (
	bodyLines = 6
	chartMinH = 8
	chartMaxH = 16
)

// chartLines is the chart over virtual time, h lines of w cells, with a
// legend of its marks when there is room.
func (m Model) chartLines(w, h int) []string {
	legend := m.legend(w)
	ch := h
	if h >= 7 {
		ch = h - len(legend)
	} else {
		legend = nil
	}
	lines := chart.Ledger(w, ch, chart.LedgerData{Timeline: m.timeline, EndMS: m.clockMS, Changes: m.delta}, m.glyphs, m.ink)
	return append(lines, legend...)
}

// legend names the chart's marks on one line, in short when narrow.
func (m Model) legend(w int) []string {
	g, st := m.glyphs, m.st
	mark := func(c chart.Class, r rune, what string) string {
		return m.ink.Render(c, string(r)) + st.Muted.Render(" "+what)
	}
	long := mark(chart.Killed, g.Kill(), "killed") + " " + mark(chart.Restarted, g.Restart(), "restarted") + " " + mark(chart.Checkpoint, g.Checkpoint(), "checkpoint")
	if ansi.StringWidth(long) <= w {
		return []string{long}
	}
	return []string{mark(chart.Killed, g.Kill(), "kill") + " " + mark(chart.Restarted, g.Restart(), "restart") + " " + mark(chart.Checkpoint, g.Checkpoint(), "ckpt")}
}

// context is what else explains the counts, for tall panes: how much went
// in, how many micro-batches the sink committed, what arrived too late.
func (m Model) context(n int) []string {
	st := m.st
	row := func(name string, v int64, what string) string {
		line := st.Muted.Render(fmt.Sprintf("%-11s", name)) + fmt.Sprintf("%7s", draw.Count(v))
		if 18+len(what) <= m.w-2 {
			line += st.Muted.Render(what) // said only where it fits whole
		}
		return line
	}
	rows := []string{
		"",
		row("admitted", m.snap.Admitted, " source records"),
		row("batches", m.snap.Batches, " committed"),
		row("late", m.snap.DroppedLate, " dropped"),
	}
	return rows[:min(n, len(rows))]
}

// body is the numbers, with a sparkline each when spark is set.
func (m Model) body(w int, spark bool) []string {
	st := m.st
	if !m.has {
		return []string{st.Muted.Render("ledger off")}
	}
	t := m.totals
	grade := func(v int64, bad lipgloss.Style) lipgloss.Style {
		if v > 0 {
			return bad
		}
		return st.OK
	}
	rows := []struct {
		name  string
		v     int64
		style lipgloss.Style
	}{
		{"delivered", t.Delivered, st.Text},
		{"unique", t.Unique, st.Text},
		{"duplicates", t.Duplicates, grade(t.Duplicates, st.Duplicate)},
		{"lost", t.Lost, grade(t.Lost, st.Bad)},
	}
	const labelW, numW = 11, 7
	sparkW := max(w-labelW-numW-1, 0)
	var out []string
	for i, r := range rows {
		line := st.Muted.Render(fmt.Sprintf("%-*s", labelW, r.name)) + r.style.Render(fmt.Sprintf("%*s", numW, draw.Count(r.v)))
		if sparkW > 0 && spark {
			line += " " + r.style.Render(draw.Sparkline(m.series(i), sparkW))
		}
		out = append(out, line)
	}
	expected := st.Muted.Render(fmt.Sprintf("%-*s", labelW, "expected")) + fmt.Sprintf("%*s", numW, draw.Count(t.Expected))
	aside := m.notLost()
	if aside != "" && labelW+numW+len(aside) <= w {
		expected, aside = expected+st.Muted.Render(aside), ""
	}
	out = append(out, expected)
	if aside != "" {
		// Too narrow to say it beside expected: a line of its own, since
		// what is owed must never read as lost.
		out = append(out, st.Muted.Render(ansi.Truncate(strings.Repeat(" ", labelW)+strings.TrimPrefix(aside, " · "), w, "…")))
	}
	verdict, why := st.OK.Render("✓ yes"), " matches the failure-free run"
	if !t.Correct {
		verdict, why = st.Bad.Render("✗ no"), m.whyNotCorrect()
	}
	if labelW+len(why)+6 <= w {
		verdict += st.Muted.Render(why)
	}
	out = append(out, st.Muted.Render(fmt.Sprintf("%-*s", labelW, "correct"))+verdict)
	return out
}

// notLost says what the sink lacks that is not lost: owed by recovery,
// or held in an open transaction; empty when nothing is.
func (m Model) notLost() string {
	var parts []string
	if m.totals.Owed > 0 {
		parts = append(parts, draw.Count(m.totals.Owed)+" owed")
	}
	if m.totals.Uncommitted > 0 {
		parts = append(parts, draw.Count(m.totals.Uncommitted)+" uncommitted")
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, " · ")
}

// whyNotCorrect says in a few words why the sink is not correct.
func (m Model) whyNotCorrect() string {
	switch {
	case m.snap.State == engine.StateFailed:
		return " the job failed"
	case m.totals.Owed > 0:
		return " recovery still owes records"
	}
	return " the sink differs from it"
}

// series is sparkline i as totals or as the change between samples.
func (m Model) series(i int) []int64 {
	h := m.history[i]
	if !m.delta || len(h) < 2 {
		return h
	}
	d := make([]int64, len(h)-1)
	for j := 1; j < len(h); j++ {
		d[j-1] = h[j] - h[j-1]
	}
	return d
}
