package bridge

import (
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/lessons"
)

// maxObsEvents bounds the events kept for the step tracker between two
// observations.
const maxObsEvents = 1 << 16

// openSession starts a lesson's or an exercise's session (see OpenSession).
func (b *Bridge) openSession(r Request) {
	b.seed, b.dir = r.Seed, r.Workspace
	b.tracker, b.lesson = nil, ""
	b.obsEvents, b.obsRejected, b.freshNeeded = nil, nil, false
	job := r.Job
	if l := r.Lesson; l != nil {
		if err := l.WriteFiles(r.Workspace); err != nil {
			b.fail("lesson files", err)
		}
		start := ResumeAt(l, r.Done)
		b.tracker, b.lesson = lessons.NewTracker(l, start), l.ID
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
	b.paused = true
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

// stepReading is how long a step just finished holds back the next
// one while a run plays: the learner reads the next step's text before
// what it asks for can complete.
const stepReading = 1500 * time.Millisecond

// observe shows the step tracker the session as it is now: its report
// once the job runs, the events and the refusals since the last look.
// While a run plays, at most one step finishes per look: the events after
// the one that finished it wait for the next look, stepReading later.
func (b *Bridge) observe() {
	b.needObs = false
	if b.tracker == nil || b.sess == nil {
		return
	}
	playing := b.pace.typed
	if playing && b.lastTick.Before(b.readUntil) {
		return
	}
	b.drainBus()
	o := lessons.Observation{Rejected: b.obsRejected, Session: int(b.gen)}
	if b.rt != nil {
		o.Report = b.report()
	}
	b.obsRejected = nil
	evs := b.obsEvents
	b.obsEvents = nil
	if playing {
		// The current step's own events one at a time, then none: the
		// events after the moment it finishes are the next step's.
		_, st, ok := b.tracker.Current()
		for i, e := range evs {
			if !ok || st.Goal.Event == "" || e.Kind != st.Goal.Event || (st.Goal.Node != "" && e.Node != st.Goal.Node) {
				continue
			}
			o.Events = evs[i : i+1]
			if len(b.tracker.Observe(o)) > 0 {
				b.obsEvents = append([]bus.Event(nil), evs[i+1:]...)
				b.stepFinished()
				return
			}
			o.Rejected = nil
		}
		o.Events = nil
		if len(b.tracker.Observe(o)) > 0 {
			b.obsEvents = evs
			b.stepFinished()
		}
		return
	}
	o.Events = evs
	if len(b.tracker.Observe(o)) == 0 {
		return
	}
	b.stepFinished()
}

// stepFinished follows a finished step: the UI hears of it, a fresh step
// is noted, and while a run plays the next look waits.
func (b *Bridge) stepFinished() {
	b.dirty = true
	if b.pace.typed {
		b.readUntil = b.lastTick.Add(stepReading)
	}
	if _, st, ok := b.tracker.Current(); ok && st.Fresh {
		b.freshNeeded = true
	}
}

// freshFor opens the new session a fresh step begins with, when the
// learner's first line for it is a job or set line. It reports whether the
// line was the job line that opened it (and so is done).
func (b *Bridge) freshFor(c script.Command) (consumed bool) {
	if !b.freshNeeded || (c.Verb != script.VerbJob && c.Verb != script.VerbSet) {
		return false
	}
	job := b.settings["job"]
	if c.Verb == script.VerbJob {
		job = c.Args[0].Text
	}
	if err := b.open(b.basePrelude(job)); err != nil {
		b.fail(c.String(), plain(err))
		return true
	}
	b.freshNeeded, b.paused = false, true
	b.obsEvents, b.obsRejected = nil, nil
	if c.Verb == script.VerbJob {
		b.note(Result{Line: c.String(), Info: "a new session for this step, on " + job})
		return true
	}
	b.note(Result{Info: "a new session for this step, on " + job})
	return false
}
