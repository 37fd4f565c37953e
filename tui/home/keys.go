package home

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap is the home screen's keys.
type KeyMap struct {
	Up, Down, Open, Back key.Binding
}

// DefaultKeyMap is the home screen's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "move up")),
		Down: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "move down")),
		Open: key.NewBinding(key.WithKeys("enter", "right", "l"), key.WithHelp("enter", "open")),
		Back: key.NewBinding(key.WithKeys("esc", "left", "h"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp lists the home screen's keys.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Up, k.Down, "move"), k.Open, k.Back}
}

// FullHelp lists the home screen's keys.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Up, k.Down, k.Open, k.Back}} }
