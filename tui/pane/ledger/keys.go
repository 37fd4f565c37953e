package ledger

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the ledger pane's keys: switching its sparklines and chart
// between running totals and the change per sample, and showing the
// chart over virtual time in a pane too short for it beside the numbers.
type KeyMap struct {
	Delta, Chart key.Binding
}

// DefaultKeyMap is the ledger pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Delta: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "totals/changes")),
		Chart: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "numbers/chart over time")),
	}
}

// ShortHelp lists the pane's keys.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Delta, k.Chart} }

// FullHelp lists the pane's keys.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Delta, k.Chart}} }
