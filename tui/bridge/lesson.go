package bridge

import (
	"strings"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/lessons"
)

// maxObsEvents bounds the events kept for the step tracker between two
// observations.
const maxObsEvents = 1 << 16

// lessonWatch follows a lesson's steps in its session: the step tracker,
// and what the session did that the tracker has not looked at yet.
type lessonWatch struct {
	id      string
	tracker *lessons.Tracker // nil outside a lesson
	// events and rejected are the engine's events and the refused lines
	// since the tracker last looked.
	events   []bus.Event
	rejected []lessons.Rejection
	// due: a run has ended, and the tracker should look.
	due bool
	// fresh: the current step begins a new session, which its first job
	// or set line opens.
	fresh bool
}

// leave stops following the lesson (a plain job is opened) and forgets
// all it kept: a step's new session still pending would otherwise be
// opened by the sandbox's first job or set line.
func (w *lessonWatch) leave() { *w = lessonWatch{} }

// heard keeps events for the tracker, the newest maxObsEvents.
func (w *lessonWatch) heard(evs []bus.Event) {
	if w.tracker == nil {
		return
	}
	w.events = append(w.events, evs...)
	if n := len(w.events) - maxObsEvents; n > 0 {
		w.events = w.events[n:]
	}
}

// refused keeps a line the engine refused, for the tracker.
func (w *lessonWatch) refused(line string, err error) {
	if w.tracker != nil {
		w.rejected = append(w.rejected, lessons.Rejection{Line: line, Err: err.Error()})
	}
}

// noteFresh notes that the current step, when it begins a new session and
// no finished step is held before it, opens one with its first line.
func (w *lessonWatch) noteFresh() {
	if _, st, ok := w.tracker.Current(); ok && st.Fresh && !w.tracker.Held() {
		w.fresh = true
	}
}

// state is the lesson's progress for a frame; nil outside a lesson.
func (w *lessonWatch) state() *LessonState {
	if w.tracker == nil {
		return nil
	}
	return &LessonState{ID: w.id, Done: w.tracker.Done(), Finished: w.tracker.Finished(), Fresh: w.fresh, Held: w.tracker.Held()}
}

// openSession starts a lesson's or an exercise's session (see OpenSession).
func (b *Bridge) openSession(r Request) {
	b.place = place{seed: r.Seed, dir: r.Workspace}
	b.lesson = lessonWatch{due: b.lesson.due}
	job := r.Job
	if l := r.Lesson; l != nil {
		if err := l.WriteFiles(r.Workspace); err != nil {
			b.fail("lesson files", err)
		}
		start := ResumeAt(l, r.Done)
		b.lesson.tracker, b.lesson.id = lessons.NewTracker(l, start), l.ID
		b.lesson.tracker.HoldFinishedSteps()
		if job == "" && start < len(l.Steps) {
			job = firstJob(l.Steps[start].Solution)
		}
	}
	if job == "" {
		job = lab.DefaultJob
	}
	if err := b.open(b.basePrelude(job)); err != nil {
		b.fail("job "+job, err)
		return
	}
	b.pace.paused = true
	b.instant = true // a scenario sets the stage: its runs are not played
	for _, line := range r.Lines {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			b.line(t)
		}
	}
	b.instant = false
	b.observe()
}

// ResumeAt is where a lesson with done steps saved picks up: at the fresh
// step that begins the session the next step needs (the steps between are
// done again, since a session cannot be saved).
func ResumeAt(l *lessons.Lesson, done int) int {
	done = max(0, min(done, len(l.Steps)))
	if done == len(l.Steps) {
		return done
	}
	for i := done; i > 0; i-- {
		if l.Steps[i].Fresh {
			return i
		}
	}
	return 0
}

// firstJob is the job a step's solution opens, "" when it opens none.
func firstJob(solution []string) string {
	for _, line := range solution {
		if f := strings.Fields(line); len(f) == 2 && f[0] == script.VerbJob {
			return f[1]
		}
	}
	return ""
}

// observe shows the step tracker the session as it is now: its report
// once the job runs, the events and the refusals since the last look.
// While a typed run plays nothing is judged (the events wait): a step's
// goal is judged when the run it belongs to ends, so the step the learner
// is reading stays on screen while its run plays.
func (b *Bridge) observe() {
	if b.pace.typed {
		return
	}
	b.judgeNow()
}

// judgeNow judges the current step on the session as it is, a run playing
// or not.
func (b *Bridge) judgeNow() {
	b.lesson.due = false
	if b.lesson.tracker == nil || b.sess == nil {
		return
	}
	b.drainBus()
	o := lessons.Observation{Rejected: b.lesson.rejected, Session: int(b.gen)}
	if b.job != nil {
		o.Report = b.report()
	}
	o.Events = b.lesson.events
	b.lesson.rejected, b.lesson.events = nil, nil
	if len(b.lesson.tracker.Observe(o)) > 0 {
		b.lesson.noteFresh() // a step finished: the UI hears of it
		b.dirty = true
	}
}

// goOn is the learner's key to go on: a step not yet judged is judged now
// (mid-run too), and a finished step the learner stayed on gives way to
// the next, which is judged on the session as it stands.
func (b *Bridge) goOn() {
	if b.lesson.tracker == nil {
		return
	}
	if !b.lesson.tracker.Held() {
		b.judgeNow()
		if !b.lesson.tracker.Held() {
			if _, _, ok := b.lesson.tracker.Current(); ok {
				b.note(Result{Info: "this step is not done yet: follow its text (h shows a hint)"})
			}
			return
		}
	}
	b.lesson.tracker.GoOn()
	b.lesson.noteFresh()
	b.dirty = true
}

// freshFor opens the new session a fresh step begins with, when the
// learner's first line for it is a job or set line, and the one a job line
// asks for on a step done and held (its follow-up "in a new session"). It
// reports whether the line was the job line that opened it (and so is
// done).
func (b *Bridge) freshFor(c script.Command) (consumed bool) {
	followUp := b.lesson.tracker != nil && b.lesson.tracker.Held() && c.Verb == script.VerbJob
	if !followUp && (!b.lesson.fresh || (c.Verb != script.VerbJob && c.Verb != script.VerbSet)) {
		return false
	}
	job := b.rec.settings["job"]
	if c.Verb == script.VerbJob {
		job = c.Args[0].Text
	}
	if err := b.open(b.basePrelude(job)); err != nil {
		b.fail(c.String(), plain(err))
		return true
	}
	b.lesson.fresh, b.pace.paused = false, true
	b.lesson.events, b.lesson.rejected = nil, nil
	if followUp {
		b.note(Result{Line: c.String(), Info: "a new session on " + job + ", still in the step you have done (n goes on)"})
		return true
	}
	if c.Verb == script.VerbJob {
		b.note(Result{Line: c.String(), Info: "a new session for this step, on " + job})
		return true
	}
	b.note(Result{Info: "a new session for this step, on " + job})
	return false
}
