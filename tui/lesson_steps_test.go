package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/lessons"
)

// TestEveryLessonsStepsWaitForTheirRuns follows every built-in lesson at
// 120×40 through the real model and bridge, typing only what each step
// says, and looks at the screen frame after frame while each run plays:
// the step being done stays on screen for the whole run, is ticked off
// once its run has ended, stays (marked done) until n, and n brings the
// next step, or after the last the check.
func TestEveryLessonsStepsWaitForTheirRuns(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		t.Run(l.ID, func(t *testing.T) {
			m, eng, s := lessonModel(t, l.ID, 120, 40)
			for i, st := range l.Steps {
				heading := fmt.Sprintf("Step %d of %d · ", i+1, len(l.Steps))
				if got := m.guide.Step(); got != i {
					t.Fatalf("step %d is about to be typed, but the pane shows step %d", i+1, got+1)
				}
				played := 0
				for _, line := range st.Solution {
					m = typeLine(t, m, eng, s, line)
					var shown int
					doneBefore := m.guide.Done() > i // by an earlier run of the step's
					m, shown = playWatching(t, m, s, func(m Model, screen string) {
						if m.guide.Step() != i || (screen != "" && !strings.Contains(screen, heading)) {
							t.Fatalf("while %q plays (t %d ms) step %d is not on screen (the pane is on step %d):\n%s",
								line, m.frame.ClockMS, i+1, m.guide.Step()+1, screen)
						}
						if !doneBefore && m.guide.Done() > i {
							t.Fatalf("step %d was judged done while %q played (t %d ms), before its run ended", i+1, line, m.frame.ClockMS)
						}
					})
					played += shown
				}
				// A run is seen playing unless it was refused or its job
				// failed at its first records.
				if hasRun(st.Solution) && st.Goal.Rejected == "" && played == 0 && m.frame.Snap.State != "failed" {
					t.Fatalf("step %d: its runs were never seen playing", i+1)
				}
				if m.guide.Done() <= i {
					t.Fatalf("step %d (%s) not done after its lines, once its runs ended", i+1, st.Title)
				}
				if screen := plain(m.View()); !m.guide.Held() || !strings.Contains(screen, heading) || !strings.Contains(screen, "✓ done · n goes on") {
					t.Fatalf("step %d done: held %v; its text and the way on are not on screen:\n%s", i+1, m.guide.Held(), screen)
				}
				m = goOn(t, m, eng, s)
				if i+1 == len(l.Steps) {
					break
				}
				if m.guide.Step() != i+1 {
					t.Fatalf("n after step %d: the pane shows step %d", i+1, m.guide.Step()+1)
				}
			}
			if !m.guide.Finished() || !strings.Contains(plain(m.View()), "every step done") {
				t.Errorf("every step typed, but the lesson is not finished:\n%s", plain(m.View()))
			}
		})
	}
}

// typeLine types one line into the palette and hands it to the bridge; a
// line that asks for a restart fails the test (a lesson's lines never do).
func typeLine(t *testing.T, m Model, eng *fakeEngine, s *session, line string) Model {
	t.Helper()
	m, _ = press(t, m, ":")
	m = typeText(t, m, line)
	m, _ = press(t, m, "enter")
	if m.Confirming() != "" {
		t.Fatalf("%q asks for a restart", line)
	}
	s.forward(eng)
	return feed(m, s)
}

// screenEvery is how many played frames apart the screen is drawn and
// looked at (a second of virtual time at ×1).
const screenEvery = 4

// playWatching ticks a played run to its end in 250 ms ticks, feeding
// every frame through Update and showing look each frame while the run
// plays, with its screen drawn every screenEvery-th ("" between); it
// returns the model and how many frames it saw playing.
func playWatching(t *testing.T, m Model, s *session, look func(Model, string)) (Model, int) {
	t.Helper()
	shown := 0
	for i := 0; s.b.Playing(); i++ {
		if i > 100_000 {
			t.Fatal("a played run did not end")
		}
		s.at = s.at.Add(250 * time.Millisecond)
		s.b.Tick(s.at)
		m = feed(m, s)
		if !m.frame.Playing {
			continue
		}
		screen := ""
		if shown%screenEvery == 0 {
			screen = plain(m.View())
		}
		look(m, screen)
		shown++
	}
	return m, shown
}

// hasRun reports whether lines admit records (a run the lab plays).
func hasRun(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "run ") {
			return true
		}
	}
	return false
}
