package output

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap scrolls the output pane when it has the focus, and asks why the
// marked row (the newest in view) is there.
type KeyMap struct {
	draw.ScrollKeys
	Why key.Binding
}

// DefaultKeyMap is the output pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{ScrollKeys: draw.DefaultScrollKeys(),
		Why: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "why is the marked row there (▸)"))}
}

// ShortHelp shows scrolling, following and why.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Up, k.Down, "scroll"), k.Follow, k.Why}
}

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Follow, k.Why}}
}
