package output

import "github.com/charmbracelet/bubbles/key"

// KeyMap scrolls the output pane when it has the focus.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Follow key.Binding
}

// DefaultKeyMap is the output pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Follow:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "follow")),
	}
}

// ShortHelp shows scrolling and following.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Follow} }

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Follow}}
}
