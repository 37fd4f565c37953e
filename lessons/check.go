package lessons

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
)

// Check kinds.
const (
	CheckNumber = "number" // the learner gives a number
	CheckChoice = "choice" // the learner picks one of Options
)

// ErrNotUnderstood is returned by Judge for an answer that is not a number
// (or not an option) at all; it does not count as a wrong answer.
var ErrNotUnderstood = errors.New("answer not understood")

// Check is a lesson's final question. Its right answer comes from the
// engine: Solve runs the check's lab scripts under the learner's seed and
// computes it from their reports, so an answer that depends on the seed
// cannot be copied from another learner.
type Check struct {
	Kind     string
	Question string
	// Options are the choices of a choice check, in order.
	Options []string
	// Unit names what a number counts ("records", "ms"), for the prompt.
	Unit string
	// Explanation says why the answer is what it is, in Markdown; Solve
	// fills its {RUN.FIELD} placeholders with the runs' values.
	Explanation string

	runs         map[string]string // name → lab script
	answer       sum               // number: the right answer
	tolerance    float64           // number: absolute slack
	tolerancePct float64           // number: slack in percent of the answer
	correct      int               // choice: the right option, or -1 when computed
	when         []*condition      // choice: an option is right when its condition holds
}

// Runs lists the names of the lab scripts Solve runs, sorted.
func (c *Check) Runs() []string { return slices.Sorted(maps.Keys(c.runs)) }

// Script returns the lab script of the named run.
func (c *Check) Script(run string) string { return c.runs[run] }

// Answer is the engine's answer to a check under one seed.
type Answer struct {
	Kind string
	Seed int64
	// Value is a number check's right answer, Tolerance the distance from
	// it still judged right.
	Value, Tolerance float64
	// Option is a choice check's right option (from 0), Options the
	// options.
	Option  int
	Options []string
	// Explanation is the check's explanation with the runs' values filled in.
	Explanation string
	// Reports are the runs' reports, by name.
	Reports map[string]*report.Report
}

// Solve runs the check's scripts under seed and works out the right
// answer. It writes the lesson's files to a temporary directory for
// scripts that name them, and removes it afterwards.
func (l *Lesson) Solve(ctx context.Context, seed int64) (*Answer, error) {
	dir, err := os.MkdirTemp("", "streamlab-lesson-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := l.WriteFiles(dir); err != nil {
		return nil, err
	}
	c := &l.Check
	reps := map[string]*report.Report{}
	for _, name := range c.Runs() {
		res, err := lab.RunScript(ctx, filepath.Join(dir, "check-"+name+".lab"), []byte(c.runs[name]), lab.Options{Seed: &seed})
		rep := res.Report
		if err != nil {
			return nil, fmt.Errorf("lesson %s, check run %s: %w", l.ID, name, err)
		}
		reps[name] = rep
	}
	a := &Answer{Kind: c.Kind, Seed: seed, Options: c.Options, Reports: reps, Option: -1}
	switch c.Kind {
	case CheckNumber:
		if a.Value, err = c.answer.eval(reps); err != nil {
			return nil, fmt.Errorf("lesson %s, check answer: %w", l.ID, err)
		}
		a.Tolerance = math.Max(c.tolerance, math.Abs(a.Value)*c.tolerancePct/100)
	case CheckChoice:
		a.Option = c.correct
		for i, cond := range c.when {
			if cond == nil || a.Option >= 0 {
				continue
			}
			ok, err := cond.eval(reps)
			if err != nil {
				return nil, fmt.Errorf("lesson %s, check option %d: %w", l.ID, i+1, err)
			}
			if ok {
				a.Option = i
			}
		}
		if a.Option < 0 {
			return nil, fmt.Errorf("lesson %s, check: no option's condition holds under seed %d", l.ID, seed)
		}
	}
	a.Explanation = fillPlaceholders(c.Explanation, reps)
	return a, nil
}

// Want is the right answer as text: "722", "about 7000 (±700)" or
// "b) the MySQL driver jar".
func (a *Answer) Want() string {
	if a.Kind == CheckChoice {
		return fmt.Sprintf("%c) %s", 'a'+a.Option, a.Options[a.Option])
	}
	v := strconv.FormatFloat(math.Round(a.Value*100)/100, 'f', -1, 64) // a share shows as 48.3, not 48.297213…
	if a.Tolerance > 0 {
		return fmt.Sprintf("%s (±%s)", v, strconv.FormatFloat(math.Round(a.Tolerance*100)/100, 'f', -1, 64))
	}
	return v
}

// Verdict is the judgement of one answer.
type Verdict struct {
	Correct bool
	// Want is the right answer (Answer.Want); Explanation why.
	Want        string
	Explanation string
}

// Judge compares a learner's answer with the engine's. A number may have
// thousands separators ("1 234", "1,234", "1_234"); an option is its
// letter or its number ("b", "2"). Input that is neither gives an error
// wrapping ErrNotUnderstood.
func (a *Answer) Judge(input string) (Verdict, error) {
	v := Verdict{Want: a.Want(), Explanation: a.Explanation}
	s := strings.TrimSpace(input)
	switch a.Kind {
	case CheckNumber:
		n, err := parseNumber(s)
		if err != nil {
			return Verdict{}, fmt.Errorf("%w: %q is not a number", ErrNotUnderstood, input)
		}
		v.Correct = math.Abs(n-a.Value) <= a.Tolerance
	case CheckChoice:
		i, err := parseOption(s, len(a.Options))
		if err != nil {
			return Verdict{}, err
		}
		v.Correct = i == a.Option
	}
	return v, nil
}

func parseNumber(s string) (float64, error) {
	s = strings.NewReplacer(" ", "", "\u00a0", "", "\u202f", "", "_", "", ",", "").Replace(s)
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, errors.New("not a number")
	}
	return n, nil
}

func parseOption(s string, n int) (int, error) {
	s = strings.Trim(strings.ToLower(s), "() .")
	if len(s) == 1 && s[0] >= 'a' && int(s[0]-'a') < n {
		return int(s[0] - 'a'), nil
	}
	if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= n {
		return i - 1, nil
	}
	return 0, fmt.Errorf("%w: expected an option letter a–%c or a number 1–%d, got %q", ErrNotUnderstood, 'a'+n-1, n, s)
}
