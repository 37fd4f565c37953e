package picker

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap is the picker's keys.
type KeyMap struct {
	Up, Down, Choose, Cancel key.Binding
}

// DefaultKeyMap is the picker's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "move up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "move down")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp lists the picker's keys.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Up, k.Down, "move"), k.Choose, k.Cancel}
}

// FullHelp lists the picker's keys.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Choose, k.Cancel}}
}
