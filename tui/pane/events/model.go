// Package events is the lab's events pane: a scrolling log of what the
// engine told the bus (batches, watermarks, late drops, failures) and of
// what the learner asked for, with the engine's answer (errors included).
package events

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// maxEntries bounds the log.
const maxEntries = 1000

// Entry kinds, for styling.
const (
	kindEvent = iota
	kindCommand
	kindInfo
	kindError
)

// Entry is one line of the log.
type Entry struct {
	TimeMS int64
	Kind   int
	// Noisy entries (one per admission) are hidden unless verbose.
	Noisy bool
	Text  string
	// routine is the event kind of a routine entry (see routine); repeat
	// counts the earlier ones it stands for.
	routine bus.EventKind
	repeat  int
}

// Model is the events pane.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	w, h    int
	focused bool
	verbose bool
	entries []Entry
	scroll  int
	clock   int64
	missed  int64
	// gen is the session the entries' clock belongs to; last the time of
	// the newest entry in it.
	gen, last int64
	// rev numbers the entries as they are now, for memo's key.
	rev  uint64
	memo *draw.Memo[viewKey]
}

// New returns an empty events pane.
func New(st *styles.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), memo: &draw.Memo[viewKey]{}}
}

// Keys is the pane's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the pane's outer size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetFocused says whether the pane has the keyboard.
func (m *Model) SetFocused(f bool) { m.focused = f }

// noisy are the event kinds that come once per admission: shown only when
// verbose, or they would bury everything else.
var noisy = map[bus.EventKind]bool{bus.EventAdmitted: true, bus.EventRunQuiet: true}

// routine are the event kinds that come with every micro-batch: a run of
// them is collapsed into the latest of each kind with a count, so they do
// not push a failure out of view.
var routine = map[bus.EventKind]bool{
	bus.EventBatchCommitted: true, bus.EventWatermark: true, bus.EventDroppedLate: true,
	bus.EventKillUnfired: true,
}

// SetFrame appends the frame's request results, then the bus events they
// and time caused: a command comes before what it did, and a note with no
// command of its own (a run finished) after it. The engine tells events in
// virtual-time order, each stamped when it happened; a line is never
// stamped before the one above it, so the log reads as one clock (a new
// session starts it again).
func (m *Model) SetFrame(f bridge.Frame) {
	if f.Gen != m.gen {
		m.gen, m.last = f.Gen, 0
	}
	m.clock = f.ClockMS
	m.missed += f.Missed
	m.results(f, true)
	defer m.results(f, false)
	for _, e := range f.Events {
		if routine[e.Kind] {
			m.addRoutine(Entry{TimeMS: e.TimeMS, Kind: kindEvent, Text: e.Text, routine: e.Kind})
			continue
		}
		m.add(Entry{TimeMS: e.TimeMS, Kind: kindEvent, Noisy: noisy[e.Kind], Text: e.Text})
	}
}

// addRoutine replaces the latest entry of the same routine kind when only
// routine (or hidden, noisy) entries came since, counting it. The entries
// are copied without it (with room for e), not shifted in place: earlier
// copies of the model share the old ones.
func (m *Model) addRoutine(e Entry) {
	for i := len(m.entries) - 1; i >= 0 && (m.entries[i].routine != "" || m.entries[i].Noisy); i-- {
		if m.entries[i].routine == e.routine {
			e.repeat = m.entries[i].repeat + 1
			kept := make([]Entry, 0, len(m.entries))
			m.entries = append(append(kept, m.entries[:i]...), m.entries[i+1:]...)
			if m.scroll > 0 {
				m.scroll-- // add counts it again
			}
			break
		}
	}
	m.add(e)
}

// results logs the frame's answers to requests: those to a command when
// commands is set, else the notes that answer none.
func (m *Model) results(f bridge.Frame, commands bool) {
	for _, r := range f.Results {
		if note := r.Line == "" && r.Err == ""; note == commands {
			continue
		}
		switch {
		case r.Err != "" && r.Line != "":
			m.add(Entry{TimeMS: f.ClockMS, Kind: kindError, Text: r.Line + ": " + r.Err})
		case r.Err != "":
			m.add(Entry{TimeMS: f.ClockMS, Kind: kindError, Text: r.Err})
		case r.Line != "" && r.Info != "":
			m.add(Entry{TimeMS: f.ClockMS, Kind: kindCommand, Text: "> " + r.Line + " — " + r.Info})
		case r.Line != "":
			m.add(Entry{TimeMS: f.ClockMS, Kind: kindCommand, Text: "> " + r.Line})
		default:
			m.add(Entry{TimeMS: f.ClockMS, Kind: kindInfo, Text: r.Info})
		}
	}
}

// Clear forgets every entry: a lesson or an exercise starts with an empty
// log, not the last one's events.
func (m *Model) Clear() { m.entries, m.scroll, m.missed, m.rev = nil, 0, 0, draw.Revision() }

// Add appends a line of the UI's own (a syntax error in the palette, …).
func (m *Model) Add(text string, isErr bool) {
	k := kindInfo
	if isErr {
		k = kindError
	}
	m.add(Entry{TimeMS: m.clock, Kind: k, Text: text})
}

// add appends e, stamped no earlier than the entry before it: a command
// typed while the engine had already got further is told after what the
// engine did, and a kill's "killed" after the kill.
func (m *Model) add(e Entry) {
	e.TimeMS = max(e.TimeMS, m.last)
	m.last, m.rev = e.TimeMS, draw.Revision()
	m.entries = append(m.entries, e)
	if len(m.entries) > maxEntries {
		m.entries = m.entries[len(m.entries)-maxEntries:]
	}
	if m.scroll > 0 && (m.verbose || !e.Noisy) {
		m.scroll++ // keep the lines the learner is reading in place
	}
}

// Entries are the lines shown with the current filter, oldest first.
func (m Model) Entries() []Entry {
	if m.verbose {
		return m.entries
	}
	out := make([]Entry, 0, len(m.entries))
	for _, e := range m.entries {
		if !e.Noisy {
			out = append(out, e)
		}
	}
	return out
}

// Update scrolls and filters.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	if key.Matches(k, m.keys.Verbose) {
		m.verbose, m.scroll = !m.verbose, 0
		return m, nil
	}
	m.scroll, _ = m.keys.Scroll(k, m.scroll, max(m.h-3, 1), len(m.Entries()))
	return m, nil
}

// Verbose reports whether every event is shown.
func (m Model) Verbose() bool { return m.verbose }

// Scroll is how many lines the view is scrolled up from the newest.
func (m Model) Scroll() int { return m.scroll }

// View draws the pane.
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }

// viewKey is everything Lines draws from: between frames that brought
// no events, nothing changes and the pane is drawn once.
type viewKey struct {
	rev              uint64
	missed           int64
	w, h, scroll     int
	focused, verbose bool
}

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	k := viewKey{rev: m.rev, missed: m.missed, w: m.w, h: m.h, scroll: m.scroll, focused: m.focused, verbose: m.verbose}
	return m.memo.Lines(k, m.draw)
}

// draw draws the newest entries that fit, or those scrolled to.
func (m Model) draw() []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	title := "Events"
	if m.verbose {
		title += " · all"
	}
	if m.scroll > 0 {
		title += fmt.Sprintf(" ↑%d", m.scroll)
	}
	if m.missed > 0 {
		title += fmt.Sprintf(" (%d missed)", m.missed)
	}
	iw, ih := m.w-2, m.h-2
	list := m.Entries()
	body := m.wrapped(list[:max(len(list)-m.scroll, 0)], iw, ih)
	// Scrolled to the top, show a full page of the oldest entries rather
	// than one entry over blank rows.
	for sc := m.scroll - 1; len(body) < ih && sc >= 0; sc-- {
		next := m.wrapped(list[:max(len(list)-sc, 0)], iw, ih)
		if len(next) > ih {
			break
		}
		body = next
	}
	if len(list) == 0 {
		body = []string{m.st.Muted.Render("quiet so far")}
	}
	return draw.Box(frame, title, body, m.w, m.h)
}

// wrapped lays out the newest entries of list, each wrapped at word
// boundaries to w cells (errors are long, and a learner must be able to
// read them), filling h lines from the bottom.
func (m Model) wrapped(list []Entry, w, h int) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	var out []string
	for i := len(list) - 1; i >= 0 && len(out) < h; i-- {
		lines := m.entryLines(list[i], w)
		if len(out)+len(lines) > h && len(out) > 0 {
			// The oldest entry shown may be cut at its top, so the pane
			// has no blank rows.
			lines = lines[len(lines)-(h-len(out)):]
		}
		out = append(lines, out...)
	}
	if len(out) > h {
		out = out[len(out)-h:]
	}
	return out
}

// hang is the indent of an entry's lines after its first.
const hang = 2

// shorter drops the filler of a routine sentence and keeps its numbers
// (which batch and how many rows, the watermark's time, how many records
// came late), for a pane too narrow for the whole sentence: routine lines
// come every batch and must not push a failure out of view. A sentence
// worded otherwise is left whole and wraps.
var shorter = map[bus.EventKind]*strings.Replacer{
	bus.EventBatchCommitted: strings.NewReplacer(" committed:", ":"),
	bus.EventWatermark:      strings.NewReplacer("watermark ", "wm "),
	bus.EventDroppedLate:    strings.NewReplacer(" records dropped late so far", " dropped late"),
}

// Line is e's text as the pane shows it in w cells after its clock, with
// the count of the entries it stands for. A routine entry takes the first
// of its forms that fits on one line: whole, short, short without the
// count (its numbers already say how far the run got); else the short
// form with the count, wrapped.
func (e Entry) Line(w int) string {
	count := ""
	if e.repeat > 0 {
		count = fmt.Sprintf(" (×%d)", e.repeat+1)
	}
	short, ok := shorter[e.routine]
	if !ok {
		return e.Text + count
	}
	brief := short.Replace(e.Text)
	for _, form := range []string{e.Text + count, brief + count, brief} {
		if ansi.StringWidth(draw.Clock(e.TimeMS)+" "+form) <= w {
			return form
		}
	}
	return brief + count
}

// entryLines draws one entry in w cells: its clock, then its text wrapped
// at spaces, the lines after the first indented, so no number is cut off.
func (m Model) entryLines(e Entry, w int) []string {
	stamp := draw.Clock(e.TimeMS) + " "
	lines := draw.Words(stamp+e.Line(w), w, hang)
	style := m.style(e.Kind)
	for i, l := range lines {
		switch {
		case i == 0 && strings.HasPrefix(l, stamp):
			lines[i] = m.st.Muted.Render(draw.Clock(e.TimeMS)) + " " + style.Render(l[len(stamp):])
		case i == 0:
			lines[i] = m.st.Muted.Render(l) // narrower than the clock
		default:
			lines[i] = l[:hang] + style.Render(l[hang:])
		}
	}
	return lines
}

// style is how an entry of kind is drawn.
func (m Model) style(kind int) lipgloss.Style {
	switch kind {
	case kindError:
		return m.st.Bad
	case kindCommand:
		return m.st.Accent
	case kindInfo:
		return m.st.Text
	}
	return lipgloss.NewStyle()
}
