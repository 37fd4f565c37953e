package question

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/styles"
)

func screen(w, h int) []string {
	body := make([]string, h)
	for i := range body {
		body[i] = strings.Repeat(".", w)
	}
	return body
}

// A question sits over the middle of the screen and leaves its edges as
// they were, however narrow the screen.
func TestBoxIsCentredWithinTheScreen(t *testing.T) {
	st := styles.New(styles.ByName("mono", false))
	for _, w := range []int{40, 80, 120} {
		out := Kill(st, w, screen(w, 24), "count[0]", false)
		if len(out) != 24 {
			t.Fatalf("w %d: %d lines, want 24", w, len(out))
		}
		top, bottom := -1, -1
		for i, l := range out {
			if got := ansi.StringWidth(l); got != w {
				t.Errorf("w %d: line %d is %d wide", w, i, got)
			}
			if strings.Contains(ansi.Strip(l), "Kill count[0]") {
				top = max(top, i)
			}
			if !strings.HasPrefix(ansi.Strip(l), ".") {
				t.Errorf("w %d: line %d covers the left edge: %q", w, i, ansi.Strip(l))
			}
			if strings.Trim(ansi.Strip(l), ".") != "" {
				bottom = i
			}
		}
		if top < 0 || bottom-top < 4 || top > 24-bottom+1 {
			t.Errorf("w %d: box from line %d to %d is not in the middle", w, top, bottom)
		}
	}
}

// The job manager runs no task that could throw: its question offers no f.
func TestKillingTheJobManagerOffersNoTaskFailure(t *testing.T) {
	st := styles.New(styles.ByName("mono", false))
	for _, jm := range []bool{false, true} {
		text := ansi.Strip(strings.Join(Kill(st, 80, screen(80, 24), "jobmanager", jm), "\n"))
		if got := strings.Contains(text, "the task fails"); got == jm {
			t.Errorf("job manager %v: offers the task's failure %v", jm, got)
		}
	}
}

// The restart question says what the job did, and the leave question
// whether the progress outlives the lab.
func TestQuestionsSayWhatIsTrue(t *testing.T) {
	st := styles.New(styles.ByName("mono", false))
	text := func(lines []string) string { return ansi.Strip(strings.Join(lines, "\n")) }
	for state, want := range map[engine.JobState]string{engine.StateRunning: "already running", engine.StateFailed: "has failed", engine.StateFinished: "has finished"} {
		if got := text(Restart(st, 80, screen(80, 24), state, "set mode update")); !strings.Contains(got, want) || !strings.Contains(got, "set mode update") {
			t.Errorf("state %s: the question does not say %q:\n%s", state, want, got)
		}
	}
	for saved, want := range map[bool]string{true: "is saved (2 of 5 steps done)", false: "kept while the lab is open (2 of 5"} {
		if got := text(Leave(st, 80, screen(80, 24), saved, 2, 5)); !strings.Contains(got, want) {
			t.Errorf("saved %v: the question does not say %q:\n%s", saved, want, got)
		}
	}
}
