package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// EventsScreenKeys close the events pane opened over the whole screen;
// its scrolling and filter keys are the pane's own.
type EventsScreenKeys struct {
	Close key.Binding
}

// DefaultEventsScreenKeys is the full-screen events pane's key map.
func DefaultEventsScreenKeys() EventsScreenKeys {
	return EventsScreenKeys{
		Close: key.NewBinding(key.WithKeys("v", "esc"), key.WithHelp("v/esc", "back to the panes")),
	}
}

// ShortHelp lists the key that closes the full screen.
func (k EventsScreenKeys) ShortHelp() []key.Binding { return []key.Binding{k.Close} }

// FullHelp lists the key that closes the full screen.
func (k EventsScreenKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Close}} }

// openEventsScreen opens the events pane over the whole screen, where a
// long refusal or a Java class name reads on a few wide lines; the pane
// keeps its scroll and filter.
func (m *Model) openEventsScreen() {
	m.eventsScreen, m.eventsFrom = true, m.focus
	m.setFocus(PaneEvents)
	m.resize(m.w, m.h)
}

// closeEventsScreen gives the screen back to the panes, and the focus to
// the pane that had it.
func (m *Model) closeEventsScreen() {
	m.eventsScreen = false
	m.resize(m.w, m.h)
	m.setFocus(m.eventsFrom)
}

// eventsScreenKey handles a key while the events pane has the whole
// screen: v or esc closes it, the pane's keys scroll and filter it, and
// ok is false for any other key (the lab's keys still work).
func (m Model) eventsScreenKey(k tea.KeyMsg) (_ Model, _ tea.Cmd, ok bool) {
	ek := m.events.Keys()
	switch {
	case key.Matches(k, DefaultEventsScreenKeys().Close):
		m.closeEventsScreen()
	case key.Matches(k, ek.Up, ek.Down, ek.PageUp, ek.PageDown, ek.Follow, ek.Verbose):
		m.events, _ = m.events.Update(k)
	default:
		return m, nil, false
	}
	return m, nil, true
}
