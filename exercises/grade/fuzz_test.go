package grade_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
)

// FuzzGradeAnswer grades any bytes as the answer to each built-in
// exercise, as a hostile student would hand them in: grading must end
// within the time limit with a result for that exercise (never an error:
// the built-in pack is not broken, and a panic fails only its exercise),
// a score within its bounds, and text that carries no control character
// back into the report.
func FuzzGradeAnswer(f *testing.F) {
	exs := exercises.List()
	for _, e := range exs {
		data, err := e.Starter()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"set window 1ns\nrun 10\n",
		"set window 1h\nset window.slide 1ms\nrun 10\n",
		"set source.rate 1000000\nrun 24h\n",
		"run 10000000\n",
		"lost: \"\x1b[2J\x1b]0;owned\x07\"\n",
		"name: x\nsource: {file: /dev/zero}\noperators:\n  - {name: p, kind: parse}\n",
		"set seed 0x10\n",
		strings.Repeat("expect sink.lost == 0\n", 500),
	} {
		f.Add([]byte(s))
	}
	seed := int64(3)
	// The budget (records and steps) bounds an answer's work; the wall
	// time limit is only the guard against a grader bug, generous so that
	// a loaded machine under -race does not trip it.
	opts := grade.Options{Seed: &seed, TimeLimit: 30 * time.Second}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, e := range exs {
			start := time.Now()
			res, err := grade.Bytes(context.Background(), e, "answer", data, opts)
			if err != nil {
				t.Fatalf("%s: %v", e.ID, err)
			}
			if d := time.Since(start); d > 4*opts.TimeLimit {
				t.Errorf("%s: grading took %v under a %v limit", e.ID, d, opts.TimeLimit)
			}
			if res.ID != e.ID || res.Score < 0 || res.Score > res.MaxScore {
				t.Fatalf("%s: result %s scored %g of %g", e.ID, res.ID, res.Score, res.MaxScore)
			}
			texts := []string{res.Error}
			for _, c := range res.Checks {
				texts = append(texts, c.Actual, c.Message)
			}
			for _, s := range texts {
				if i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' }); i >= 0 {
					t.Fatalf("%s: report text carries a control character: %q", e.ID, s)
				}
			}
		}
	})
}
