package bridge

import (
	"testing"

	"github.com/streamlab/streamlab/lessons"
)

// TestLessonFollowsTheReferenceSolution plays every lesson's reference
// solution line by line, as typed in the palette, and expects the tracker
// to see each step done, fresh steps opening new sessions by themselves
// once the learner goes on.
func TestLessonFollowsTheReferenceSolution(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		t.Run(l.ID, func(t *testing.T) {
			b := newBridge(t, Options{Seed: 1})
			b.Handle(Request{Kind: OpenSession, Lesson: l, Seed: 7, Workspace: t.TempDir()})
			at := t0
			for i, st := range l.Steps {
				for _, line := range st.Solution {
					b.Handle(Request{Kind: Line, Line: line})
					playOut(t, b, &at)
				}
				f := b.Frame()
				if f.Lesson == nil || f.Lesson.Done <= i {
					t.Fatalf("step %d (%s) not done after its solution; frame %+v, results %+v", i+1, st.Title, f.Lesson, f.Results)
				}
				if f.Lesson.Done == i+1 {
					b.Handle(Request{Kind: GoOn}) // the learner goes on from the step they stayed on
				}
			}
			if f := b.Frame(); !f.Lesson.Finished {
				t.Errorf("not finished: %+v", f.Lesson)
			}
		})
	}
}

func TestResumeAt(t *testing.T) {
	l, err := lessons.Find("4")
	if err != nil {
		t.Fatal(err)
	}
	for done, want := range []int{0, 0, 2, 3, 4} {
		if got := ResumeAt(l, done); got != want {
			t.Errorf("ResumeAt(%d) = %d, want %d", done, got, want)
		}
	}
}
