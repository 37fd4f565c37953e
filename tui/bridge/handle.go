package bridge

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// Handle carries out one request.
func (b *Bridge) Handle(r Request) {
	defer b.guard(describe(r))
	b.dirty = true
	switch r.Kind {
	case Line:
		b.line(r.Line)
	case Pause:
		b.pace.paused = true
	case Resume:
		b.resume()
	case Finish:
		b.fastForward()
	case WatchReport:
		b.reportWatch.start()
	case StopReport:
		b.reportWatch.stop()
	case CheckChoices:
		b.pending.Choices = b.checkChoices(r.Line, r.Lines)
	case StepOne:
		b.pace.paused = true
		b.stepOne()
	case SetSpeed:
		b.pace.speed = SnapSpeed(r.Speed)
	case Reconfigure:
		b.reconfigure(r.Line)
	case Open:
		b.place = place{seed: b.opts.Seed}
		b.lesson.leave()
		b.openJob(r.Job)
	case OpenSession:
		b.openSession(r)
	case Save:
		b.save(r.Dir)
	case Probe:
		b.probe = probeWatch{id: r.ID, on: true}
	case StopProbe:
		b.probe.on = false
	case GoOn:
		b.goOn()
	}
	if r.Kind == Line || b.lesson.due {
		b.observe()
	}
}

// describe names a request in an error message.
func describe(r Request) string {
	switch r.Kind {
	case Line, Reconfigure:
		return fmt.Sprintf("%q", r.Line)
	case Open:
		return "opening " + r.Job
	}
	return "a request"
}

func (b *Bridge) resume() {
	if b.broken != "" {
		b.note(Result{Line: "resume", Err: b.broken + "; open the job again (esc, then the sandbox)"})
		return
	}
	b.pace.paused = false
}

// line runs one lab-script line from the palette or a key.
func (b *Bridge) line(text string) {
	c, err := script.ParseLine(b.file(), b.rec.nextLine(), text)
	if err != nil {
		b.fail(text, err)
		return
	}
	switch c.Verb {
	case "":
		return
	case script.VerbPause:
		b.pace.paused = true
		b.note(Result{Line: text, Info: "paused"})
		return
	case script.VerbResume:
		b.resume()
		b.note(Result{Line: text, Info: "running"})
		return
	case script.VerbWhy:
		b.why(c, text)
		return
	}
	if b.broken != "" {
		b.fail(text, fmt.Errorf("%s", b.broken))
		return
	}
	wasInFlight := b.pace.busy
	if wasInFlight && (c.Verb == script.VerbKill || c.Verb == script.VerbFail) && !c.HasAt && !c.AtCommit && c.Node != engine.JobManager {
		placed, err := b.killInPlay(c)
		if err != nil {
			b.fail(text, plain(err))
			return
		}
		what := " dies at the next record it processes"
		if c.Verb == script.VerbFail {
			what = " throws at the next record it processes"
		}
		b.note(Result{Line: placed, Info: c.Node + what})
		return
	}
	if wasInFlight && c.Verb == script.VerbReport {
		// Looking changes nothing: the run plays on, and the overlay
		// shows the report as it stands.
		b.note(Result{Line: c.String(), Info: "so far: " + summary(b.report())})
		return
	}
	b.endPlay()
	b.finishQuantum()
	if b.freshFor(c) {
		return
	}
	if b.lesson.tracker != nil && b.job == nil {
		if script.StartsJob(c.Verb) {
			// Start the job before the command, as the lessons' verifier
			// does, so the step tracker sees every event it causes. A
			// configuration the engine refuses is the command's to report.
			_ = b.ensureRuntime()
		}
	}
	if c.Verb == script.VerbRun && !b.instant && b.sess.Config().Executor != engine.ExecConcurrent {
		if err := b.startPlay(c); err != nil {
			b.fail(text, plain(err))
		}
		return
	}
	if err := b.exec(c); err != nil {
		b.fail(text, plain(err))
		return
	}
	b.syncClock()
	res := Result{Line: c.String()}
	if wasInFlight && (c.Verb == script.VerbKill || c.Verb == script.VerbFail || c.Verb == script.VerbRestart) {
		res.Info = "applied once the records admitted so far were processed"
	}
	if c.Verb == script.VerbExpect {
		if exps := b.sess.Expectations(); len(exps) > 0 {
			e := exps[len(exps)-1]
			if e.OK {
				res.Info = "holds (actual " + e.Actual + ")"
			} else {
				res.Err = "does not hold: actual " + e.Actual
			}
		}
	}
	if c.Verb == script.VerbReport {
		res.Info = b.reportSummary()
	}
	b.note(res)
	b.checkStop()
}

// plain drops the position from an engine error about a typed line: the
// learner typed one line, so "lab:9:1:" says nothing to them.
func plain(err error) error {
	if le, ok := poserr.As(err, lab.ErrBadInput); ok && (le.File == sessionFile || filepath.Base(le.File) == sessionFile+".lab") {
		return errors.New(le.Msg)
	}
	return err
}

// reportSummary is the one-line gist of the report.
func (b *Bridge) reportSummary() string {
	rep, err := b.sess.ReportContext(b.runContext())
	if err != nil {
		return err.Error()
	}
	return summary(rep)
}

// summary is a report's gist in one line.
func summary(rep *report.Report) string {
	if rep == nil {
		return "no report yet"
	}
	s := rep.Sink
	return fmt.Sprintf("job %s: %d records in; sink delivered %d, unique %d, duplicates %d, lost %d, correct %v",
		rep.Job.State, rep.Source.Records, s.Delivered, s.Unique, s.Duplicates, s.Lost, s.Correct)
}

// stepOne processes one element. With nothing in flight it first admits
// the next quantum (recorded), so `.` always shows something move.
func (b *Bridge) stepOne() {
	if b.broken != "" {
		return
	}
	if !b.pace.busy && !b.admit(quantum(min(b.pace.speed, 1))) {
		return
	}
	b.stepOnce()
	b.checkStop()
}

// reconfigure restarts the job from scratch: the recorded job and set lines
// with line (a set or job line) applied on top. Runs are dropped; the
// learner asked for a different job, and the saved script says so.
func (b *Bridge) reconfigure(text string) {
	c, err := script.ParseLine(b.file(), 1, text)
	if err != nil {
		b.fail(text, err)
		return
	}
	if c.Verb != script.VerbSet && c.Verb != script.VerbJob {
		b.fail(text, fmt.Errorf("only set and job lines restart the job, not %q", c.Verb))
		return
	}
	prelude := applyToPrelude(b.rec.prelude, c)
	if err := b.open(prelude); err != nil {
		b.fail(text, plain(err))
		return
	}
	b.note(Result{Line: c.String(), Info: "restarted the job from the start with " + c.String()})
}

// applyToPrelude replaces what c changes in prelude: a job line replaces
// the job (and goes first), a set line replaces an earlier set of the same
// key.
func applyToPrelude(prelude []string, c script.Command) []string {
	out := make([]string, 0, len(prelude)+1)
	if c.Verb == script.VerbJob {
		out = append(out, c.String())
	}
	for _, line := range prelude {
		f := strings.Fields(line)
		switch {
		case c.Verb == script.VerbJob && len(f) > 0 && f[0] == script.VerbJob:
			continue
		case c.Verb == script.VerbSet && len(f) > 1 && f[0] == script.VerbSet && f[1] == c.Args[0].Text:
			continue
		}
		out = append(out, line)
	}
	if c.Verb == script.VerbSet {
		out = append(out, c.String())
	}
	return slices.Clip(out)
}

// openJob starts a fresh session on job with the default settings.
func (b *Bridge) openJob(job string) {
	if err := b.open(b.basePrelude(job)); err != nil {
		b.fail("job "+job, err)
		return
	}
	b.pace.paused = true
	b.note(Result{Line: "job " + job, Info: "opened " + job + "; press space to start time"})
}
