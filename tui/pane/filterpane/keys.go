package filterpane

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap is what the filter pane answers to when it has the focus: picking
// the record whose bit positions it shows.
type KeyMap struct {
	Older, Newer, Newest, MadeUp, Stop key.Binding
	// Chart switches between the map of bits and the chart of the
	// false-positive rate against the ids offered.
	Chart key.Binding
}

// DefaultKeyMap is the filter pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Older:  key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "probe an older row")),
		Newer:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "probe a newer row")),
		Newest: key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "probe the newest row")),
		MadeUp: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "probe a new id")),
		Stop:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "stop probing")),
		Chart:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "bits/fp chart")),
	}
}

// ShortHelp shows picking a row and a new id, and the chart.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Older, k.Newer, "probe a sink row"), k.MadeUp, k.Chart}
}

// FullHelp lists every binding.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Older, k.Newer, k.Newest, k.MadeUp, k.Stop, k.Chart}}
}
