package lessons

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/streamlab/streamlab/engine/lab"
)

// ErrUnavailable is matched by the error of Available when this build of
// the engine lacks something the lesson needs.
var ErrUnavailable = errors.New("lesson needs an engine feature that is not available yet")

// UnavailableError says what the engine lacks for a lesson, and how the
// probe found out.
type UnavailableError struct {
	Lesson  string
	Missing string // from the lesson's Requirement
	Detail  string // the probe's error or failed expect
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("lesson %s: %s (%s)", e.Lesson, e.Missing, e.Detail)
}

// Is makes every UnavailableError an ErrUnavailable.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// Available reports whether this build of the engine has what the lesson
// needs: nil, or an *UnavailableError. A UI shows the lesson either way,
// with the reason when it cannot be finished yet.
func (l *Lesson) Available(ctx context.Context) error {
	if l.Requires == nil {
		return nil
	}
	dir, err := os.MkdirTemp("", "streamlab-lesson-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := l.WriteFiles(dir); err != nil {
		return err
	}
	res, err := lab.RunScript(ctx, filepath.Join(dir, "requires.lab"), []byte(l.Requires.Script), lab.Options{})
	rep := res.Report
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &UnavailableError{Lesson: l.ID, Missing: l.Requires.Missing, Detail: err.Error()}
	}
	for _, e := range rep.Expectations {
		if !e.OK {
			return &UnavailableError{Lesson: l.ID, Missing: l.Requires.Missing,
				Detail: fmt.Sprintf("expected %s, the engine gives %s", e.Expr, e.Actual)}
		}
	}
	return nil
}

// Result is the outcome of running a lesson's reference solution.
type Result struct {
	Lesson *Lesson
	Seed   int64
	// Skipped, when not nil, says why the lesson could not be verified:
	// the engine lacks a feature it needs (an *UnavailableError).
	Skipped error
	// Steps has one entry per step, in order.
	Steps []StepResult
	// Answer is the check's answer under Seed, once every step is done.
	Answer *Answer
	// Err is why verification failed, when it did.
	Err error
}

// StepResult is how one step fared.
type StepResult struct {
	Done bool
	// After is the solution line after which the step was done; Session
	// counts the lab sessions so far (fresh steps start new ones).
	After   string
	Session int
}

// OK reports whether every step was done and the check answered.
func (r *Result) OK() bool { return r.Skipped == nil && r.Err == nil && r.Answer != nil }

// Verify runs the lesson's reference solution headless under seed, feeding
// a Tracker the observations a learner's session would give, and then
// solves the check. It proves the lesson can be finished. A lesson whose
// requirement the engine lacks is skipped, not failed.
func Verify(ctx context.Context, l *Lesson, seed int64) *Result {
	res := &Result{Lesson: l, Seed: seed, Steps: make([]StepResult, len(l.Steps))}
	if err := l.Available(ctx); err != nil {
		if errors.Is(err, ErrUnavailable) {
			res.Skipped = err
		} else {
			res.Err = err
		}
		return res
	}
	dir, err := os.MkdirTemp("", "streamlab-verify-")
	if err != nil {
		res.Err = err
		return res
	}
	defer os.RemoveAll(dir)
	if err := l.WriteFiles(dir); err != nil {
		res.Err = err
		return res
	}
	r := &runner{dir: dir, seed: seed}
	defer r.close()
	tr := NewTracker(l, 0)
	sessions := 0
	for i, st := range l.Steps {
		if st.Fresh {
			r.fresh()
			sessions++
		}
		for _, line := range st.Solution {
			o, err := r.exec(ctx, line)
			o.Session = sessions
			if err != nil && !st.Goal.ExpectsRejection(err.Error()) {
				res.Err = fmt.Errorf("step %d (%s): %q: %w", i+1, st.Title, line, err)
				return res
			}
			for _, done := range tr.Observe(o) {
				res.Steps[done] = StepResult{Done: true, After: line, Session: sessions}
			}
		}
		if !res.Steps[i].Done {
			res.Err = fmt.Errorf("step %d (%s) is not done after its solution; its goal is %s", i+1, st.Title, st.Goal)
			return res
		}
		// A fresh step's experiment is its own session: a goal the session
		// before already met would be ticked off before the learner ran it.
		if st.Fresh && res.Steps[i].Session < sessions {
			res.Err = fmt.Errorf("step %d (%s) starts a new session, but the session before already met its goal (after %q): its goal is %s, which does not tell its experiment from the one before", i+1, st.Title, res.Steps[i].After, st.Goal)
			return res
		}
	}
	if res.Answer, err = l.Solve(ctx, seed); err != nil {
		res.Err = err
	}
	return res
}

// WriteText prints the result for people: each step as it was done, the
// check's answer, and the verdict.
func (r *Result) WriteText(w io.Writer) error {
	l := r.Lesson
	b := &strings.Builder{}
	fmt.Fprintf(b, "lesson %d %s: %s (seed %d)\n", l.Number, l.ID, l.Title, r.Seed)
	if r.Skipped != nil {
		fmt.Fprintf(b, "  skipped: %v\n", r.Skipped)
		_, err := io.WriteString(w, b.String())
		return err
	}
	for i, s := range r.Steps {
		if !s.Done {
			fmt.Fprintf(b, "  step %d/%d not done: %s\n", i+1, len(r.Steps), l.Steps[i].Title)
			continue
		}
		fmt.Fprintf(b, "  step %d/%d done: %s (session %d, after `%s`)\n", i+1, len(r.Steps), l.Steps[i].Title, s.Session, s.After)
	}
	if r.Answer != nil {
		fmt.Fprintf(b, "  check: %s\n", r.Answer.Want())
	}
	if r.Err != nil {
		fmt.Fprintf(b, "  FAILED: %v\n", r.Err)
	} else {
		b.WriteString("  ok\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
