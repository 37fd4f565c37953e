package pipeline

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap is what the pipeline pane answers to when it has the focus: moving
// the node selection. Kill and restart act on the selection from anywhere,
// so they live in the lab's own key map.
type KeyMap struct {
	Left, Right, Up, Down key.Binding
}

// DefaultKeyMap is the pipeline pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Left:  key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous stage")),
		Right: key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next stage")),
		Up:    key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous node")),
		Down:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next node")),
	}
}

// ShortHelp shows one entry per axis.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Left, k.Right, "stage"), draw.KeyPair(k.Up, k.Down, "node")}
}

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Left, k.Right, k.Up, k.Down}}
}
