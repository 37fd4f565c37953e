// Package picker is a small modal list for choosing one setting's value
// (mode, sink, semantics, HA, filter). It only chooses: the lab turns the
// choice into a `set` line, and the engine decides whether it is allowed.
package picker

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// Option is one choice.
type Option struct {
	// Value is what goes into the set line (it may carry parameters, as in
	// "bloom n=10000 p=0.01").
	Value string
	// Doc says what it means, in a few words.
	Doc string
	// Refused is why the engine would not run the job with this value and
	// the other settings as they are; such an option cannot be chosen.
	// Note says why it would run with a weaker guarantee than asked.
	Refused, Note string
}

// Model is an open or closed picker.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	active  bool
	Key     string // the setting being chosen
	title   string
	options []Option
	cur     int
}

// New returns a closed picker.
func New(st *styles.Styles) Model { return Model{st: st, keys: DefaultKeyMap()} }

// Keys is the picker's key map.
func (m Model) Keys() KeyMap { return m.keys }

// Active reports whether the picker is open.
func (m Model) Active() bool { return m.active }

// Open shows options for setting key, with current preselected.
func (m *Model) Open(key, title string, options []Option, current string) {
	m.active, m.Key, m.title, m.options, m.cur = true, key, title, options, 0
	for i, o := range options {
		if o.Value == current {
			m.cur = i
		}
	}
}

// SetVerdicts marks the options the engine refuses (value → reason) and
// those it runs with a weaker guarantee (value → note), for setting key.
func (m *Model) SetVerdicts(key string, refused, notes map[string]string) {
	if key != m.Key {
		return
	}
	for i := range m.options {
		m.options[i].Refused = refused[m.options[i].Value]
		m.options[i].Note = notes[m.options[i].Value]
	}
}

// Close closes the picker.
func (m *Model) Close() { m.active = false }

// Update moves the cursor; chosen is the option picked with enter, ok is
// false until one is. The picker closes on enter and esc.
func (m Model) Update(msg tea.Msg) (_ Model, chosen Option, ok bool) {
	k, isKey := msg.(tea.KeyMsg)
	if !isKey {
		return m, Option{}, false
	}
	switch {
	case key.Matches(k, m.keys.Up):
		m.cur = (m.cur + len(m.options) - 1) % max(len(m.options), 1)
	case key.Matches(k, m.keys.Down):
		m.cur = (m.cur + 1) % max(len(m.options), 1)
	case key.Matches(k, m.keys.Cancel):
		m.active = false
	case key.Matches(k, m.keys.Choose):
		if m.cur < len(m.options) && m.options[m.cur].Refused != "" {
			return m, m.options[m.cur], false // stays open: the reason is shown
		}
		m.active = false
		if m.cur < len(m.options) {
			return m, m.options[m.cur], true
		}
	}
	return m, Option{}, false
}

// Cursor is the highlighted option's index.
func (m Model) Cursor() int { return m.cur }

// Lines draws the picker as a framed box at most w wide.
func (m Model) Lines(w int) []string {
	nameW := 0
	for _, o := range m.options {
		nameW = max(nameW, len(o.Value))
	}
	inner := 0
	var body []string
	for i, o := range m.options {
		mark, name, doc := "  ", m.st.Text.Render(draw.Fit(o.Value, nameW)), m.st.Muted.Render(o.Doc)
		if o.Refused != "" {
			mark, name, doc = m.st.Muted.Render("✗ "), m.st.Muted.Render(draw.Fit(o.Value, nameW)), m.st.Bad.Render("cannot run: see below")
		}
		if i == m.cur {
			mark, name = m.st.Accent.Render("▸ "), m.st.Selected.Render(draw.Fit(o.Value, nameW))
		}
		line := mark + name + "  " + doc
		body = append(body, line)
		inner = max(inner, 2+nameW+2+len([]rune(o.Doc)), 2+nameW+2+21)
	}
	inner = min(max(inner, 28, len(m.title)+4, 60), w-2)
	if m.cur < len(m.options) {
		o := m.options[m.cur]
		why, style := "", m.st.Muted
		switch {
		case o.Refused != "":
			why, style = "✗ "+o.Refused, m.st.Bad
		case o.Note != "":
			why, style = "! "+o.Note, m.st.Warn
		}
		if why != "" {
			body = append(body, "")
			for _, l := range strings.Split(ansi.Wordwrap(why, inner, " "), "\n") {
				body = append(body, style.Render(l))
			}
		}
	}
	body = append(body, "", m.st.Muted.Render("enter chooses · esc cancels"))
	return draw.Box(m.st.Modal, m.title, body, inner+2, len(body)+2)
}
