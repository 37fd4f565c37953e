package draw

import (
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// A pair is named by both labels, binds both keys and is offered only
// while both keys work.
func TestKeyPairNamesAndBindsBothKeys(t *testing.T) {
	faster := key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster"))
	slower := key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower"))
	pair := KeyPair(faster, slower, "speed")
	if h := pair.Help(); h.Key != "+/-" || h.Desc != "speed" {
		t.Errorf("help %q %q, want \"+/-\" \"speed\"", h.Key, h.Desc)
	}
	if got := pair.Keys(); !slices.Equal(got, []string{"+", "=", "-", "_"}) {
		t.Errorf("keys %q", got)
	}
	if !pair.Enabled() {
		t.Error("both keys work, the pair is not offered")
	}
	slower.SetEnabled(false)
	if KeyPair(faster, slower, "speed").Enabled() {
		t.Error("- is off, the pair is still offered")
	}
}
