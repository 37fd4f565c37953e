package grade_test

import (
	"fmt"
	"testing"

	"github.com/streamlab/streamlab/exercises/grade"
)

// The further seeds an answer is graded under are new runs: none repeats
// the base seed or another (a grader that ran one seed three times would
// pass an answer that only holds by luck).
func TestFurtherSeedsAreDistinct(t *testing.T) {
	for _, base := range []int64{1, 7, 1_000_000_000_000} {
		seen := map[int64]bool{base: true}
		for i := 1; i <= 5; i++ {
			s := grade.NextSeed(base, i)
			if seen[s] || s <= 0 {
				t.Fatalf("NextSeed(%d, %d) = %d: repeated or not positive", base, i, s)
			}
			seen[s] = true
		}
	}
}

// Student seeds are positive and below 10^12, as StudentSeed documents:
// they are typed on command lines and shown in reports.
func TestStudentSeedsInRange(t *testing.T) {
	for i := range 200 {
		s := grade.StudentSeed("s3cret", fmt.Sprintf("student%d", i), "pred")
		if s < 1 || s > 1_000_000_000_000 {
			t.Fatalf("student%d: seed %d outside [1, 10^12]", i, s)
		}
	}
}
