package ledger

import "github.com/charmbracelet/bubbles/key"

// KeyMap is the ledger pane's keys: it has one, to switch its sparklines
// between running totals and the change per sample.
type KeyMap struct {
	Delta key.Binding
}

// DefaultKeyMap is the ledger pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{Delta: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "totals/changes"))}
}

// ShortHelp lists the pane's keys.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Delta} }

// FullHelp lists the pane's keys.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Delta}} }
