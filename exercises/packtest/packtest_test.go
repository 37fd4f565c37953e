package packtest_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/packtest"
)

// recovery is an exercise whose second check rewards a job that never
// recovers: with restart none, recovery.time_ms is 0, which is below 10000.
const recovery = `id: rec
title: Recover quickly
kind: configuration
job: clicks
answer: settings.lab
allow: [restart]
scenario: |
  kill count[1] at 300
  run 3000
checks:
  - name: running at the end
    expect: job.state == running
    points: 2
  - name: recovers quickly
    expect: recovery.time_ms < 10000
`

func load(t *testing.T, exercise, tests string) *pack.Exercise {
	t.Helper()
	fsys := fstest.MapFS{
		"rec/exercise.yaml":          {Data: []byte(exercise)},
		"rec/README.md":              {Data: []byte("task")},
		"rec/settings.lab":           {Data: []byte("set restart none\n")},
		"rec/tests/reference.lab":    {Data: []byte("set restart fixed-delay attempts=3 delay=1s\n")},
		"rec/tests/none.lab":         {Data: []byte("set restart none\n")},
		"rec/tests/slow.lab":         {Data: []byte("set restart fixed-delay attempts=3 delay=30s\n")},
		"rec/tests/" + packtest.File: {Data: []byte(tests)},
	}
	p, err := pack.Load(fsys, "pack")
	if err != nil {
		t.Fatal(err)
	}
	return p.Exercises[0]
}

const tests = `- answer: reference.lab
  score: full
- answer: none.lab
  score: 0
- answer: slow.lab
  score: [2, 3]
`

// TestACheckThatRewardsAWrongAnswerFails: the check is named, under every
// seed; fixed, the pack passes.
func TestACheckThatRewardsAWrongAnswerFails(t *testing.T) {
	ctx := context.Background()
	res, err := packtest.Exercise(ctx, load(t, recovery, tests), 2)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answers != 3 || len(res.Seeds) != 2 || len(res.Off) != 2 {
		t.Fatalf("result %+v", res)
	}
	for _, o := range res.Off {
		if !strings.Contains(o, "pack/rec/tests/none.lab under seed") || !strings.HasSuffix(o, `scored 1 of 3, want 0; the checks that gave it points: "recovers quickly"`) {
			t.Errorf("off: %s", o)
		}
	}
	fixed := strings.Replace(recovery, "recovery.time_ms < 10000", "recovery.time_ms < 10000\n  - name: recovered\n    expect: events.restarts >= 1", 1)
	fixed = strings.Replace(fixed, "    expect: recovery.time_ms < 10000\n", "    expect: recovery.time_ms < 10000\n    points: 0.5\n", 1)
	res, err = packtest.Exercise(ctx, load(t, fixed, strings.Replace(tests, "score: 0\n", "score: [0, 0.5]\n", 1)), 2)
	if err != nil || len(res.Off) != 0 {
		t.Errorf("fixed: %+v, %v", res, err)
	}
	// A reference that scores less than full marks names the checks that
	// failed it.
	res, err = packtest.Exercise(ctx, load(t, recovery, "- answer: none.lab\n  score: full\n"), 1)
	if err != nil || len(res.Off) != 1 || !strings.Contains(res.Off[0], `want full marks (3); the checks that failed it: "running at the end" (expected job.state == running`) {
		t.Errorf("a wrong reference: %+v, %v", res, err)
	}
}

func TestBadTestsFile(t *testing.T) {
	for tests, want := range map[string]string{
		"- answer: gone.lab\n  score: 0\n":        "pack/rec/tests/tests.yaml:1:11: answer: cannot read pack/rec/tests/gone.lab",
		"- answer: none.lab\n  score: lots\n":     "pack/rec/tests/tests.yaml:2:10: score: expected full, a number of points or a range",
		"- answer: none.lab\n  score: [3, 1]\n":   "with the lower end first",
		"- answer: ../settings.lab\n  score: 0\n": "without directories",
		"- answer: none.lab\n":                    "pack/rec/tests/tests.yaml:1:3: a test needs score",
		"- answer: none.lab\n  scor: 1\n":         `unknown key "scor"`,
	} {
		_, err := packtest.Exercise(context.Background(), load(t, recovery, tests), 1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", tests, err, want)
		}
	}
}
