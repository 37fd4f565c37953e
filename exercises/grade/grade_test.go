package grade_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

// files of a small pack: a configuration, a prediction and a script.
var files = map[string]string{
	"conf/exercise.yaml": `id: conf
title: No loss after a failure
kind: configuration
job: passthrough
seed: 3
answer: settings.lab
allow: [semantics]
scenario: |
  set mode append
  kill map at 300
  run 1000
checks:
  - name: nothing lost
    expect: sink.lost == 0
    points: 2
  - name: upstream backup
    expect: config.ha == upstream-backup
    hint: pick the semantics
  - name: secret
    expect: recovery.failures == 1
    visibility: hidden
`,
	"conf/README.md":    "task",
	"conf/settings.lab": "set semantics at-most-once\n",
	"pred/exercise.yaml": `id: pred
title: Predict
kind: prediction
job: passthrough
seed: 3
answer: answers.yaml
scenario: |
  set semantics at-most-once
  set restart exponential-delay
  kill map at 300
  run 1000
checks:
  - name: lost
    answer: lost
    field: sink.lost
    tolerance: 10%
  - name: state
    answer: state
    field: job.state
    choices: [running, failed]
  - name: mode
    answer: mode
    correct: append
`,
	"pred/README.md":    "task",
	"pred/answers.yaml": "lost:\nstate:\nmode:\n",
	"scr/exercise.yaml": `id: scr
title: Script
kind: script
job: passthrough
seed: 3
time_limit: 300ms
answer: a.lab
scenario: set semantics at-least-once
checks:
  - name: ran
    expect: source.records >= 500
`,
	"scr/README.md": "task",
	"scr/a.lab":     "run 10\n",
}

func testPack(t testing.TB, edit func(map[string]string)) *pack.Pack {
	t.Helper()
	fsys := fstest.MapFS{}
	m := map[string]string{}
	for k, v := range files {
		m[k] = v
	}
	if edit != nil {
		edit(m)
	}
	for k, v := range m {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	p, err := pack.Load(fsys, "pack")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func lookup(t testing.TB, p *pack.Pack, id string) *pack.Exercise {
	t.Helper()
	e, err := p.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestConfigurationPartialCredit(t *testing.T) {
	ex := lookup(t, testPack(t, nil), "conf")
	ctx := context.Background()
	wrong, err := grade.Bytes(ctx, ex, "settings.lab", []byte("set semantics at-most-once\n"), grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if wrong.Passed || wrong.Score != 1 || wrong.MaxScore != 4 || wrong.Error != "" || wrong.Seed == nil || *wrong.Seed != 3 || wrong.Seeds != 3 {
		t.Errorf("at-most-once: %+v", wrong)
	}
	if c := wrong.Checks[1]; c.Passed || c.Hint != "pick the semantics" || !strings.Contains(c.Message, "config.ha is none") {
		t.Errorf("failed check: %+v", c)
	}
	right, err := grade.Bytes(ctx, ex, "settings.lab", []byte("set semantics at-least-once\n"), grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !right.Passed || right.Score != 4 {
		t.Errorf("at-least-once: %+v", right)
	}
}

func TestBrokenAnswerScoresZero(t *testing.T) {
	ex := lookup(t, testPack(t, nil), "conf")
	for data, want := range map[string]string{
		"set semantics at-least-once\nrun 5\n": "settings.lab:2:1: only set lines",
		"set semantics sometimes\n":            "settings.lab:1:15: unknown semantics",
	} {
		r, err := grade.Bytes(context.Background(), ex, "settings.lab", []byte(data), grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Score != 0 || r.Passed || !strings.Contains(r.Error, want) {
			t.Errorf("%q: score %g, error %q; want 0 and %q", data, r.Score, r.Error, want)
		}
		for _, c := range r.Checks {
			if c.Visibility == pack.Hidden {
				if c.Passed || c.Message != "hidden check 1: fail" {
					t.Errorf("%q: hidden check %+v", data, c)
				}
				continue
			}
			if c.Passed || !strings.Contains(c.Message, want) {
				t.Errorf("%q: check %+v", data, c)
			}
		}
	}
}

func TestPrediction(t *testing.T) {
	ex := lookup(t, testPack(t, nil), "pred")
	ctx := context.Background()
	key, err := grade.Key(ctx, ex, grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := grade.Bytes(ctx, ex, "answers.yaml", key, grade.Options{})
	if err != nil || !r.Passed {
		t.Fatalf("the key scores %+v, %v\nkey:\n%s", r, err, key)
	}
	var lost float64
	for _, l := range strings.Split(string(key), "\n") {
		if v, ok := strings.CutPrefix(l, "lost: "); ok {
			json.Unmarshal([]byte(v), &lost)
		}
	}
	if lost == 0 {
		t.Fatalf("gap recovery lost nothing? key:\n%s", key)
	}
	// Within the 10% tolerance, and outside it.
	for _, tc := range []struct {
		lost float64
		pass bool
	}{{lost * 0.95, true}, {lost * 1.09, true}, {lost * 0.85, false}, {0, false}} {
		data := []byte(strings.Join([]string{"lost: " + jsonNum(tc.lost), "state: running", "mode: append"}, "\n"))
		r, err := grade.Bytes(ctx, ex, "answers.yaml", data, grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Checks[0].Passed != tc.pass {
			t.Errorf("lost %g (right %g): passed %v, want %v: %s", tc.lost, lost, r.Checks[0].Passed, tc.pass, r.Checks[0].Message)
		}
	}
	// No answer fails that check only.
	r, _ = grade.Bytes(ctx, ex, "answers.yaml", []byte("state: running\nmode: append\n"), grade.Options{})
	if r.Error != "" || r.Checks[0].Passed || !r.Checks[1].Passed || !strings.Contains(r.Checks[0].Message, "no answer") {
		t.Errorf("missing answer: %+v", r)
	}
	// A wrong choice.
	r, _ = grade.Bytes(ctx, ex, "answers.yaml", []byte("mode: update\n"), grade.Options{})
	if c := r.Checks[2]; c.Passed || c.Message != "mode: answers.yaml:1:7 answered update: not the right answer" || c.Expected != "" {
		t.Errorf("wrong choice: %+v", c)
	}
	r, _ = grade.Bytes(ctx, ex, "answers.yaml", []byte("mode: update\n"), grade.Options{Reveal: true})
	if c := r.Checks[2]; c.Passed || !strings.Contains(c.Message, "answered update: not the right answer; the right answer is append") || c.Expected != "append" {
		t.Errorf("wrong choice, revealed: %+v", c)
	}
	// A wrong number says it is wrong, not which way, and nothing of the
	// answer (feedback: direction is tried in boundary_test.go).
	for _, tc := range []struct {
		lost float64
		why  string
	}{{lost * 2, ": wrong, outside the tolerance of 10%"}, {lost / 2, ": wrong, outside the tolerance of 10%"}} {
		r, _ = grade.Bytes(ctx, ex, "answers.yaml", []byte("lost: "+jsonNum(tc.lost)+"\n"), grade.Options{})
		c := r.Checks[0]
		if !strings.HasSuffix(c.Message, tc.why) || strings.Contains(c.Message, jsonNum(lost)) || c.Expected != "" {
			t.Errorf("lost %g: %+v", tc.lost, c)
		}
	}
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func TestSeedChangesThePrediction(t *testing.T) {
	ex := lookup(t, testPack(t, func(m map[string]string) {
		m["pred/exercise.yaml"] = strings.Replace(m["pred/exercise.yaml"], "    tolerance: 10%\n", "", 1)
	}), "pred")
	ctx := context.Background()
	key, err := grade.Key(ctx, ex, grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(99)
	r, err := grade.Bytes(ctx, ex, "answers.yaml", key, grade.Options{Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	if *r.Seed != 99 || r.Checks[0].Passed {
		t.Errorf("seed 3's answer under seed 99: %+v", r)
	}
}

// TestBudget: an answer that does too much fails at the line that went
// over the exercise's budget, whether it admits too many records at once,
// in a run by time, or takes too many steps; within it, it passes.
func TestBudget(t *testing.T) {
	ex := lookup(t, testPack(t, func(m map[string]string) {
		m["scr/exercise.yaml"] = strings.Replace(m["scr/exercise.yaml"], "time_limit: 300ms\n", "budget:\n  records: 5000\n  steps: 40000\n", 1)
	}), "scr")
	if ex.Budget != (pack.Budget{Records: 5000, Steps: 40000, WindowUpdates: pack.DefaultBudgetWindowUpdates, Rows: pack.DefaultBudgetRows,
		Timers: pack.DefaultBudgetTimers, StateBytes: pack.DefaultBudgetStateBytes, CheckpointBytes: pack.DefaultBudgetCheckpointBytes}) || ex.TimeLimit != pack.DefaultTimeLimit {
		t.Fatalf("budget %+v, guard %s", ex.Budget, ex.TimeLimit)
	}
	ctx := context.Background()
	for data, want := range map[string]string{
		"run 600\nrun 10000000\n": "a.lab:2:1: over the exercise's budget of 5000 records: this run would admit 10000600 in all",
		"run 600\nrun 10h\n":      "a.lab:2:1: over the exercise's budget of 5000 records: this run admitted",
		"run 600\nstep 100000\n":  "a.lab:2:1: over the exercise's budget of 40000 scheduler steps",
	} {
		r, err := grade.Bytes(ctx, ex, "a.lab", []byte(data), grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Passed || r.Score != 0 || !strings.Contains(r.Error, want) {
			t.Errorf("%q: %+v; want %q", data, r, want)
		}
	}
	r, err := grade.Bytes(ctx, ex, "a.lab", []byte("run 600\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("within the budget: %+v, %v", r, err)
	}
	// Options.Budget replaces the exercise's.
	r, err = grade.Bytes(ctx, ex, "a.lab", []byte("run 600\n"), grade.Options{Budget: pack.Budget{Records: 100}})
	if err != nil || r.Passed || !strings.Contains(r.Error, "budget of 100 records") {
		t.Errorf("Options.Budget: %+v, %v", r, err)
	}
}

// TestGuardIsAnInternalError: the wall-time guard (time_limit) stopping a
// run is the grader's error, exit 2, never a student's zero.
func TestGuardIsAnInternalError(t *testing.T) {
	ex := lookup(t, testPack(t, nil), "scr")
	if ex.TimeLimit != 300*time.Millisecond || ex.Budget.Records != pack.DefaultBudgetRecords {
		t.Fatalf("time_limit read as the guard: %s, %+v", ex.TimeLimit, ex.Budget)
	}
	runaway := []byte(strings.Repeat("run 100000\n", 5))
	start := time.Now()
	r, err := grade.Bytes(context.Background(), ex, "a.lab", runaway, grade.Options{TimeLimit: time.Nanosecond})
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("a 1ns guard took %s", took)
	}
	if !errors.Is(err, grade.ErrGuard) || !strings.Contains(err.Error(), "wall-time guard of 1ns") || !strings.Contains(err.Error(), " at ") {
		t.Errorf("guard: %+v, %v", r, err)
	}
}

// TestSameScoreUnderLoad: a heavy answer graded alone and four at once
// gets the same result, byte for byte: the budget counts work, not time.
func TestSameScoreUnderLoad(t *testing.T) {
	ex := lookup(t, testPack(t, func(m map[string]string) {
		m["scr/exercise.yaml"] = strings.Replace(m["scr/exercise.yaml"], "time_limit: 300ms\n", "budget:\n  records: 60000\n  steps: 150000\n", 1)
	}), "scr")
	ctx := context.Background()
	answers := []string{"kill map at 20000\nrun 30000\n", "run 30000\nrun 30000\n"}
	alone := map[string]string{}
	for _, a := range answers {
		r, err := grade.Bytes(ctx, ex, "a.lab", []byte(a), grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		alone[a] = string(b)
	}
	if !strings.Contains(alone[answers[0]], `"passed":true`) || !strings.Contains(alone[answers[1]], "budget of 150000 scheduler steps") {
		t.Fatalf("alone: %v", alone)
	}
	type out struct{ answer, json string }
	results := make(chan out, 8)
	for i := range 8 {
		a := answers[i%2]
		go func() {
			r, err := grade.Bytes(ctx, ex, "a.lab", []byte(a), grade.Options{})
			if err != nil {
				results <- out{a, err.Error()}
				return
			}
			b, _ := json.Marshal(r)
			results <- out{a, string(b)}
		}()
	}
	for range 8 {
		o := <-results
		if o.json != alone[o.answer] {
			t.Errorf("%q under load:\n%s\nalone:\n%s", o.answer, o.json, alone[o.answer])
		}
	}
}

func TestCancelStopsGrading(t *testing.T) {
	ex := lookup(t, testPack(t, nil), "scr")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := grade.Bytes(ctx, ex, "a.lab", []byte("run 100\n"), grade.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBrokenPack(t *testing.T) {
	p := testPack(t, func(m map[string]string) {
		m["pred/exercise.yaml"] = strings.Replace(m["pred/exercise.yaml"], "kill map at 300", "kill mapper at 300", 1)
	})
	_, err := grade.Bytes(context.Background(), lookup(t, p, "pred"), "answers.yaml", []byte("mode: append\n"), grade.Options{})
	var pe *grade.PackError
	if !errors.Is(err, grade.ErrBrokenPack) || !errors.As(err, &pe) || pe.ID != "pred" ||
		!strings.Contains(err.Error(), "pack/pred/exercise.yaml:10:8:") {
		t.Errorf("broken scenario: %v", err)
	}
}

func TestAllGoesOnAfterABrokenAnswer(t *testing.T) {
	p := testPack(t, nil)
	dir := t.TempDir()
	write := func(name, data string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	write("conf/settings.lab", "set semantics at-least-once\n")
	write("pred/answers.yaml", "lost: [\n")
	write("scr/a.lab", "run 600\n")
	res, err := grade.All(context.Background(), p.Exercises, dir, grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Exercises) != 3 || res.Passed || res.MaxScore != 4+3+1 || res.Score != 4+1 {
		t.Fatalf("result: %+v", res)
	}
	pred := res.Exercises[1]
	if pred.ID != "pred" || pred.Score != 0 || !strings.Contains(pred.Error, filepath.Join(dir, "pred", "answers.yaml")+":1:") {
		t.Errorf("broken answer: %+v", pred)
	}
	os.Remove(filepath.Join(dir, "scr", "a.lab"))
	res, _ = grade.All(context.Background(), p.Exercises, dir, grade.Options{})
	if scr := res.Exercises[2]; !strings.Contains(scr.Error, "missing") {
		t.Errorf("missing answer: %+v", scr)
	}
}

func TestDeterministic(t *testing.T) {
	p := testPack(t, nil)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "settings.lab"), []byte("set semantics at-least-once\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "answers.yaml"), []byte("lost: 100\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.lab"), []byte("run 600\n"), 0o644)
	var first []byte
	for i := range 3 {
		res, err := grade.All(context.Background(), p.Exercises, dir, grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, b)
		}
	}
}

func TestJobFiles(t *testing.T) {
	job := "name: mine\noperators:\n  - name: map\n    kind: map\n"
	p := testPack(t, func(m map[string]string) {
		// The exercise's own job from a file of the (embedded) pack.
		m["scr/exercise.yaml"] = strings.Replace(m["scr/exercise.yaml"], "job: passthrough", "job: job.yaml", 1)
		m["scr/job.yaml"] = job
		// A configuration whose answer is a job file.
		m["conf/exercise.yaml"] = strings.NewReplacer("answer: settings.lab", "answer: job.yaml", "allow: [semantics]\n", "",
			"  set mode append\n", "  set mode append\n  set semantics at-least-once\n").Replace(m["conf/exercise.yaml"])
		m["conf/job.yaml"] = job
	})
	ctx := context.Background()
	r, err := grade.Bytes(ctx, lookup(t, p, "scr"), "a.lab", []byte("run 600\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("embedded job file: %+v, %v", r, err)
	}
	conf := lookup(t, p, "conf")
	r, err = grade.Bytes(ctx, conf, "job.yaml", []byte(job), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("job file answer: %+v, %v", r, err)
	}
	// The scenario kills map: a job without it fails the answer, not the pack.
	r, err = grade.Bytes(ctx, conf, "job.yaml", []byte("name: mine\noperators:\n  - name: m\n    kind: map\n"), grade.Options{})
	if err != nil || r.Score != 0 || !strings.HasPrefix(r.Error, `job.yaml: this job cannot run the exercise's scenario: no such node "map"`) ||
		!strings.Contains(r.Error, "(in the exercise's scenario, pack/conf/exercise.yaml:") || r.At == nil || r.At.File != "job.yaml" {
		t.Errorf("job without the node: %+v, %v", r, err)
	}
}

// TestStudentSeeds: the secret and a student's ID give that student's own
// seed, the same every time and different from another student's; it is
// not shown unless revealed.
func TestStudentSeeds(t *testing.T) {
	ex := lookup(t, testPack(t, func(m map[string]string) {
		m["pred/exercise.yaml"] = strings.Replace(m["pred/exercise.yaml"], "    tolerance: 10%\n", "", 1)
	}), "pred")
	ctx := context.Background()
	a := grade.Options{Student: "alice", Secret: "s3cret"}
	b := grade.Options{Student: "bob", Secret: "s3cret"}
	first := grade.StudentSeed("s3cret", "alice", "pred")
	for range 3 {
		if grade.StudentSeed("s3cret", "alice", "pred") != first || first <= 0 {
			t.Error("the same student's seed differs, or is not positive")
		}
	}
	if grade.StudentSeed("s3cret", "alice", "pred") == grade.StudentSeed("s3cret", "bob", "pred") ||
		grade.StudentSeed("s3cret", "alice", "pred") == grade.StudentSeed("other", "alice", "pred") ||
		grade.StudentSeed("s3cret", "alice", "pred") == grade.StudentSeed("s3cret", "alice", "conf") {
		t.Error("seeds do not depend on the secret, the student and the exercise")
	}
	keyA, err := grade.Key(ctx, ex, a)
	if err != nil {
		t.Fatal(err)
	}
	keyA2, _ := grade.Key(ctx, ex, a)
	keyB, _ := grade.Key(ctx, ex, b)
	if string(keyA) != string(keyA2) || string(keyA) == string(keyB) {
		t.Errorf("keys: alice %q, again %q, bob %q", keyA, keyA2, keyB)
	}
	ra, _ := grade.Bytes(ctx, ex, "answers.yaml", keyA, a)
	rb, _ := grade.Bytes(ctx, ex, "answers.yaml", keyA, b)
	if !ra.Passed || rb.Checks[0].Passed {
		t.Errorf("alice's answers: %+v for alice, %+v for bob", ra, rb)
	}
	if ra.Seed != nil {
		t.Errorf("a student's seed is shown: %d", *ra.Seed)
	}
	b.Reveal = true
	rb, _ = grade.Bytes(ctx, ex, "answers.yaml", keyA, b)
	if rb.Seed == nil || *rb.Seed != grade.StudentSeed("s3cret", "bob", "pred") {
		t.Errorf("revealed seed: %v", rb.Seed)
	}
}

// TestHiddenChecksKeepTheirDetails: a hidden check is only its number and
// result, unless revealed.
func TestHiddenChecksKeepTheirDetails(t *testing.T) {
	ex := lookup(t, testPack(t, nil), "conf")
	r, err := grade.Bytes(context.Background(), ex, "settings.lab", []byte("set semantics at-least-once\n"), grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := r.Checks[2]
	if h.Name != "hidden check 1" || h.Message != "hidden check 1: pass" || h.Expected != "" || h.Actual != "" || !h.Passed {
		t.Errorf("hidden check: %+v", h)
	}
	r, _ = grade.Bytes(context.Background(), ex, "settings.lab", []byte("set semantics at-least-once\n"), grade.Options{Reveal: true})
	if h := r.Checks[2]; h.Name != "secret" || h.Expected != "recovery.failures == 1" {
		t.Errorf("revealed hidden check: %+v", h)
	}
}

// TestSeveralSeeds: a configuration is graded under the exercise's seeds,
// and a check scores only if it holds under each.
func TestSeveralSeeds(t *testing.T) {
	p := testPack(t, func(m map[string]string) {
		m["scr/exercise.yaml"] = strings.NewReplacer("seed: 3\n", "seed: 3\nseeds: 4\n", "time_limit: 300ms\n", "").Replace(m["scr/exercise.yaml"]) +
			"  - name: killed map\n    expect: events.killed_nodes == map\n"
	})
	ex := lookup(t, p, "scr")
	if ex.Seeds != 4 {
		t.Fatalf("seeds: %d", ex.Seeds)
	}
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte("kill map at 100\nrun 600\n"), grade.Options{})
	if err != nil || !r.Passed || r.Seeds != 4 {
		t.Errorf("kill map: %+v, %v", r, err)
	}
	r, _ = grade.Bytes(context.Background(), ex, "a.lab", []byte("kill filter at 100\nrun 600\n"), grade.Options{})
	if c := r.Checks[1]; c.Passed || !strings.Contains(c.Message, "events.killed_nodes is filter") || !strings.Contains(c.Message, "4 of the 4 seeds") {
		t.Errorf("kill filter: %+v", c)
	}
}

// TestObservedHistory: the table's write history tells update mode, which
// rewrites a window's row at every trigger, from append mode, which writes
// it once; and the event log tells which node was killed and replayed.
func TestObservedHistory(t *testing.T) {
	p := testPack(t, func(m map[string]string) {
		m["obs/exercise.yaml"] = `id: obs
title: t
kind: configuration
job: clicks
seed: 5
seeds: 1
answer: settings.lab
allow: [mode]
scenario: |
  set semantics exactly-once
  set sink table
  kill count[1] at 700
  run 3000
checks:
  - name: no rewrites
    expect: history.rewrites == 0
  - name: rows written
    expect: history.written > 0
  - name: killed
    expect: events.killed_nodes == count[1]
  - name: one kill, no job manager
    expect: events.jobmanager_kills == 0
  - name: a restart
    expect: events.restarts >= 1
`
		m["obs/README.md"] = "task"
		m["obs/settings.lab"] = "set mode update\n"
	})
	ex := lookup(t, p, "obs")
	ctx := context.Background()
	app, err := grade.Bytes(ctx, ex, "settings.lab", []byte("set mode append\n"), grade.Options{})
	if err != nil || !app.Passed {
		t.Errorf("append: %+v, %v", app, err)
	}
	upd, err := grade.Bytes(ctx, ex, "settings.lab", []byte("set mode update\n"), grade.Options{})
	if err != nil || upd.Checks[0].Passed || !strings.Contains(upd.Checks[0].Message, "history.rewrites is") || !upd.Checks[1].Passed || !upd.Checks[2].Passed {
		t.Errorf("update: %+v, %v", upd, err)
	}
}

// TestForgivingAnswers: a choice matches whatever its case and spacing, an
// answer outside the choices names them, a boolean is read in YAML's forms,
// and a bad value fails its own check only, naming its key and line.
func TestForgivingAnswers(t *testing.T) {
	ex := lookup(t, testPack(t, func(m map[string]string) {
		m["pred/exercise.yaml"] += "  - name: ha\n    answer: ha\n    correct: upstream-backup\n    choices: [none, upstream-backup, checkpoint]\n" +
			"  - name: correct\n    answer: correct\n    field: sink.correct\n"
	}), "pred")
	ctx := context.Background()
	key, err := grade.Key(ctx, ex, grade.Options{Reveal: true})
	if err != nil {
		t.Fatal(err)
	}
	correct := "False"
	if strings.Contains(string(key), "correct: true") {
		correct = "Yes"
	}
	data := strings.Replace(string(key), "state: running", "state: RUNNING", 1)
	data = strings.Replace(data, "state: failed", "state: ' Failed '", 1)
	data = strings.Replace(data, "ha: upstream-backup", "ha: Upstream Backup", 1)
	data = strings.Replace(data, "correct: true", "correct: "+correct, 1)
	data = strings.Replace(data, "correct: false", "correct: "+correct, 1)
	r, err := grade.Bytes(ctx, ex, "answers.yaml", []byte(data), grade.Options{})
	if err != nil || !r.Passed {
		t.Fatalf("forgiving forms of the key: %+v, %v\n%s", r, err, data)
	}
	r, _ = grade.Bytes(ctx, ex, "answers.yaml", []byte("ha: upstream\nlost: lots\nmode: Append\n"), grade.Options{})
	if c := r.Checks[3]; c.Passed || !strings.HasSuffix(c.Message, "not one of the choices none, upstream-backup, checkpoint") {
		t.Errorf("outside the choices: %+v", c)
	}
	if c := r.Checks[0]; c.Passed || !strings.Contains(c.Message, `answers.yaml:2:7: lost: expected a number, got string "lots"`) {
		t.Errorf("bad number: %+v", c)
	}
	if r.Error != "" || !r.Checks[2].Passed {
		t.Errorf("a bad value fails more than its own check: %+v", r)
	}
}
