package grade_test

import (
	"context"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises/grade"
)

// TestAttemptPastTheLimit: a CI cannot count a student's submissions by
// itself; given the count (Options.Attempt), a prediction past its
// exercise's attempts is not graded and says why, while the other kinds of
// exercise are graded whatever the count.
func TestAttemptPastTheLimit(t *testing.T) {
	ctx := context.Background()
	answer := []byte("lost: 1\nstate: running\nmode: append\n")
	gradeAt := func(attempts string, attempt int) grade.ExerciseResult {
		t.Helper()
		p := testPack(t, func(m map[string]string) {
			m["pred/exercise.yaml"] = strings.Replace(m["pred/exercise.yaml"], "seed: 3\n", "seed: 3\n"+attempts, 1)
		})
		r, err := grade.Bytes(ctx, lookup(t, p, "pred"), "answers.yaml", answer, grade.Options{Attempt: attempt})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		attempts string
		attempt  int
		graded   bool
	}{
		{"", 0, true}, {"", 1, true}, {"", 2, false},
		{"attempts: 3\n", 3, true}, {"attempts: 3\n", 4, false},
	} {
		r := gradeAt(tc.attempts, tc.attempt)
		if graded := r.Checks[2].Passed; graded != tc.graded {
			t.Errorf("%q attempt %d: graded %v, want %v: %+v", tc.attempts, tc.attempt, graded, tc.graded, r)
		}
		if !tc.graded && (r.Score != 0 || !strings.Contains(r.Error, "no attempts left: this is attempt ") || !strings.Contains(r.Error, "grades a prediction on its first")) {
			t.Errorf("%q attempt %d: %+v", tc.attempts, tc.attempt, r)
		}
	}
	r, err := grade.Bytes(ctx, lookup(t, testPack(t, nil), "scr"), "a.lab", []byte("run 600\n"), grade.Options{Attempt: 9})
	if err != nil || !r.Passed {
		t.Errorf("a script exercise at attempt 9: %+v, %v", r, err)
	}
}
