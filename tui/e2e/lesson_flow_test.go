package e2e

import (
	"regexp"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui"
)

// TestFlowLessonFour opens lesson 4 from the home screen, types its
// reference solution step by step into the command palette, watches the
// lesson pane tick the steps off and goes on with n, reveals a hint, answers the check with
// the engine's answer under the learner's seed, and quits. The progress is
// saved in a temporary state directory. Time comes from a manual clock.
func TestFlowLessonFour(t *testing.T) {
	const seed = 5
	l, err := lessons.Find("4")
	if err != nil {
		t.Fatal(err)
	}
	ans, err := l.Solve(t.Context(), seed)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // progress saved here on the way
	tm, waitFor := program(t, tui.Options{Job: "clicks", Seed: 1, Speed: 1, Theme: "default",
		StateDir: dir, Progress: &lessons.Progress{Seed: seed}}, 20*time.Second)
	key := func(k tea.KeyType) { tm.Send(tea.KeyMsg{Type: k}) }
	waitFor(regexp.MustCompile(`Lessons 0/\d+`))
	key(tea.KeyDown)
	key(tea.KeyEnter) // the lesson list
	for range 3 {
		key(tea.KeyDown)
	}
	waitFor(regexp.MustCompile(`4 Rollback recovery`))
	key(tea.KeyEnter)
	waitFor(regexp.MustCompile(`step 1/4`))

	tm.Type("h")
	waitFor(regexp.MustCompile(`Hint 1: `))
	for i, st := range l.Steps {
		for _, line := range st.Solution {
			tm.Type(":" + line)
			key(tea.KeyEnter)
		}
		// Done once its run has ended, the step stays on screen, ticked,
		// until n goes on.
		waitFor(regexp.MustCompile(`step ` + itoa(i+1) + `/4 ✓`))
		tm.Type("n")
		if i+1 < len(l.Steps) {
			waitFor(regexp.MustCompile(`step ` + itoa(i+2) + `/4`))
		}
	}
	waitFor(regexp.MustCompile(`every step done`))
	tm.Type("a")
	tm.Type(ans.Want())
	key(tea.KeyEnter)
	waitFor(regexp.MustCompile(`right: ` + regexp.QuoteMeta(ans.Want())))

	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	// Run saves the final progress when the program ends; the saves on
	// the way may still be in flight when q quits.
	if lp := tm.FinalModel(t).(tui.Model).Progress().Lesson(l.ID); lp.Steps != len(l.Steps) || !lp.Checked {
		t.Errorf("progress %+v", lp)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
