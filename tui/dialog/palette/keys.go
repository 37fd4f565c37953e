package palette

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap is the command palette's keys (typing goes to the text input).
type KeyMap struct {
	Run, Close, Prev, Next, Complete key.Binding
}

// DefaultKeyMap is the palette's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Run:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Prev:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "older line")),
		Next:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "newer line")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
	}
}

// ShortHelp lists the palette's keys.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Run, k.Complete, draw.KeyPair(k.Prev, k.Next, "history"), k.Close}
}

// FullHelp lists the palette's keys.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Run, k.Close}, {k.Prev, k.Next, k.Complete}}
}
