package grade

import (
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises/pack"
)

// A panic while grading one exercise fails that exercise, with a message
// that blames the grader, and is not an error that would end the report.
func TestPanicFailsOnlyItsExercise(t *testing.T) {
	ex := &pack.Exercise{ID: "x", Kind: pack.KindScript, Checks: []pack.Check{{Name: "c", Points: 2}}}
	grade := func() (res ExerciseResult, err error) {
		defer recovered(ex, Options{}, "x.lab", &res, &err)
		var m map[string]int
		//lint:ignore SA5000 a nil-map write is the real runtime panic this test needs
		m["boom"]++
		return ExerciseResult{}, nil
	}
	res, err := grade()
	if err != nil {
		t.Fatalf("err = %v; want the panic turned into a failed exercise", err)
	}
	if res.Passed || res.ID != "x" || res.MaxScore != 2 || res.Score != 0 || len(res.Checks) != 1 {
		t.Fatalf("result = %+v; want exercise x failed with 0 of 2", res)
	}
	if !strings.Contains(res.Error, "internal error") || !strings.Contains(res.Error, "not in the answer") {
		t.Errorf("Error = %q; want it to say the grader is at fault", res.Error)
	}
}
