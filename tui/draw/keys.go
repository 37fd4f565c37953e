package draw

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
)

// KeyPair is one help-bar entry for two keys that go together, as +/-
// speed stands for + faster and - slower: the one-line help bar has room
// for the pair, while the full help lists each key with its own deed. It
// binds the keys of both and is enabled while both are, so that it names
// only keys that work.
func KeyPair(first, second key.Binding, desc string) key.Binding {
	pair := key.NewBinding(
		key.WithKeys(slices.Concat(first.Keys(), second.Keys())...),
		key.WithHelp(first.Help().Key+"/"+second.Help().Key, desc),
	)
	pair.SetEnabled(first.Enabled() && second.Enabled())
	return pair
}
