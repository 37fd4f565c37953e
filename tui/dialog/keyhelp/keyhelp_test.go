package keyhelp

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/styles"
)

// keys is a key map of n keys, the last one disabled.
type keys []key.Binding

func (k keys) ShortHelp() []key.Binding  { return k }
func (k keys) FullHelp() [][]key.Binding { return [][]key.Binding{k} }

func someKeys(n int) keys {
	var out keys
	for i := range n {
		c := string(rune('a' + i))
		out = append(out, key.NewBinding(key.WithKeys(c), key.WithHelp(c, "does "+c)))
	}
	out[n-1].SetEnabled(false)
	return out
}

func screen(w, h int) []string {
	body := make([]string, h)
	for i := range body {
		body[i] = strings.Repeat(" ", w)
	}
	return body
}

// Every enabled key is in the help and a disabled one is not.
func TestEveryEnabledKeyIsListed(t *testing.T) {
	st := styles.New(styles.ByName("mono", false))
	text := ansi.Strip(strings.Join(box(st, 120, screen(120, 40), someKeys(6), 0), "\n"))
	for _, c := range []string{"a", "b", "c", "d", "e"} {
		if !strings.Contains(text, "does "+c) {
			t.Errorf("%s is not listed:\n%s", c, text)
		}
	}
	if strings.Contains(text, "does f") {
		t.Errorf("the disabled f is listed:\n%s", text)
	}
	if strings.Contains(text, "scroll") {
		t.Errorf("five keys scroll on a 40-line screen:\n%s", text)
	}
}

// Keys that do not fit the height scroll by lines (19 keys in three
// columns are 7 lines), and the foot says which are in view; an offset
// past the end shows the last page.
func TestKeysThatDoNotFitScroll(t *testing.T) {
	st := styles.New(styles.ByName("mono", false))
	body := screen(40, 10)
	text := func(off int) string { return ansi.Strip(strings.Join(box(st, 40, body, someKeys(20), off), "\n")) }
	if got := text(0); !strings.Contains(got, "keys 1–5 of 7") || !strings.Contains(got, "does a") || strings.Contains(got, "does f") {
		t.Errorf("first page:\n%s", got)
	}
	if got := text(100); !strings.Contains(got, "keys 3–7 of 7") || !strings.Contains(got, "does s") || strings.Contains(got, "does a") {
		t.Errorf("past the end:\n%s", got)
	}
}

// The arrows scroll the open help a line, page up and down ten, never
// above the top; opening it again starts at the top.
func TestTheHelpScrolls(t *testing.T) {
	st := styles.New(styles.ByName("mono", false))
	body := screen(40, 10)
	var m Model
	m.Open()
	press := func(k tea.KeyType) { m = m.Update(tea.KeyMsg{Type: k}) }
	top := strings.Join(m.Box(st, 40, body, someKeys(20)), "\n")
	press(tea.KeyDown)
	press(tea.KeyDown)
	if got := ansi.Strip(strings.Join(m.Box(st, 40, body, someKeys(20)), "\n")); !strings.Contains(got, "keys 3–7 of 7") {
		t.Errorf("two lines down:\n%s", got)
	}
	press(tea.KeyPgUp)
	if got := strings.Join(m.Box(st, 40, body, someKeys(20)), "\n"); got != top {
		t.Errorf("page up from the third line is not the top:\n%s", ansi.Strip(got))
	}
	press(tea.KeyPgDown)
	m.Close()
	if m.Active() {
		t.Fatal("closed, still open")
	}
	m.Open()
	if got := strings.Join(m.Box(st, 40, body, someKeys(20)), "\n"); !m.Active() || got != top {
		t.Errorf("opened again, not at the top:\n%s", ansi.Strip(got))
	}
}
