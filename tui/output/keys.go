package output

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap scrolls the output pane when it has the focus.
type KeyMap struct{ draw.ScrollKeys }

// DefaultKeyMap is the output pane's key map.
func DefaultKeyMap() KeyMap { return KeyMap{draw.DefaultScrollKeys()} }

// ShortHelp shows scrolling and following.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Follow} }

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Follow}}
}
