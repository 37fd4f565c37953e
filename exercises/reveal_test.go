package exercises_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/report"
)

// TestWrongPredictionsRevealNothing grades a wrong answer to every
// prediction exercise, in every format: no expected value appears unless
// the grader is told to reveal, and then it does.
func TestWrongPredictionsRevealNothing(t *testing.T) {
	ctx := context.Background()
	for _, e := range instructor(t) {
		if e.Kind != pack.KindPrediction {
			continue
		}
		t.Run(e.ID, func(t *testing.T) {
			var ans strings.Builder
			key, err := grade.Key(ctx, e, grade.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(strings.TrimSpace(string(key)), "\n") {
				k, v, ok := strings.Cut(l, ": ")
				if !ok || strings.HasPrefix(l, "#") {
					continue
				}
				switch n, err := strconv.ParseFloat(v, 64); {
				case v == "true":
					v = "false"
				case v == "false":
					v = "true"
				case err == nil:
					v = strconv.FormatFloat(n*3+987654, 'f', -1, 64)
				default:
					v = "nothing"
				}
				ans.WriteString(k + ": " + v + "\n")
			}
			for _, student := range []grade.Options{{}, {Student: "alice", Secret: "k"}} {
				hidden, err := grade.Bytes(ctx, e, e.Answer, []byte(ans.String()), student)
				if err != nil {
					t.Fatal(err)
				}
				revealOpts := student
				revealOpts.Reveal = true
				shown, err := grade.Bytes(ctx, e, e.Answer, []byte(ans.String()), revealOpts)
				if err != nil {
					t.Fatal(err)
				}
				if shown.Error != "" || hidden.Score != 0 {
					t.Fatalf("the blind answer: %q, score %g", shown.Error, hidden.Score)
				}
				var secrets []string
				for _, c := range shown.Checks {
					if c.Expected == "" {
						t.Errorf("%s: revealed without an expected value: %+v", c.Name, c)
						continue
					}
					truth, _, tol := strings.Cut(c.Expected, " ±")
					if tol {
						secrets = append(secrets, c.Expected)
					}
					secrets = append(secrets, "is "+truth, "answer is "+truth)
					if len(truth) >= 3 {
						secrets = append(secrets, " "+truth+"\n", "\""+truth+"\"")
					}
				}
				if student.Student != "" && shown.Seed != nil {
					secrets = append(secrets, "seed "+strconv.FormatInt(*shown.Seed, 10), strconv.FormatInt(*shown.Seed, 10))
				}
				for _, format := range report.Formats {
					var out, revealed bytes.Buffer
					res := &grade.Result{Exercises: []grade.ExerciseResult{hidden}}
					if err := report.Write(&out, format, res); err != nil {
						t.Fatal(err)
					}
					for _, s := range secrets {
						if strings.Contains(out.String(), s) {
							t.Errorf("%s (%s): the output holds %q:\n%s", format, student.Student, s, out.String())
						}
					}
					report.Write(&revealed, format, &grade.Result{Exercises: []grade.ExerciseResult{shown}})
					if format == "text" && !strings.Contains(revealed.String(), secrets[0]) && !strings.Contains(revealed.String(), secrets[1]) {
						t.Errorf("--reveal does not show %q:\n%s", secrets[0], revealed.String())
					}
				}
			}
		})
	}
}
