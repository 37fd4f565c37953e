package bridge

import (
	"strings"
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

// A lesson left on a step that begins a new session leaves nothing behind
// in the sandbox opened after it: the first set and job lines there are
// the sandbox's own, carried out in its session, not a step's new one.
func TestSandboxAfterALessonKeepsNoFreshStep(t *testing.T) {
	l, err := lessons.Find("1")
	if err != nil {
		t.Fatal(err)
	}
	b := newBridge(t, Options{Seed: 1})
	b.Handle(Request{Kind: OpenSession, Lesson: l, Seed: 7, Workspace: t.TempDir()})
	at := t0
	for _, line := range l.Steps[0].Solution {
		b.Handle(Request{Kind: Line, Line: line})
		playOut(t, b, &at)
	}
	b.Handle(Request{Kind: GoOn})
	if f := b.Frame(); f.Lesson == nil || !f.Lesson.Fresh {
		t.Fatalf("after going on from step 1: %+v, want step 2's new session pending (the test needs it)", f.Lesson)
	}
	b.Handle(Request{Kind: Open, Job: "clicks"})
	gen := b.Frame().Gen
	for _, line := range []string{"set source.late 0", "job passthrough"} {
		b.Handle(Request{Kind: Line, Line: line})
		f := b.Frame()
		for _, r := range f.Results {
			if r.Err != "" || strings.Contains(r.Info, "new session") {
				t.Errorf("%q in the sandbox: %+v", line, r)
			}
		}
		if f.Gen != gen || f.Lesson != nil {
			t.Errorf("%q in the sandbox: session %d (was %d), lesson %+v", line, f.Gen, gen, f.Lesson)
		}
	}
	if got, want := strings.Join(b.Script(), "|"), "job clicks|set seed 1|set source.late 0|job passthrough"; got != want {
		t.Errorf("the sandbox recorded %q, want %q", got, want)
	}
}
