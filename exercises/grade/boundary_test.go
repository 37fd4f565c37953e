package grade

import (
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/pack"
)

// A prediction exactly at its tolerance passes, and one just outside fails.
// The README's exercise format: "judged against the engine (field:
// sink.lost, with an optional tolerance: 3 or tolerance: 5% for numbers)" —
// within the tolerance, inclusive. Binary fractions (0.1 is not exact) must
// not push an answer that is exactly at the tolerance in decimal outside.
func TestPredictionAtItsTolerance(t *testing.T) {
	rep := &report.Report{}
	rep.Sink.Duplicates = 40
	rep.Filter.MeasuredFP = 0.3
	for _, c := range []struct {
		field     string
		tolerance float64
		relative  bool
		answer    float64
		pass      bool
	}{
		{"sink.duplicates", 3, false, 43, true},
		{"sink.duplicates", 3, false, 37, true},
		{"sink.duplicates", 3, false, 43.01, false},
		{"sink.duplicates", 3, false, 36.99, false},
		{"sink.duplicates", 0, false, 40, true},
		{"sink.duplicates", 0, false, 41, false},
		{"sink.duplicates", 0.05, true, 42, true}, // 5% of 40 is 2
		{"sink.duplicates", 0.05, true, 38, true},
		{"sink.duplicates", 0.05, true, 42.1, false},
		{"filter.measured_fp", 0.1, false, 0.4, true}, // 0.4 − 0.3 is 0.10000000000000003 in binary
		{"filter.measured_fp", 0.1, false, 0.2, true},
		{"filter.measured_fp", 0.1, false, 0.41, false},
	} {
		check := pack.Check{Answer: "x", Field: c.field, Tolerance: c.tolerance, Relative: c.relative}
		a := &answer.Answer{File: "answers.yaml", Values: map[string]answer.Value{"x": {Type: pack.TypeNumber, Num: c.answer, Text: "?"}}}
		if got := judgePrediction(&pack.Exercise{}, check, a, rep, 1, Options{}); got.Passed != c.pass {
			t.Errorf("%s (%s): answer %v with tolerance %v (relative %v): passed %v, want %v (%s)",
				c.field, "truth", c.answer, c.tolerance, c.relative, got.Passed, c.pass, got.Message)
		}
	}
}

// What a student is shown at the boundary: the right value with its
// tolerance (none when it is 0), and which side of it a wrong answer fell.
func TestPredictionToleranceIsShown(t *testing.T) {
	rep := &report.Report{}
	rep.Sink.Duplicates = 40
	for _, c := range []struct {
		tolerance float64
		answer    float64
		expected  string
		why       string
	}{
		{3, 43.01, "40 ± 3", "too high, outside the tolerance of 3"},
		{3, 36.5, "40 ± 3", "too low, outside the tolerance of 3"},
		{0, 41, "40", "too high"},
	} {
		check := pack.Check{Answer: "x", Field: "sink.duplicates", Tolerance: c.tolerance}
		a := &answer.Answer{File: "answers.yaml", Values: map[string]answer.Value{"x": {Type: pack.TypeNumber, Num: c.answer, Text: "?"}}}
		got := judgePrediction(&pack.Exercise{}, check, a, rep, 1, Options{Reveal: true})
		if got.Passed || got.Expected != c.expected || !strings.Contains(got.Message, c.why) {
			t.Errorf("answer %v, tolerance %v: passed %v, expected %q, message %q; want expected %q and %q in the message",
				c.answer, c.tolerance, got.Passed, got.Expected, got.Message, c.expected, c.why)
		}
		if c.tolerance == 0 && strings.Contains(got.Message, "outside the tolerance") {
			t.Errorf("tolerance 0: %q speaks of a tolerance", got.Message)
		}
	}
}

// TestPredictionFeedbackIsRightOrWrong: a student is told only that a
// number is wrong, never which way, unless the exercise opts in with
// feedback: direction; "too high / too low" lets a bisection reach any
// number in a dozen submissions.
func TestPredictionFeedbackIsRightOrWrong(t *testing.T) {
	rep := &report.Report{}
	rep.Sink.Duplicates = 40
	for _, c := range []struct {
		feedback string
		answer   float64
		want     string
		lacks    []string
	}{
		{"", 50, ": wrong, outside the tolerance of 3", []string{"high", "low"}},
		{pack.FeedbackRightWrong, 30, ": wrong, outside the tolerance of 3", []string{"high", "low"}},
		{pack.FeedbackDirection, 50, ": too high, outside the tolerance of 3", nil},
		{pack.FeedbackDirection, 30, ": too low, outside the tolerance of 3", nil},
	} {
		check := pack.Check{Answer: "x", Field: "sink.duplicates", Tolerance: 3}
		a := &answer.Answer{File: "answers.yaml", Values: map[string]answer.Value{"x": {Type: pack.TypeNumber, Num: c.answer, Text: "?"}}}
		got := judgePrediction(&pack.Exercise{Feedback: c.feedback}, check, a, rep, 1, Options{})
		if got.Passed || !strings.Contains(got.Message, c.want) {
			t.Errorf("feedback %q, answer %v: %q, want %q", c.feedback, c.answer, got.Message, c.want)
		}
		for _, l := range c.lacks {
			if strings.Contains(got.Message, l) {
				t.Errorf("feedback %q: %q says which way (%s)", c.feedback, got.Message, l)
			}
		}
	}
}
