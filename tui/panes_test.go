package tui

import "testing"

// Every pane in the focus order is driven through the pane interface: one
// left out would never be sized, focused or given its keys.
func TestEveryPaneIsDriven(t *testing.T) {
	m, _ := labModel(t, 120, 40, nil)
	for p, pn := range m.panes() {
		if pn == nil {
			t.Errorf("pane %d has no place in Model.panes", p)
		}
	}
}
