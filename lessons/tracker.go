package lessons

import (
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/report"
)

// Observation is what the step checker sees of the live session at one
// moment: the session's report (nil before its job has run), the engine
// events published since the previous observation, and the commands the
// engine refused since then. Session tells lab sessions apart (a new job
// is a new session): a step's event counts only in the session it
// happened in.
type Observation struct {
	Report   *report.Report
	Events   []bus.Event
	Rejected []Rejection
	Session  int
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
	// seen holds the events observed since the current step began: a
	// step's event (a leader elected) and its expectations (the sink
	// correct again) may hold at different moments of a played run.
	seen    []bus.Event
	session int
	// hold keeps a finished step on until GoOn (see HoldFinishedSteps);
	// held says one is kept now, and last is what was observed since.
	hold, held bool
	last       Observation
}

// NewTracker starts tracking l with the first done steps already finished
// (from saved progress); done is clamped to the number of steps.
func NewTracker(l *Lesson, done int) *Tracker {
	return &Tracker{lesson: l, done: max(0, min(done, len(l.Steps)))}
}

// HoldFinishedSteps makes the tracker stop after each step it finishes
// until GoOn is called: the learner stays on a step they have done (to
// read it, or to try its follow-ups in a new session) until they go on,
// and nothing they do meanwhile counts for the next step yet.
func (t *Tracker) HoldFinishedSteps() { t.hold = true }

// Held reports whether a finished step is kept on, waiting for GoOn.
func (t *Tracker) Held() bool { return t.held }

// GoOn moves on from a held step: the next step's goal is judged on what
// was observed last, and the indexes of the steps that finishes are
// returned (at most one, which is then held in turn).
func (t *Tracker) GoOn() []int {
	if !t.held {
		return nil
	}
	t.held = false
	o := t.last
	t.last = Observation{}
	return t.judge(o)
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

// Observe checks the current step's goal against o, with the events of
// earlier observations of the same session since the step began (an event
// and the expectations may hold at different moments of a played run), and
// returns the indexes of the steps it finished. One observation can finish
// several steps in a row: the next step's goal is checked against the same
// observation as soon as the one before it is met, unless finished steps
// are held (HoldFinishedSteps); while one is held nothing is judged.
func (t *Tracker) Observe(o Observation) []int {
	if o.Session != t.session {
		t.seen, t.session = nil, o.Session
	}
	t.seen = append(t.seen, t.wantedOf(o.Events)...)
	if t.held {
		t.keep(o)
		return nil
	}
	return t.judge(o)
}

// judge checks the current step's goal against o with the events seen
// since the step began, then the next step's against o, and so on; when
// steps are held it stops after the first it finishes.
func (t *Tracker) judge(o Observation) []int {
	var finished []int
	withSeen := o
	withSeen.Events = t.seen
	for !t.Finished() && t.lesson.Steps[t.done].Goal.Met(withSeen) {
		finished = append(finished, t.done)
		t.done++
		t.seen = nil
		withSeen = o
		if t.hold {
			t.held = true
			t.seen = t.wantedOf(o.Events)
			t.last = Observation{Report: o.Report, Session: o.Session}
			break
		}
	}
	return finished
}

// keep remembers an observation made while a step is held: its report,
// and its refusals added to the earlier ones of the same session.
func (t *Tracker) keep(o Observation) {
	if o.Session != t.last.Session {
		t.last.Rejected = nil
	}
	t.last.Report, t.last.Session = o.Report, o.Session
	t.last.Rejected = append(t.last.Rejected, o.Rejected...)
}

// wantedOf is the events of evs the current step's goal waits for.
func (t *Tracker) wantedOf(evs []bus.Event) []bus.Event {
	var out []bus.Event
	for _, e := range evs {
		if t.wanted(e) {
			out = append(out, e)
		}
	}
	return out
}

// wanted reports whether e is an event the current step's goal waits for;
// only those are kept between observations (none once every step is done).
func (t *Tracker) wanted(e bus.Event) bool {
	if t.Finished() {
		return false
	}
	g := t.lesson.Steps[t.done].Goal
	return g.Event != "" && e.Kind == g.Event && (g.Node == "" || e.Node == g.Node)
}
