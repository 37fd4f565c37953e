package draw

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestScrollStaysWithinTheList(t *testing.T) {
	k := DefaultScrollKeys()
	press := func(s string) tea.KeyMsg {
		switch s {
		case "up":
			return tea.KeyMsg{Type: tea.KeyUp}
		case "down":
			return tea.KeyMsg{Type: tea.KeyDown}
		case "pgup":
			return tea.KeyMsg{Type: tea.KeyPgUp}
		case "end":
			return tea.KeyMsg{Type: tea.KeyEnd}
		}
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
	}
	cases := []struct {
		key        string
		from, want int
		ok         bool
	}{
		{"up", 0, 1, true},
		{"down", 0, 0, true}, // never below the newest
		{"pgup", 5, 9, true}, // ten lines: at most 9 up
		{"end", 7, 0, true},
		{"v", 3, 3, false}, // not a scroll key
	}
	for _, c := range cases {
		got, ok := k.Scroll(press(c.key), c.from, 5, 10)
		if got != c.want || ok != c.ok {
			t.Errorf("%s from %d: %d %t, want %d %t", c.key, c.from, got, ok, c.want, c.ok)
		}
	}
}
