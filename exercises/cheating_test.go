package exercises_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/report"
)

// The cheating suite: one class for each way a student may take the
// points without the work, or break grading for everyone. Where a test
// elsewhere already covers a case it is named here rather than copied
// (TestCheatingSuiteNamesRealTests keeps the names true); the cases
// nothing else covers follow.
var cheatingSuite = map[string][]string{
	// One answer that does too much work scores 0 with the numbers, never
	// an internal error, and never keeps the others from being graded.
	"budget and fan-out": {
		"grade:TestWindowUpdatesBudget", "grade:TestWindowUpdatesOfReplays", "grade:TestRowsBudget",
		"grade:TestTimersBudget", "grade:TestCheckpointBytesBudget", "grade:TestStateBytesBudget",
		"grade:TestOneBrokenExerciseDoesNotStopTheOthers", "cli:TestGradeClassOneHostileStudent",
		"exercises:TestCheatBudgetOnBuiltinExercises",
	},
	// Feedback cannot be used to search for a prediction's numbers.
	"search oracle": {
		"grade:TestAttemptPastTheLimit", "cli:TestGradeAttempt", "exercises:TestCheatBisection",
	},
	// One fixed answer, or another seed's answers, do not pass.
	"seed-fixed predictions": {
		"exercises:TestFixedAnswersPassUnderFewSeeds", "exercises:TestPredictionsDependOnTheSeed",
		"lint:TestFixedPredictionFlagged",
	},
	// Answers that skip the point score little.
	"trivial answers": {
		"exercises:TestTrivialAnswersScoreAtMostAFifth", "exercises:TestBlindAnswersScoreBelowHalf",
		"exercises:TestStartersDoNotPass", "grade:TestEqualToFailureFreeNeedsTheFailure",
		"lint:TestTrivialAnswersFlagged",
	},
	// Files a student hands in, or leaves where the grader reads, cannot
	// hang it, read outside the answers, or damage what is not its own.
	"files": {
		"cli:TestHostileInput", "cli:files/db-foreign-sqlite", "cli:answer/fifo", "cli:answer/link-to-file-outside",
		"cli:answer/link-to-dev-zero", "cli:files/config-fifo", "cli:files/progress-fifo",
		"cli:TestGradeOutKeepsPermissions", "untrusted:TestReadFileRefusesWhatIsNotData",
	},
	// No output format gives away a seed, the secret or an expected value,
	// nor passes a student's control characters on.
	"leaks": {
		"exercises:TestWrongPredictionsRevealNothing", "exercises:TestCheatNoSeedOrSecretInAnyFormat",
		"cli:TestGradeStudentSeeds", "report:TestClassOutputSanitisesStudentNames",
		"cli:files/escape-in-a-file-name",
	},
}

// suiteDirs are the packages the suite names, relative to this one.
var suiteDirs = map[string]string{
	"exercises": ".", "grade": "grade", "lint": "lint", "report": "report",
	"cli": "../cli", "untrusted": "../internal/untrusted",
}

// TestCheatingSuiteNamesRealTests: every test the suite names exists (a
// test function, or a case of TestHostileInput), so that a renamed or
// deleted test does not leave a class uncovered unnoticed.
func TestCheatingSuiteNamesRealTests(t *testing.T) {
	for class, names := range cheatingSuite {
		for _, name := range names {
			pkg, test, _ := strings.Cut(name, ":")
			want := "func " + test + "(t *testing.T)"
			if !strings.HasPrefix(test, "Test") {
				want = `name: "` + test + `"`
			}
			if !sourceHas(t, suiteDirs[pkg], want) {
				t.Errorf("%s: %s names %q, which is not in %s's tests", class, name, want, pkg)
			}
		}
	}
}

// sourceHas reports whether a test file in dir contains text.
func sourceHas(t *testing.T, dir, text string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests in %s: %v", dir, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(text)) {
			return true
		}
	}
	return false
}

// TestCheatBudgetOnBuiltinExercises hands a built-in recording exercise
// each answer of a few lines that once ran past the wall-time guard, or
// would: each scores 0 with the budget's reason, not an internal error.
func TestCheatBudgetOnBuiltinExercises(t *testing.T) {
	ex := lookupBuiltin(t, "failover-recording")
	for answer, reason := range map[string]string{
		"set window 1s\nset window.slide 1ms\nrun 100000\n":                                                               "window updates, the budget is",
		"set mode append\nset source.watermark 1000h\nset window 1ms\nrun 400000\n":                                       "window timers, the budget is",
		"set semantics exactly-once\nset checkpoint.interval 1\nset source.watermark 1000h\nset window 1ms\nrun 100000\n": "bytes of state into checkpoints, the budget is",
		"set filter bloom m=200000000 k=1\nrun 10\n":                                                                      "bytes of state, the budget is",
		"set mode complete\nset window 1ms\nrun 20000\n":                                                                  "rows to the sink, the budget is",
	} {
		// The guard is widened: the verdict is the budget's, counted in
		// work, and the race detector slows the engine tenfold.
		r, err := grade.Bytes(context.Background(), ex, ex.Answer, []byte(answer), grade.Options{TimeLimit: 5 * time.Minute})
		if err != nil {
			t.Fatalf("%q: an error, not a grade: %v", answer, err)
		}
		if r.Score != 0 || r.Internal || !strings.Contains(r.Error, reason) {
			t.Errorf("%q: score %g, internal %v, error %q; want 0 and %q", answer, r.Score, r.Internal, r.Error, reason)
		}
	}
}

// TestCheatBisection searches each built-in prediction's first number as
// a student would, halving the range on each submission's feedback. As
// shipped the feedback does not say which way a number is wrong, so there
// is nothing to halve on. Even with "too high / too low", the search needs
// more submissions than the exercise allows, and the submission that finds
// the number, counted (grade --attempt), is not graded.
func TestCheatBisection(t *testing.T) {
	for _, e := range builtin(t).Exercises {
		if e.Kind != pack.KindPrediction {
			continue
		}
		c, ok := firstNumber(e)
		if !ok {
			continue
		}
		t.Run(e.ID, func(t *testing.T) {
			shipped := submit(t, e, c, 1e9, 0)
			if shipped.Passed || strings.Contains(shipped.Message, "too high") || strings.Contains(shipped.Message, "too low") {
				t.Fatalf("the shipped feedback: %+v", shipped)
			}
			direction := *e
			direction.Feedback = pack.FeedbackDirection
			lo, hi := 0.0, float64(1<<24)
			for n := 1; n <= 64; n++ {
				guess := (lo + hi) / 2
				if c.Tolerance == 0 {
					guess = math.Round(guess)
				}
				cr := submit(t, &direction, c, guess, 0)
				switch {
				case cr.Passed:
					if n <= e.Attempts {
						t.Fatalf("found in %d submissions, within the %d allowed", n, e.Attempts)
					}
					if counted := submit(t, &direction, c, guess, n); counted.Passed {
						t.Errorf("submission %d of %d allowed was graded: %+v", n, e.Attempts, counted)
					}
					t.Logf("%s: found in %d submissions; %d allowed", c.Name, n, e.Attempts)
					return
				case strings.Contains(cr.Message, "too high"):
					hi = guess
				case strings.Contains(cr.Message, "too low"):
					lo = guess
				default:
					t.Fatalf("no direction: %+v", cr)
				}
			}
			t.Fatal("the search did not end")
		})
	}
}

// firstNumber is a prediction's first check judged against the engine's
// numbers.
func firstNumber(e *pack.Exercise) (pack.Check, bool) {
	for _, c := range e.Checks {
		if c.Field != "" && len(c.Choices) == 0 && c.Answer != "" && !strings.Contains(c.Field, "state") && !strings.Contains(c.Field, "correct") {
			return c, true
		}
	}
	return pack.Check{}, false
}

// submit grades a prediction answering only check c, with v, as
// submission attempt (0: not counted), and returns that check's result.
func submit(t *testing.T, e *pack.Exercise, c pack.Check, v float64, attempt int) grade.CheckResult {
	t.Helper()
	data := c.Answer + ": " + strconv.FormatFloat(v, 'g', -1, 64) + "\n"
	r, err := grade.Bytes(context.Background(), e, e.Answer, []byte(data), grade.Options{Attempt: attempt})
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range r.Checks {
		if cr.Name == c.Name {
			return cr
		}
	}
	t.Fatalf("no result for %s: %+v", c.Name, r)
	return grade.CheckResult{}
}

// TestCheatNoSeedOrSecretInAnyFormat grades every built-in exercise under
// a student's own seeds and writes every report format: neither the
// secret nor any of the student's seeds appears in any of them.
func TestCheatNoSeedOrSecretInAnyFormat(t *testing.T) {
	const secret, student = "cheat-suite-secret-51c9", "org/assignment-ada"
	exs := builtin(t).Exercises
	res, err := grade.All(context.Background(), exs, blindDir, grade.Options{Student: student, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range report.Formats {
		var out bytes.Buffer
		if err := report.Write(&out, format, res); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(out.Bytes(), []byte(secret)) {
			t.Errorf("%s shows the secret", format)
		}
		for _, e := range exs {
			if seed := strconv.FormatInt(grade.StudentSeed(secret, student, e.ID), 10); bytes.Contains(out.Bytes(), []byte(seed)) {
				t.Errorf("%s shows %s's seed %s", format, e.ID, seed)
			}
		}
	}
}

// lookupBuiltin returns a built-in exercise by ID.
func lookupBuiltin(t *testing.T, id string) *pack.Exercise {
	t.Helper()
	e, err := builtin(t).Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
