package lessons

import "github.com/streamlab/streamlab/engine"

// Observation is what the step checker sees of the live session at one
// moment: the session's report (nil before its job has run), the engine
// events published since the previous observation, and the commands the
// engine refused since then.
type Observation struct {
	Report   *engine.Report
	Events   []engine.Event
	Rejected []Rejection
}

// Rejection is a command the engine refused, with its error.
type Rejection struct {
	Line string
	Err  string
}

// Tracker follows a learner through a lesson's steps, in order. Feed it an
// Observation after every command and on every frame; it is not safe for
// concurrent use: the terminal lab keeps it in the goroutine that owns the
// lab session and sends its progress to the UI with each frame.
type Tracker struct {
	lesson *Lesson
	done   int
}

// NewTracker starts tracking l with the first done steps already finished
// (from saved progress); done is clamped to the number of steps.
func NewTracker(l *Lesson, done int) *Tracker {
	return &Tracker{lesson: l, done: max(0, min(done, len(l.Steps)))}
}

// Done is how many steps are finished.
func (t *Tracker) Done() int { return t.done }

// Finished reports whether every step is finished.
func (t *Tracker) Finished() bool { return t.done == len(t.lesson.Steps) }

// Current returns the step the learner is on and its index, or ok == false
// once every step is finished.
func (t *Tracker) Current() (i int, st *Step, ok bool) {
	if t.Finished() {
		return t.done, nil, false
	}
	return t.done, &t.lesson.Steps[t.done], true
}

// Observe checks the current step's goal against o and returns the
// indexes of the steps it finished. One observation can finish several
// steps in a row: the next step's goal is checked against the same
// observation as soon as the one before it is met.
func (t *Tracker) Observe(o Observation) []int {
	var finished []int
	for !t.Finished() && t.lesson.Steps[t.done].Goal.Met(o) {
		finished = append(finished, t.done)
		t.done++
	}
	return finished
}
