package lessons_test

import (
	"context"
	"fmt"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/lessons"
)

// A UI follows the learner through a lesson by feeding a Tracker what the
// live session shows after each command: its report, the engine's events
// since the last look, and the commands the engine refused.
func ExampleTracker() {
	l, _ := lessons.Find("node-failure")
	// Its first step fails the job in a session of its own; this one starts
	// at the second.
	tr := lessons.NewTracker(l, 1)

	sess := lab.NewSession("lab", lab.Options{})
	defer sess.Close()
	sub := sess.Subscribe(1 << 16)
	// The lesson's fifth step needs a new session; this one does three.
	for i, line := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200", "run 3000", "run 30s"} {
		c, _ := script.ParseLine("lab", i+1, line)
		var o lessons.Observation
		if err := sess.Exec(context.Background(), c); err != nil {
			o.Rejected = append(o.Rejected, lessons.Rejection{Line: line, Err: err.Error()})
		}
		if sess.Started() {
			o.Events, _ = sub.Drain()
			o.Report, _ = sess.Report()
		}
		for _, done := range tr.Observe(o) {
			fmt.Printf("after %q: step %d done: %s\n", line, done+1, l.Steps[done].Title)
		}
	}
	fmt.Println("finished:", tr.Finished())
	// Output:
	// after "run 3000": step 2 done: Kill a counter, with restarts
	// after "run 3000": step 3 done: The restart
	// after "run 30s": step 4 done: A permanent gap
	// finished: false
}

// The final check's answer comes from the engine, run under the learner's
// seed; Judge compares the learner's answer with it. Another seed gives
// another answer, so it cannot be copied from another learner.
func ExampleLesson_Solve() {
	l, _ := lessons.Find("output-modes")
	a, err := l.Solve(context.Background(), 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := a.Judge("172")
	fmt.Println(l.Check.Unit, a.Want(), v.Correct)
	if b, err := l.Solve(context.Background(), 2); err == nil {
		fmt.Println("under seed 2:", b.Want())
	}
	// Output:
	// rows 172 true
	// under seed 2: 166
}
