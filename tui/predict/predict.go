// Package predict is the terminal lab's form for a prediction exercise:
// predict, observe, explain. The learner types a prediction for each
// number the exercise asks about, before the scenario has run; then the
// scenario plays under the learner's own seed and the observed values
// appear beside the predictions; then the learner answers the exercise's
// multiple-choice questions (why it came out that way). The answers are
// graded as `streamlab grade` grades answers.yaml, and saved in that
// format, so the same file can be handed in.
//
// The observed values are those of the learner's seed, never the
// exercise's published one: they are the learner's own experiment, not
// another student's answers.
package predict

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/userfile"
)

// Phase is where the learner is.
type Phase int

// The phases, in order.
const (
	// Predicting: the form of predictions, before the scenario runs.
	Predicting Phase = iota
	// Recording: the predictions are being recorded as an attempt, before
	// anything is observed (where the lab counts attempts).
	Recording
	// Observing: the scenario plays; the observed values are on their way.
	Observing
	// Explaining: the observed values beside the predictions, and the
	// multiple-choice questions.
	Explaining
	// Done: graded.
	Done
)

// Field is one answer the form asks for.
type Field struct {
	// Key is the answers.yaml key; Label the check's name; Report the
	// report field it is judged against (empty for a fixed answer).
	Key, Label, Report string
	// Choices are the allowed answers of a multiple-choice question.
	Choices []string
	// Value is what the learner typed or chose.
	Value string
	// Observed is the engine's value under the learner's seed, once known.
	Observed string
}

// Fields returns the exercise's predictions (answers judged against the
// engine) and its questions (fixed answers), in the checks' order.
func Fields(ex *pack.Exercise) (predictions, questions []Field) {
	seen := map[string]bool{}
	for _, c := range ex.Checks {
		if c.Answer == "" || seen[c.Answer] {
			continue
		}
		seen[c.Answer] = true
		f := Field{Key: c.Answer, Label: c.Name, Report: c.Field, Choices: c.Choices}
		if c.Field == "" {
			questions = append(questions, f)
		} else {
			predictions = append(predictions, f)
		}
	}
	return predictions, questions
}

// AnswersYAML is the answers as answers.yaml holds them, a key a line,
// texts quoted; an empty value is left empty (no answer).
func AnswersYAML(ex *pack.Exercise, fields []Field) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Answers to %s, typed in the terminal lab.\n", ex.ID)
	for _, f := range fields {
		v := strings.TrimSpace(f.Value)
		switch {
		case v == "":
		case isNumber(v), v == "true", v == "false":
		default:
			v = strconv.Quote(v)
		}
		if v == "" {
			fmt.Fprintf(&b, "%s:\n", f.Key)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", f.Key, v)
		}
	}
	return []byte(b.String())
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// ObservedMsg carries the scenario's outcome under the learner's seed: the
// observed value of each prediction, and the grade of the predictions
// made before it ran.
type ObservedMsg struct {
	ID       string
	Observed map[string]string
	Grade    grade.ExerciseResult
	Err      error
}

// AttemptMsg says the predictions were recorded as attempt N, or why not
// (ErrNoAttempts when the exercise's attempts are used).
type AttemptMsg struct {
	ID  string
	N   int
	Err error
}

// ErrNoAttempts is the error of an attempt past the exercise's limit.
var ErrNoAttempts = errors.New("no attempts left")

// attemptsDir is where an exercise's attempts are kept, under DIR/ID.
const attemptsDir = "attempts"

// attemptCmd records the predictions as the next attempt under
// dir/ID/attempts and as dir/ID/FILE, the answer graded; it refuses an
// attempt past limit.
func attemptCmd(ex *pack.Exercise, dir string, data []byte, limit int) func() any {
	return func() any {
		n, err := recordAttempt(filepath.Join(dir, ex.ID, attemptsDir), data, limit)
		if err == nil {
			_, err = save(filepath.Join(dir, ex.ID, ex.Answer), data)
		}
		return AttemptMsg{ID: ex.ID, N: n, Err: err}
	}
}

// recordAttempt writes data as dir/N.yaml for the first N free, never
// over an attempt that is there, and refuses when the limit's attempts
// are there already.
func recordAttempt(dir string, data []byte, limit int) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	paths := make([]string, max(limit, 0))
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("%d.yaml", i+1))
	}
	i, err := userfile.WriteFirstFree(paths, 0o644, data)
	if !errors.Is(err, userfile.ErrAllTaken) {
		return i + 1, err
	}
	s := "s"
	if limit == 1 {
		s = ""
	}
	return 0, fmt.Errorf("%w: you have used your %d attempt%s at this prediction, and seen what the scenario does; the answer graded is the one you gave then", ErrNoAttempts, limit, s)
}

// GradedMsg carries the grade of every answer, questions included, and
// where the answers were saved.
type GradedMsg struct {
	ID    string
	Grade grade.ExerciseResult
	Saved string
	Err   error
}

// timeout bounds the engine's work on one grading.
const timeout = time.Minute

// observeCmd runs the scenario under seed and grades the predictions.
func observeCmd(ex *pack.Exercise, seed int64, answers []byte) func() any {
	return func() any {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		opts := grade.Options{Seed: &seed}
		key, err := grade.Key(ctx, ex, opts)
		if err != nil {
			return ObservedMsg{ID: ex.ID, Err: err}
		}
		observed := map[string]string{}
		for _, l := range strings.Split(string(key), "\n") {
			k, v, ok := strings.Cut(l, ": ")
			if ok && !strings.HasPrefix(k, "#") {
				if u, err := strconv.Unquote(v); err == nil {
					v = u
				}
				observed[k] = v
			}
		}
		res, err := grade.Bytes(ctx, ex, ex.Answer, answers, opts)
		return ObservedMsg{ID: ex.ID, Observed: observed, Grade: res, Err: err}
	}
}

// gradeCmd grades every answer under seed and saves them in dir (not
// saved when dir is empty) as DIR/ID/FILE, where `streamlab grade
// --answers DIR` reads them.
func gradeCmd(ex *pack.Exercise, seed int64, answers []byte, dir string) func() any {
	return func() any {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		res, err := grade.Bytes(ctx, ex, ex.Answer, answers, grade.Options{Seed: &seed})
		msg := GradedMsg{ID: ex.ID, Grade: res, Err: err}
		if err == nil && dir != "" {
			msg.Saved, msg.Err = save(filepath.Join(dir, ex.ID, ex.Answer), answers)
		}
		return msg
	}
}

// save writes data to path through a temporary sibling and a rename,
// synced first (userfile.Write).
func save(path string, data []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, userfile.WriteFile(path, true, 0o644, data)
}

// scenarioLines are the lines of the scenario to play in the lab, comments
// and blank lines left out.
func scenarioLines(ex *pack.Exercise) []string {
	var out []string
	for _, l := range strings.Split(ex.ScenarioText, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// choiceIndex is the index of v among choices, -1 when absent.
func choiceIndex(choices []string, v string) int { return slices.Index(choices, v) }
