package lessonpane

import (
	"flag"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/markdown"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no golden files.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

// plainPane is a pane on a terminal without escape codes, whatever the
// terminal running the tests.
func plainPane(t *testing.T, id string, w, h int) Model {
	t.Helper()
	l, err := lessons.Find(id)
	if err != nil {
		t.Fatal(err)
	}
	m := New(styles.New(styles.Mono))
	m.md = markdown.New(styles.Mono, termenv.Ascii, true)
	m.SetSize(w, h)
	m.OpenLesson(l, 0, false)
	return m
}

func TestLessonTextKeepsEmphasisAndHints(t *testing.T) {
	m := plainPane(t, "restarts", 40, 20)
	text := m.Text()
	for _, want := range []string{"Step 1 of 6 · No restarts", "*deployment*", "• `none`", "  • gives up:", "stuck? h shows a hint (2 left)"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q is not in the pane:\n%s", want, text)
		}
	}
	if strings.ContainsRune(text, 0x1b) {
		t.Errorf("escape codes on a plain terminal:\n%q", text)
	}
	if !m.RevealHint() || !strings.Contains(m.Text(), "Hint 1: Without a restart strategy") {
		t.Errorf("no first hint:\n%s", m.Text())
	}
	for _, l := range strings.Split(m.Text(), "\n") {
		if n := len([]rune(l)); n > 38 {
			t.Errorf("line %q is %d wide in a pane of 38", l, n)
		}
	}
}

// A hint revealed leaves a copy of the pane taken before as it was: a
// Bubble Tea model is a value, and an earlier one must not change under
// it.
func TestRevealingAHintLeavesEarlierCopiesAlone(t *testing.T) {
	m := plainPane(t, "restarts", 40, 20)
	before := m
	if !m.RevealHint() || m.Hints() != 1 {
		t.Fatalf("revealed %d hints, want 1", m.Hints())
	}
	if before.Hints() != 0 {
		t.Errorf("the copy taken before shows %d hints, want 0", before.Hints())
	}
}
