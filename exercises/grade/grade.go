// Package grade grades answers to exercises: it runs the exercise's job,
// the answer and the scenario on the deterministic executor under a seed,
// within the exercise's budget of records and scheduler steps, and scores
// each check.
package grade

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/deps"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
)

// ErrBrokenPack marks an exercise that cannot be graded whatever the
// answer: its scenario or its job is rejected by the engine.
var ErrBrokenPack = errors.New("broken exercise pack")

// PackError is an error in an exercise itself, found while grading it.
// errors.Is(err, ErrBrokenPack) holds for it; Err keeps the position.
type PackError struct {
	ID  string
	Err error
}

func (e *PackError) Error() string {
	return fmt.Sprintf("exercise %s cannot be graded: %v", e.ID, e.Err)
}

// Unwrap returns the underlying error.
func (e *PackError) Unwrap() error { return e.Err }

// Is makes every PackError an ErrBrokenPack.
func (e *PackError) Is(target error) bool { return target == ErrBrokenPack }

// ErrGuard marks a run the wall-time guard stopped: a bug in the grader or
// a machine too loaded to grade, never the answer's fault, so it is an
// internal error and not a score. An answer's work is bounded by the
// exercise's budget (pack.Budget), which counts records and steps and so
// gives the same grade on any machine under any load.
var ErrGuard = errors.New("internal error")

// GuardError is a run the wall-time guard stopped; errors.Is(err, ErrGuard)
// holds for it.
type GuardError struct {
	ID    string
	Limit time.Duration
	At    string // the command running when it stopped
}

func (e *GuardError) Error() string {
	msg := fmt.Sprintf("internal error: grading %s ran past its wall-time guard of %s", e.ID, e.Limit)
	if e.At != "" {
		msg += " at " + e.At
	}
	return msg + "; the exercise's budget should have stopped it first (the machine may be overloaded, or the grader has a bug); no score was given"
}

// Is makes every GuardError an ErrGuard and an engine.ErrInternal: it is
// not the answer's fault.
func (e *GuardError) Is(target error) bool { return target == ErrGuard || target == engine.ErrInternal }

// Options are the grader's settings.
type Options struct {
	// Seed, when not nil, overrides every exercise's seed.
	Seed *int64
	// TimeLimit, when above zero, replaces every exercise's wall-time
	// guard (pack.Exercise.TimeLimit).
	TimeLimit time.Duration
	// Budget, where a count is above zero, replaces that count of every
	// exercise's budget.
	Budget pack.Budget
	// Reveal adds the right answers (a prediction's expected value, a hidden
	// check's name and details) to the result: for an instructor's own runs,
	// never for what students see.
	Reveal bool
	// Student and Secret, both set, derive the student's own seed for each
	// exercise (StudentSeed); it overrides Seed and is not shown unless
	// Reveal is set.
	Student, Secret string
	// Attempt, above zero, is which submission this is, as counted by
	// whoever runs the grader (a CI's submission or run number): a
	// prediction past its exercise's attempts is not graded, since the
	// feedback on each attempt tells something about the answer. Zero
	// counts nothing.
	Attempt int
}

// ErrNoAttempts marks a prediction handed in past its exercise's attempts.
var ErrNoAttempts = errors.New("no attempts left")

// checkAttempt refuses a prediction handed in past its exercise's attempts.
func (o Options) checkAttempt(ex *pack.Exercise) error {
	if ex.Kind != pack.KindPrediction || o.Attempt <= ex.Attempts {
		return nil
	}
	return fmt.Errorf("%w: this is attempt %d, and %s grades a prediction on its first %d only (attempts in its exercise.yaml): each graded attempt tells whether the numbers are right",
		ErrNoAttempts, o.Attempt, ex.ID, ex.Attempts)
}

// budget is the budget an exercise is graded under: the exercise's, with
// each count Options.Budget sets (above 0) in its place.
func (o Options) budget(ex *pack.Exercise) pack.Budget {
	b, set := ex.Budget, o.Budget
	for _, c := range []struct {
		dst *int64
		v   int64
	}{
		{&b.Records, set.Records}, {&b.Steps, set.Steps}, {&b.WindowUpdates, set.WindowUpdates}, {&b.Rows, set.Rows},
		{&b.Timers, set.Timers}, {&b.StateBytes, set.StateBytes}, {&b.CheckpointBytes, set.CheckpointBytes},
	} {
		if c.v > 0 {
			*c.dst = c.v
		}
	}
	return b
}

// personal reports whether seeds are derived from the secret.
func (o Options) personal() bool { return o.Student != "" && o.Secret != "" }

// seed is the seed an exercise is graded under: the student's own, the
// override, or the exercise's.
func (o Options) seed(ex *pack.Exercise) int64 {
	switch {
	case o.personal():
		return StudentSeed(o.Secret, o.Student, ex.ID)
	case o.Seed != nil:
		return *o.Seed
	}
	return ex.Seed
}

// seeds are the seeds an exercise is graded under: one for a prediction
// (the numbers asked for are those of one run), the exercise's K (pack.Exercise.Seeds)
// otherwise, so that a configuration or a script that works by luck under
// one seed does not pass.
func (o Options) seeds(ex *pack.Exercise) []int64 {
	base := o.seed(ex)
	if ex.Kind == pack.KindPrediction {
		return []int64{base}
	}
	out := []int64{base}
	for i := 1; i < max(ex.Seeds, 1); i++ {
		out = append(out, NextSeed(base, i))
	}
	return out
}

// NextSeed is the i-th further seed after base that a configuration, script
// or recording answer is graded under.
func NextSeed(base int64, i int) int64 {
	return base + int64(i)*7919
}

// StudentSeed derives a student's seed for an exercise: the first 8 bytes
// of HMAC-SHA256 under the pack's secret of the exercise ID and the student
// ID, kept positive and below 10^12. Without the secret, a student cannot
// compute another's seed, nor their own, and so cannot run the scenario to
// read the answers off the report.
func StudentSeed(secret, student, exercise string) int64 {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(exercise))
	m.Write([]byte{0})
	m.Write([]byte(student))
	sum := m.Sum(nil)
	return int64(binary.BigEndian.Uint64(sum[:8])%1_000_000_000_000) + 1
}

// All grades the answers under dir to each exercise (see answer.Locate).
// A broken answer fails its exercise and grading goes on; so does an
// exercise whose grading broke (the wall-time guard, an internal error):
// it is marked Internal, scores zero, and All goes on with the others, then
// returns the result with an error that is engine.ErrInternal, so that one
// answer can never keep the others from being graded. Otherwise an error
// is returned only for a broken pack (ErrBrokenPack) or a cancelled
// context.
//
// When ctx ends (a signal), All returns the result so far with every
// exercise not yet graded failed for that reason, Interrupted set, and an
// error that is ErrInterrupted.
func All(ctx context.Context, exs []*pack.Exercise, dir string, opts Options) (*Result, error) {
	res := &Result{Seed: opts.Seed, Passed: true, Exercises: []ExerciseResult{}}
	var internal []error
	for i, ex := range exs {
		r, err := Dir(ctx, ex, dir, opts)
		if err != nil && ctx.Err() != nil {
			why := errors.New("grading was interrupted before this exercise was graded")
			for _, rest := range exs[i:] {
				res.add(failed(rest, opts, answer.Locate(rest, dir), why))
			}
			res.Interrupted = true
			return res, fmt.Errorf("%w after %d of %d exercises", ErrInterrupted, i, len(exs))
		}
		if errors.Is(err, engine.ErrInternal) {
			r = failed(ex, opts, answer.Locate(ex, dir), err)
			r.Internal = true
			internal = append(internal, err)
			err = nil
		}
		if err != nil {
			return nil, err
		}
		res.add(r)
	}
	if len(internal) > 0 {
		return res, errors.Join(internal...)
	}
	return res, nil
}

// ErrInterrupted marks grading stopped by its context before the end.
var ErrInterrupted = errors.New("grading interrupted")

// recovered turns a panic while grading ex into that exercise's failure:
// a bug in the grader must not take the other exercises' grades with it,
// nor read as a broken pack. Use it deferred, with the named results.
func recovered(ex *pack.Exercise, opts Options, file string, res *ExerciseResult, err *error) {
	if p := recover(); p != nil {
		*res = failed(ex, opts, file, fmt.Errorf("internal error while grading (a bug in streamlab, not in the answer): %v", p))
		*err = nil
	}
}

// Dir grades the answer to ex found under dir.
func Dir(ctx context.Context, ex *pack.Exercise, dir string, opts Options) (res ExerciseResult, err error) {
	defer recovered(ex, opts, answer.Locate(ex, dir), &res, &err)
	a, err := answer.Load(ex, dir)
	if err != nil {
		return failed(ex, opts, answer.Locate(ex, dir), err), nil
	}
	return Answer(ctx, ex, a, opts)
}

// Bytes grades an answer held in memory, as the terminal lab has it; file
// names it in messages.
func Bytes(ctx context.Context, ex *pack.Exercise, file string, data []byte, opts Options) (res ExerciseResult, err error) {
	defer recovered(ex, opts, file, &res, &err)
	a, err := answer.Parse(ex, file, data)
	if err != nil {
		return failed(ex, opts, file, err), nil
	}
	return Answer(ctx, ex, a, opts)
}

// Answer grades a parsed answer: under one seed for a prediction, under
// each of the exercise's seeds otherwise, where a check scores only when it
// holds under all of them.
func Answer(ctx context.Context, ex *pack.Exercise, a *answer.Answer, opts Options) (res ExerciseResult, err error) {
	defer recovered(ex, opts, a.File, &res, &err)
	if err := opts.checkAttempt(ex); err != nil {
		return failed(ex, opts, a.File, err), nil
	}
	seeds := opts.seeds(ex)
	var perSeed [][]CheckResult
	for _, seed := range seeds {
		crs, failure, err := grade1(ctx, ex, a, opts, seed)
		if err != nil {
			return ExerciseResult{}, err
		}
		if failure != nil {
			if len(seeds) > 1 && opts.Reveal {
				failure = noted{failure, fmt.Sprintf("under seed %d", seed)}
			}
			return failed(ex, opts, a.File, failure), nil
		}
		perSeed = append(perSeed, crs)
	}
	res = newResult(ex, opts, a.File)
	for i, c := range ex.Checks {
		cr := perSeed[0][i]
		for k := 1; k < len(perSeed) && cr.Passed; k++ {
			if x := perSeed[k][i]; !x.Passed {
				cr = x
			}
		}
		if !cr.Passed && len(seeds) > 1 {
			n := 0
			for k := range perSeed {
				if !perSeed[k][i].Passed {
					n++
				}
			}
			cr.Message += fmt.Sprintf(" (fails under %d of the %d seeds graded)", n, len(seeds))
		}
		res.addCheck(c, cr, opts.Reveal)
	}
	return res, nil
}

// grade1 runs the exercise with the answer under one seed and judges every
// check. failure is why the answer could not be graded; err a broken pack or
// a cancelled context.
func grade1(ctx context.Context, ex *pack.Exercise, a *answer.Answer, opts Options, seed int64) (crs []CheckResult, failure, err error) {
	limit := ex.TimeLimit
	if opts.TimeLimit > 0 {
		limit = opts.TimeLimit
	}
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	r := &runner{ex: ex, ans: a, seed: seed, budget: opts.budget(ex)}
	defer r.close()
	rep, err := r.run(runCtx)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return nil, nil, &GuardError{ID: ex.ID, Limit: limit, At: r.at}
	case errors.Is(err, ErrBrokenPack), errors.Is(err, engine.ErrInternal):
		return nil, nil, err // neither is the answer's fault
	default:
		return nil, err, nil
	}
	for _, c := range ex.Checks {
		if c.Answer != "" {
			crs = append(crs, judgePrediction(ex, c, a, rep, seed, opts))
		} else {
			crs = append(crs, r.judgeExpect(ctx, c, rep, seed, opts))
		}
	}
	return crs, nil, nil
}

// newResult is an exercise result with no checks scored yet.
func newResult(ex *pack.Exercise, opts Options, file string) ExerciseResult {
	r := ExerciseResult{ID: ex.ID, Title: ex.Title, Kind: ex.Kind, Seeds: len(opts.seeds(ex)),
		Answer: file, MaxScore: ex.MaxPoints(), Passed: true, Checks: []CheckResult{}}
	if !opts.personal() || opts.Reveal {
		seed := opts.seed(ex)
		r.Seed = &seed
	}
	return r
}

// ErrScenario marks an answer that failed in the exercise's own scenario,
// after the answer's settings: a configuration answer's job that lacks a
// node or setting the scenario needs.
var ErrScenario = errors.New("failed in the exercise's scenario")

// scenarioError is an error of the scenario's (ErrScenario), which reads
// as the error it wraps.
type scenarioError struct{ error }

func (e scenarioError) Unwrap() error        { return e.error }
func (e scenarioError) Is(target error) bool { return target == ErrScenario }

// failed is the result of an answer that could not be graded: every check
// fails with the reason.
func failed(ex *pack.Exercise, opts Options, file string, err error) ExerciseResult {
	res := newResult(ex, opts, file)
	// The reason may quote the answer: it goes back to the student cut
	// short and without control characters.
	why := untrusted.Quote(err.Error(), maxQuoted)
	res.Error = why
	res.At = position(err)
	res.Reason = untrusted.Quote(reason(err), maxQuoted)
	res.InScenario = errors.Is(err, ErrScenario)
	res.NotStarted = errors.Is(err, deps.ErrSubmission)
	for _, c := range ex.Checks {
		res.addCheck(c, CheckResult{Message: "not graded: " + why}, opts.Reveal)
	}
	return res
}

// addCheck scores a check. A hidden check keeps nothing but its number and
// whether it passed, unless reveal is set: its name, expected value and
// message could give away what it checks.
func (r *ExerciseResult) addCheck(c pack.Check, cr CheckResult, reveal bool) {
	cr.Name, cr.Points, cr.Visibility = c.Name, c.Points, c.Visibility
	if cr.Passed {
		cr.Score = c.Points
	} else {
		r.Passed = false
		cr.Hint = c.Hint
	}
	if c.Visibility == pack.Hidden && !reveal {
		n := 1
		for _, x := range r.Checks {
			if x.Visibility == pack.Hidden {
				n++
			}
		}
		result := "fail"
		if cr.Passed {
			result = "pass"
		}
		cr = CheckResult{Name: fmt.Sprintf("hidden check %d", n), Points: cr.Points, Score: cr.Score, Passed: cr.Passed,
			Visibility: pack.Hidden, Message: fmt.Sprintf("hidden check %d: %s", n, result)}
	}
	r.Score += cr.Score
	r.Checks = append(r.Checks, cr)
}

// position returns where err is, if it says.
func position(err error) *Position {
	if e, ok := poserr.As(err, nil); ok {
		return &Position{File: e.File, Line: e.Line, Col: e.Col}
	}
	return nil
}

// reason is err's text without the position it starts with, when it
// starts with one: the message of a positioned error, with the notes the
// grader added after it.
func reason(err error) string {
	switch e := err.(type) {
	case *poserr.Error:
		return e.Msg
	case scenarioError:
		return reason(e.error)
	case noted:
		return reason(e.err) + " (" + e.note + ")"
	}
	return err.Error()
}

// noted is an error with a note the grader adds in parentheses after it
// (the seed it failed under, say).
type noted struct {
	err  error
	note string
}

func (e noted) Error() string { return e.err.Error() + " (" + e.note + ")" }
func (e noted) Unwrap() error { return e.err }

// Bounds on text from an answer quoted into a report, in characters.
const (
	maxAnswerText = 80  // one predicted value
	maxQuoted     = 600 // a whole error message
)

// judgePrediction compares a prediction with the report. Its message says
// that the prediction is wrong (outside the tolerance, not the right
// choice; too high or too low only when the exercise's feedback is
// direction) but never what the right answer is, unless opts.Reveal is set.
func judgePrediction(ex *pack.Exercise, c pack.Check, a *answer.Answer, rep *report.Report, seed int64, opts Options) CheckResult {
	v, ok := a.Values[c.Answer]
	if !ok {
		return CheckResult{Message: fmt.Sprintf("%s: no answer in %s", c.Answer, a.File)}
	}
	if v.Err != "" {
		return CheckResult{Actual: untrusted.Quote(v.Text, maxAnswerText), Message: untrusted.Quote(v.Err, maxQuoted)}
	}
	var truth string
	var num float64
	isNum := false
	if c.Field == "" {
		truth = c.Correct
	} else {
		f, err := lab.Field(rep, c.Field)
		if err != nil {
			return CheckResult{Message: err.Error()}
		}
		truth = report.Format(f)
		num, isNum = f.(float64)
	}
	shown := untrusted.Quote(v.Text, maxAnswerText)
	cr := CheckResult{Actual: shown}
	expected := truth
	at := fmt.Sprintf("%s:%d:%d", a.File, v.Line, v.Col)
	var why string
	if isNum {
		tol := c.Tolerance
		if c.Relative {
			tol = c.Tolerance * math.Abs(num)
		}
		cr.Passed = math.Abs(v.Num-num) <= tol+1e-9
		if tol > 0 {
			expected = fmt.Sprintf("%s ± %s", truth, strconv.FormatFloat(tol, 'g', 4, 64))
		}
		switch {
		case cr.Passed:
		case ex.Feedback != pack.FeedbackDirection && !opts.Reveal:
			// Which way it is wrong is a search oracle: bisection
			// finds any number in a dozen submissions.
			why = "wrong"
		case v.Num > num:
			why = "too high"
		default:
			why = "too low"
		}
		if !cr.Passed && tol > 0 {
			why += ", outside the tolerance"
			if c.Relative {
				why += fmt.Sprintf(" of %s%%", strconv.FormatFloat(c.Tolerance*100, 'g', 4, 64))
			} else {
				why += fmt.Sprintf(" of %s", strconv.FormatFloat(c.Tolerance, 'g', 4, 64))
			}
		}
	} else {
		given := v.Text
		if b, ok := answer.ParseBool(given); ok && (truth == "true" || truth == "false") {
			given = strconv.FormatBool(b)
		}
		cr.Passed = pack.NormalChoice(given) == pack.NormalChoice(truth)
		why = "not the right answer"
		if len(c.Choices) > 0 {
			why = "not the right choice"
			if !slices.ContainsFunc(c.Choices, func(x string) bool { return pack.NormalChoice(x) == pack.NormalChoice(given) }) {
				why = "not one of the choices " + strings.Join(c.Choices, ", ")
			}
		}
	}
	what := "the right answer"
	if c.Field != "" {
		what = fmt.Sprintf("the engine's %s", c.Field)
	}
	if opts.Reveal {
		cr.Expected = expected
		if c.Field != "" {
			what += fmt.Sprintf(" under seed %d", seed)
		}
	}
	switch {
	case cr.Passed:
		cr.Message = fmt.Sprintf("%s: %s matches %s", c.Answer, shown, what)
	case opts.Reveal:
		cr.Message = fmt.Sprintf("%s: %s answered %s: %s; %s is %s", c.Answer, at, shown, why, what, expected)
	default:
		cr.Message = fmt.Sprintf("%s: %s answered %s: %s", c.Answer, at, shown, why)
	}
	return cr
}

// judgeExpect evaluates an expect check on the finished session, with the
// lab's own comparison so that it means exactly what it means in a script;
// an observed field (pack.ObservedFields) is read off the event log.
func (r *runner) judgeExpect(ctx context.Context, c pack.Check, rep *report.Report, seed int64, opts Options) CheckResult {
	var actual any
	var err error
	if pack.IsObserved(c.Expr.Field) {
		actual, err = r.obs.value(c.Expr.Field, rep)
	} else {
		actual, err = lab.Field(rep, c.Expr.Field)
	}
	if err != nil {
		return CheckResult{Message: err.Error()}
	}
	ok, err := lab.Compare(actual, c.Expr.Op, c.Expr.Value)
	if err != nil {
		return CheckResult{Message: fmt.Sprintf("%s: %v", c.Expr.Field, err)}
	}
	shown := render(actual)
	cr := CheckResult{Passed: ok, Expected: c.Expect, Actual: shown}
	if ok && needsFailure(c) && requiresFailure(r.ex) && r.obs.kills+r.obs.jmKills == 0 {
		// Equal to the failure-free run is what any answer gets by
		// failing nothing: it counts as recovery only after a failure.
		cr.Passed = false
		cr.Message = fmt.Sprintf("%s holds, but nothing failed in the run: the output equals the failure-free run by default, and counts only once something has failed and recovered", c.Expect)
		return cr
	}
	under := ""
	if opts.Reveal {
		under = fmt.Sprintf(" under seed %d", seed)
	}
	if ok {
		cr.Message = fmt.Sprintf("%s holds (actual %s)", c.Expect, shown)
		return cr
	}
	how := ""
	if n, isNum := actual.(float64); isNum && c.Expr.Value.Kind == script.Number {
		switch {
		case n > c.Expr.Value.Num:
			how = " (too high)"
		case n < c.Expr.Value.Num:
			how = " (too low)"
		}
	}
	cr.Message = fmt.Sprintf("expected %s, but %s is %s%s%s", c.Expect, c.Expr.Field, shown, under, how)
	return cr
}

// needsFailure reports whether check c asks that the output equal the
// failure-free run (sink.correct == true, or != false), which only means
// something once a node or the job manager has failed.
func needsFailure(c pack.Check) bool {
	if c.Expr.Field != "sink.correct" && c.Expr.Field != "correct" {
		return false
	}
	v := c.Expr.Value
	return v.Kind == script.Bool && ((c.Expr.Op == "==" && v.Bool) || (c.Expr.Op == "!=" && !v.Bool))
}

// requiresFailure reports whether exercise ex is about recovering from a
// failure: its scenario kills something, or a check asks for a failure.
// Where it is not (a job that must start, a watermark that must wait), an
// output equal to the failure-free run is the point itself.
func requiresFailure(ex *pack.Exercise) bool {
	for _, c := range ex.Scenario {
		if c.Verb == script.VerbKill {
			return true
		}
	}
	for _, c := range ex.Checks {
		switch c.Expr.Field {
		case "recovery.failures", "events.kills", "events.jobmanager_kills", "recovery.jobmanager_failovers", "events.killed_nodes":
			return true
		}
	}
	return false
}

// render formats a field's value as the report shows it, an empty text
// as "" so that feedback never shows a blank.
func render(v any) string {
	if v == "" {
		return `""`
	}
	return report.Format(v)
}

// sessionFile is the name the runner gives its session, so that errors the
// session raises can be moved onto the file the command came from.
const sessionFile = "\x00grader"

// runner runs one exercise's session.
type runner struct {
	ex   *pack.Exercise
	ans  *answer.Answer
	seed int64
	s    *lab.Session
	obs  observer
	at   string // the command running when the time ran out
	tmp  []string
	// budget bounds the run's work; admitted counts the records let in.
	budget   pack.Budget
	admitted int64
	state    stateRead
}

// stepSlice is how many scheduler steps a run takes between checks of the
// budget: small enough that going over costs little, large enough that the
// checks cost nothing.
const stepSlice = 1 << 14

// exec carries out one command within the budget. A run admits its
// records, refusing to when they, or the window updates they would make,
// would go over, then plays them a slice of steps at a time, stopping
// when the steps, window updates or rows written go over; the play is
// finished by Finish, so that it ends exactly as the session's own run
// would have. Going over is an error at the command's line.
func (r *runner) exec(ctx context.Context, file string, c script.Command) error {
	if r.budget == (pack.Budget{}) || (c.Verb != script.VerbRun && c.Verb != script.VerbStep) {
		return r.s.Exec(ctx, c)
	}
	over := func(format string, args ...any) error {
		return poserr.New(lab.ErrBadInput, file, c.Line, c.Col, fmt.Sprintf(format, args...))
	}
	steps := func() int64 {
		if rt := r.s.Running(); rt != nil {
			return rt.Steps()
		}
		return 0
	}
	if c.Verb == script.VerbStep {
		if steps()+c.Count > r.budget.Steps {
			return over("over the exercise's budget of %d scheduler steps: this step would take the run to %d", r.budget.Steps, steps()+c.Count)
		}
		if err := r.s.Exec(ctx, c); err != nil {
			return err
		}
		return r.checkWork(over)
	}
	// The settings are fixed by the first run: the fan-out is known before
	// a record is admitted, and a run that would go over is refused before
	// it starts.
	fan := windowFanOut(r.s.Spec())
	if c.Duration <= 0 && r.admitted+c.Count > r.budget.Records {
		return over("over the exercise's budget of %d records: this run would admit %d in all", r.budget.Records, r.admitted+c.Count)
	}
	if c.Duration <= 0 {
		if err := r.checkUpdates(over, fan, r.admitted+c.Count); err != nil {
			return err
		}
	}
	if err := r.checkWork(over); err != nil {
		return err // the settings alone hold too much: a filter of 10⁹ bits
	}
	play, err := r.s.Play(c)
	if err != nil {
		return err
	}
	r.admitted += play.Admitted()
	if r.admitted > r.budget.Records {
		return over("over the exercise's budget of %d records: this run admitted %d in all", r.budget.Records, r.admitted)
	}
	if err := r.checkUpdates(over, fan, r.admitted); err != nil {
		return err
	}
	rt := r.s.Running()
	for {
		quiet, err := play.StepWithin(ctx, stepSlice, r.workLimit())
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if s := rt.Steps(); s > r.budget.Steps {
			return over("over the exercise's budget of %d scheduler steps: the run had taken %d when it was stopped", r.budget.Steps, s)
		}
		if err := r.checkWork(over); err != nil {
			return err
		}
		if quiet {
			break
		}
	}
	if err := play.Finish(ctx); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return r.checkWork(over)
}

// fanOut is how many windows one record a job's window-count operators
// take in is counted in: window/slide for each (1 for a tumbling window),
// summed over the operators, with the widest named for messages.
type fanOut struct {
	total  int64
	widest jobspec.Operator
	byOp   map[string]int64
}

// windowFanOut reads the fan-out off the job's spec.
func windowFanOut(spec jobspec.Spec) fanOut {
	f := fanOut{byOp: map[string]int64{}}
	for _, op := range spec.Operators {
		if op.Kind != jobspec.KindWindowCount || op.Slide <= 0 {
			continue
		}
		n := max(int64(op.Window/op.Slide), 1)
		f.byOp[op.Name] = n
		f.total += n
		if n > f.byOp[f.widest.Name] {
			f.widest = op
		}
	}
	return f
}

// describe says where the fan-out comes from.
func (f fanOut) describe(records int64) string {
	if f.total <= 1 {
		return fmt.Sprintf("%d records, each counted in %d window", records, f.total)
	}
	return fmt.Sprintf("%d records, each counted in %d windows: %s's window %s slides by %s", records, f.total, f.widest.Name, f.widest.Window, f.widest.Slide)
}

// checkUpdates refuses records admitted records when each would be counted
// in more windows than the budget has left: a sliding window of 1s by 1ms
// makes every record 1000 updates, work a step does not measure.
func (r *runner) checkUpdates(over func(string, ...any) error, f fanOut, records int64) error {
	if n := records * f.total; n > r.budget.WindowUpdates {
		return over("your answer does %d window updates, the budget is %d (%s)", n, r.budget.WindowUpdates, f.describe(records))
	}
	return nil
}

// checkWork stops a run whose window updates or rows written went over
// while it ran: a restart replays records through the windows again, and a
// complete-mode trigger writes the whole table. Window updates are counted
// at the window-count nodes (records taken in, replays included, times the
// operator's fan-out); rows as the sink commits them.
func (r *runner) checkWork(over func(string, ...any) error) error {
	rt := r.s.Running()
	if rt == nil {
		return nil
	}
	if f := windowFanOut(rt.Spec()); f.total > int64(len(f.byOp)) {
		// With tumbling windows an update is a step, which the step
		// budget counts; only a sliding window needs the nodes read.
		snap := rt.Snapshot()
		var n int64
		for _, st := range snap.Stages {
			for _, i := range st.Nodes {
				n += snap.Nodes[i].In * f.byOp[st.Name]
			}
		}
		if n > r.budget.WindowUpdates {
			return over("your answer does %d window updates, the budget is %d (with the records restarts replayed, each counted in %d windows: %s's window %s slides by %s)",
				n, r.budget.WindowUpdates, f.total, f.widest.Name, f.widest.Window, f.widest.Slide)
		}
	}
	if err := r.checkState(over, rt); err != nil {
		return err
	}
	r.obs.drain()
	if r.obs.written > r.budget.Rows {
		why := "every row a trigger writes counts, a row written again too"
		if rt.Config().Mode == engine.ModeComplete {
			why = "in complete mode every trigger writes the whole table again"
		}
		return over("your answer writes %d rows to the sink, the budget is %d (%s)", r.obs.written, r.budget.Rows, why)
	}
	return nil
}

// workLimit is the budget's limit on the work the engine counts as it
// goes: one step can check a million timers or copy megabytes of state,
// so the run stops at the step that went over, not at the slice's end.
func (r *runner) workLimit() engine.Work {
	return engine.Work{TimerChecks: r.budget.Timers, CheckpointBytes: r.budget.CheckpointBytes}
}

// checkState stops a run whose window timers checked, state held or state
// copied into checkpoints went over the budget.
func (r *runner) checkState(over func(string, ...any) error, rt lab.Running) error {
	w := rt.Work()
	if r.budget.Timers > 0 && w.TimerChecks > r.budget.Timers {
		return over("your answer checks %d window timers, the budget is %d (each trigger checks the timer of every window held open, %d now; a watermark that lags far behind the events keeps every window open)",
			w.TimerChecks, r.budget.Timers, rt.Timers())
	}
	if r.budget.CheckpointBytes > 0 && w.CheckpointBytes > r.budget.CheckpointBytes {
		return over("your answer copies %d bytes of state into checkpoints, the budget is %d (a checkpoint every %d records copies the whole state each time)",
			w.CheckpointBytes, r.budget.CheckpointBytes, rt.Config().CheckpointInterval)
	}
	if !r.stateDue(rt.Steps()) {
		return nil
	}
	n := rt.StateBytes()
	r.state = stateRead{done: true, at: rt.Steps(), bytes: n}
	if r.budget.StateBytes > 0 && n > r.budget.StateBytes {
		return over("your answer holds %d bytes of state, the budget is %d (windows held open, filters, checkpoints and the records upstream backup keeps, as a checkpoint would write them)",
			n, r.budget.StateBytes)
	}
	return nil
}

// stateRead is when the state held was last read, and how much it was.
type stateRead struct {
	done      bool
	at, bytes int64
}

// stateDue reports whether the state held is worth reading again at steps:
// reading it costs O(state), so once read it is read again only after the
// run has taken a step for every 64 bytes it held, and ten thousand short
// runs over a large state cost no more than the steps they take.
func (r *runner) stateDue(steps int64) bool {
	return !r.state.done || steps-r.state.at >= max(r.state.bytes/64, 1)
}

func (r *runner) close() {
	if r.s != nil {
		r.s.Close()
	}
	for _, d := range r.tmp {
		os.RemoveAll(d)
	}
}

// part is a run of commands from one file, and whose fault an error in
// them is.
type part struct {
	file   string
	cmds   []script.Command
	broken bool // an error here is the pack's, not the answer's
}

// run builds the session: the job, then a configuration answer's settings,
// then the scenario, then a script or recording answer.
func (r *runner) run(ctx context.Context) (*report.Report, error) {
	seed := r.seed
	r.s = lab.NewSession(sessionFile, lab.Options{Seed: &seed, Executor: engine.ExecDeterministic})
	r.obs.sub = r.s.Subscribe(observeSize)
	ex, a := r.ex, r.ans
	job, err := r.jobPath()
	if err != nil {
		return nil, err
	}
	jobCmd := script.Command{Verb: script.VerbJob, Line: 1, Col: 1, Args: []script.Arg{{Text: job, Line: 1, Col: 1}}}
	parts := []part{{file: ex.File, cmds: []script.Command{jobCmd}, broken: a.Job == nil}}
	switch {
	case ex.Kind == pack.KindConfiguration:
		parts = append(parts,
			part{file: a.File, cmds: a.Commands},
			part{file: ex.ScenarioFile, cmds: ex.Scenario})
	case ex.Kind == pack.KindPrediction:
		parts = append(parts, part{file: ex.ScenarioFile, cmds: ex.Scenario, broken: true})
	default: // script, recording
		parts = append(parts,
			part{file: ex.ScenarioFile, cmds: ex.Scenario, broken: true},
			part{file: a.File, cmds: a.Commands})
	}
	for _, p := range parts {
		for _, c := range p.cmds {
			r.at = fmt.Sprintf("%s:%d", p.file, c.Line)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if !r.s.Started() && c.Verb != script.VerbSet && c.Verb != script.VerbJob {
				// Start the job before the first command that acts on
				// it, so that the budget's checks see it from the start.
				if err := r.s.StartFor(c); err != nil {
					return nil, r.blame(p, err)
				}
			}
			err := r.exec(ctx, p.file, c)
			r.obs.drain()
			if err != nil {
				return nil, r.blame(p, err)
			}
		}
	}
	r.at = "the report" // the failure-free run catches up: it counts against the limit too
	rep, err := r.s.ReportContext(ctx)
	if err != nil {
		return nil, r.blame(part{file: ex.File}, err)
	}
	return rep, nil
}

// blame names the file an error came from, and marks the pack's errors.
func (r *runner) blame(p part, err error) error {
	if errors.Is(err, engine.ErrInternal) {
		return err // the machine's fault: neither the answer's nor the pack's
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	if le, ok := poserr.As(err, lab.ErrBadInput); ok {
		e := *le
		if e.File == sessionFile {
			e.File = p.file
		}
		err = &e
	}
	if p.broken {
		return &PackError{ID: r.ex.ID, Err: err}
	}
	if p.file == r.ex.ScenarioFile && r.ex.Kind == pack.KindConfiguration {
		if le, ok := poserr.As(err, lab.ErrBadInput); ok && r.ans.Job != nil {
			// The student's job file is what lacks the scenario's node
			// (or setting): say so against it, not the instructor's file.
			return scenarioError{&poserr.Error{Kind: answer.ErrBadAnswer, File: r.ans.File, Msg: fmt.Sprintf("this job cannot run the exercise's scenario: %s (in the exercise's scenario, %s:%d)", le.Msg, le.File, le.Line)}}
		}
		return scenarioError{noted{err, "in the exercise's scenario, after the settings of " + r.ans.File}}
	}
	return err
}

// jobPath is the argument of the session's job command: a built-in job's
// name, or a job file on disk (the answer's, for a configuration answer
// that is a job file).
func (r *runner) jobPath() (string, error) {
	ex, a := r.ex, r.ans
	if a.Job != nil {
		if a.Path != "" {
			return filepath.Abs(a.Path)
		}
		dir, err := r.tempDir()
		if err != nil {
			return "", err
		}
		p := filepath.Join(dir, path.Base(filepath.ToSlash(a.File)))
		if !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") {
			p += ".yaml"
		}
		return p, os.WriteFile(p, a.Data, 0o600)
	}
	if !ex.JobIsFile() || filepath.IsAbs(ex.Job) {
		return ex.Job, nil
	}
	if ex.Pack.Dir != "" {
		return filepath.Abs(filepath.Join(ex.Pack.Dir, filepath.FromSlash(ex.Dir), filepath.FromSlash(ex.Job)))
	}
	// An embedded pack: the job file (and any events file beside it) must
	// be on disk for the engine to read.
	dir, err := r.tempDir()
	if err != nil {
		return "", err
	}
	sub, err := fs.Sub(ex.Pack.FS, ex.Dir)
	if err != nil {
		return "", err
	}
	if err := os.CopyFS(dir, sub); err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(ex.Job)), nil
}

func (r *runner) tempDir() (string, error) {
	d, err := os.MkdirTemp("", "streamlab-grade-*")
	if err != nil {
		return "", fmt.Errorf("%w: %v", engine.ErrInternal, err)
	}
	r.tmp = append(r.tmp, d)
	return d, nil
}
