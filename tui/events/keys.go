package events

import "github.com/charmbracelet/bubbles/key"

// KeyMap scrolls the events pane and filters it.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Follow, Verbose key.Binding
}

// DefaultKeyMap is the events pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Follow:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "follow")),
		Verbose:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "all events")),
	}
}

// ShortHelp shows scrolling and the filter.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Verbose} }

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Follow, k.Verbose}}
}
