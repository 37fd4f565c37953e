package draw

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// ScrollKeys scroll a list drawn newest at the bottom, as the output and
// events panes are: the scroll is how many lines the view is moved up from
// the newest.
type ScrollKeys struct {
	Up, Down, PageUp, PageDown, Follow key.Binding
}

// DefaultScrollKeys are the arrows, page keys and end (back to the newest).
func DefaultScrollKeys() ScrollKeys {
	return ScrollKeys{
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Follow:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "follow")),
	}
}

// Scroll applies k to scroll for a list of total lines shown page at a
// time, keeping it within the list; ok is false when k is not a scroll key.
func (s ScrollKeys) Scroll(k tea.KeyMsg, scroll, page, total int) (int, bool) {
	switch {
	case key.Matches(k, s.Up):
		scroll++
	case key.Matches(k, s.Down):
		scroll--
	case key.Matches(k, s.PageUp):
		scroll += page
	case key.Matches(k, s.PageDown):
		scroll -= page
	case key.Matches(k, s.Follow):
		scroll = 0
	default:
		return scroll, false
	}
	return min(max(scroll, 0), max(total-1, 0)), true
}
