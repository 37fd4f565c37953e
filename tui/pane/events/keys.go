package events

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap scrolls the events pane and filters it.
type KeyMap struct {
	draw.ScrollKeys
	Verbose key.Binding
}

// DefaultKeyMap is the events pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		ScrollKeys: draw.DefaultScrollKeys(),
		Verbose:    key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "all events")),
	}
}

// ShortHelp shows scrolling and the filter.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Up, k.Down, "scroll"), k.Verbose}
}

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Follow, k.Verbose}}
}
