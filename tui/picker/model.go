// Package picker is a small modal list for choosing one setting's value
// (mode, sink, semantics, HA, filter). It only chooses: the lab turns the
// choice into a `set` line, and the engine decides whether it is allowed.
package picker

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

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
		mark, name := "  ", m.st.Text.Render(draw.Fit(o.Value, nameW))
		if i == m.cur {
			mark, name = m.st.Accent.Render("▸ "), m.st.Selected.Render(draw.Fit(o.Value, nameW))
		}
		line := mark + name + "  " + m.st.Muted.Render(o.Doc)
		body = append(body, line)
		inner = max(inner, 2+nameW+2+len([]rune(o.Doc)))
	}
	body = append(body, "", m.st.Muted.Render("enter chooses · esc cancels"))
	inner = min(max(inner, 28, len(m.title)+4), w-2)
	return draw.Box(m.st.Modal, m.title, body, inner+2, len(body)+2)
}
