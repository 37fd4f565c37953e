package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/watch"
)

func TestExerciseList(t *testing.T) {
	isolate(t)
	r := streamlab(t, "", "exercise", "list")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "ID ") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, e := range exercises.List() {
		if !strings.Contains(r.stdout, e.ID) || !strings.Contains(r.stdout, e.Title) {
			t.Errorf("list lacks %s", e.ID)
		}
	}
}

func TestExerciseShow(t *testing.T) {
	isolate(t)
	r := streamlab(t, "", "exercise", "show", "restart-strategy")
	for _, want := range []string{"restart-strategy — A restart strategy", "kind        configuration", "may set     restart",
		"suppressed by", "Scenario:\n    # Exactly-once", "kill count[1] at 1200", "Checks:", "(job.state == running)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "attempts=4") || r.code != 0 {
		t.Errorf("show reveals a hidden check, or exit %d:\n%s", r.code, r.stdout)
	}
	if r := streamlab(t, "", "exercise", "show", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, `no such exercise "nosuch"`) {
		t.Errorf("unknown: exit %d, %s", r.code, r.stderr)
	}
}

func TestExerciseStart(t *testing.T) {
	isolate(t)
	if r := streamlab(t, "", "exercise", "start", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, `no such exercise "nosuch"`) {
		t.Errorf("unknown: exit %d, %s", r.code, r.stderr)
	}
	// A known exercise goes on to the terminal lab, which needs a terminal.
	if r := streamlab(t, "", "exercise", "start", "upstream-backup"); r.code != 2 || !strings.Contains(r.stderr, "terminal") {
		t.Errorf("known: exit %d, %s", r.code, r.stderr)
	}
}

func TestExerciseLint(t *testing.T) {
	isolate(t)
	if r := streamlab(t, "", "exercise", "lint"); r.code != 0 || r.stdout != "17 exercises checked, with a dry run each: no problems found\n" {
		t.Errorf("built-in pack: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	good := writePack(t, "ok", `id: ok
title: t
kind: script
job: passthrough
answer: a.lab
checks:
  - name: ran
    expect: source.records >= 100
  - name: a node failed
    expect: events.kills >= 1
    points: 4
`, "a.lab", "run 10\n")
	if r := streamlab(t, "", "exercise", "lint", good); r.code != 0 {
		t.Errorf("good pack: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	bad := writePack(t, "bad", "id: bad\ntitle: t\nkind: script\nanswer: a.lab\nchecks:\n  - name: x\n    expect: sink.lots > 0\n", "a.lab", "run 10\n")
	r := streamlab(t, "", "exercise", "lint", good, bad)
	want := filepath.Join(bad, "bad", "exercise.yaml") + `:7:13: expect: unknown report field "sink.lots"`
	if r.code != 1 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stderr, "1 problem(s)") {
		t.Errorf("bad pack: exit %d\nstdout %s\nstderr %s\nwant %s", r.code, r.stdout, r.stderr, want)
	}
	if r := streamlab(t, "", "exercise", "lint", filepath.Join(bad, "missing")); r.code != 2 {
		t.Errorf("missing dir: exit %d", r.code)
	}
}

func TestExerciseInit(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	r := streamlab(t, "", "exercise", "init", "--dir", dir, "late-data", "upstream-backup")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range []string{"late-data/answers.yaml", "late-data/README.md", "upstream-backup/duplicates.lab"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("init did not write %s", f)
		}
	}
	if r := streamlab(t, "", "exercise", "init", "--dir", dir, "late-data"); r.code != 2 || !strings.Contains(r.stderr, "--force") {
		t.Errorf("overwrite: exit %d, %s", r.code, r.stderr)
	}
	if r := streamlab(t, "", "exercise", "init", "--dir", dir, "--force", "late-data"); r.code != 0 {
		t.Errorf("--force: exit %d, %s", r.code, r.stderr)
	}
	// The starters grade: the layout is the one grade reads.
	if r := streamlab(t, "", "grade", "--answers", dir, "late-data", "upstream-backup"); r.code != 1 || !strings.Contains(r.stdout, "no answer") {
		t.Errorf("grading the starters: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestExerciseInitCopiesTheJobAndScenario: a job-file exercise's starter
// has its job and a scenario that runs it as the grader does; a
// prediction's has no scenario, and a pack's tests are never copied.
func TestExerciseInitCopiesTheJobAndScenario(t *testing.T) {
	isolate(t)
	pk := writePack(t, "build", "id: build\ntitle: t\nkind: script\njob: job.yaml\nanswer: a.lab\nscenario: |\n  set mode append\nchecks:\n  - name: ran\n    expect: source.records >= 100\n",
		"a.lab", "run 10\n", "job.yaml", "name: mine\noperators:\n  - name: p\n    kind: parse\n",
		"tests/tests.yaml", "- answer: ref.lab\n  score: full\n", "tests/ref.lab", "run 100\n")
	dir := t.TempDir()
	if r := streamlab(t, "", "exercise", "init", "--pack", pk, "--dir", dir); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range []string{"README.md", "a.lab", "job.yaml", "scenario.lab"} {
		if _, err := os.Stat(filepath.Join(dir, "build", f)); err != nil {
			t.Errorf("init did not write %s", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "tests")); err == nil {
		t.Error("init copied the pack's tests")
	}
	sc, _ := os.ReadFile(filepath.Join(dir, "build", "scenario.lab"))
	if !strings.Contains(string(sc), "# Try your answer: cat scenario.lab a.lab | streamlab run -\njob job.yaml\nset mode append\n") {
		t.Errorf("scenario.lab:\n%s", sc)
	}
	// The scenario and the answer run as the grader runs them.
	ans, _ := os.ReadFile(filepath.Join(dir, "build", "a.lab"))
	script := filepath.Join(dir, "build", "try.lab")
	os.WriteFile(script, append(sc, ans...), 0o644)
	if r := streamlab(t, "", "run", script); r.code != 0 || !strings.Contains(r.stdout, "job         mine") {
		t.Errorf("trying the answer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := streamlab(t, "", "exercise", "init", "--dir", dir, "late-data"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "late-data", "scenario.lab")); err == nil {
		t.Error("a prediction's scenario was copied")
	}
}

// TestExerciseStartPack: start --pack looks the exercise up in that pack.
func TestExerciseStartPack(t *testing.T) {
	isolate(t)
	pk := writePack(t, "mine", "id: mine\ntitle: t\nkind: script\njob: passthrough\nanswer: a.lab\nchecks:\n  - name: ran\n    expect: source.records >= 100\n", "a.lab", "run 10\n")
	if r := streamlab(t, "", "exercise", "start", "--pack", pk, "nosuch"); r.code != 2 || !strings.Contains(r.stderr, `no such exercise "nosuch"`) || !strings.Contains(r.stderr, "it has mine") {
		t.Errorf("unknown: exit %d, %s", r.code, r.stderr)
	}
	// Known in the pack: it gets as far as the terminal, which tests lack.
	if r := streamlab(t, "", "exercise", "start", "--pack", pk, "mine"); r.code != 2 || !strings.Contains(r.stderr, "terminal") {
		t.Errorf("known: exit %d, %s", r.code, r.stderr)
	}
}

func TestExerciseWatch(t *testing.T) {
	isolate(t)
	c, err := newCLI(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c.stdout = &out
	dir := t.TempDir()
	ex, err := exercises.Lookup("upstream-backup")
	if err != nil {
		t.Fatal(err)
	}
	answerFile := filepath.Join(dir, "duplicates.lab")
	os.WriteFile(answerFile, []byte("run 2000\n"), 0o644)

	// The fake clock of saves: the watcher sees a change when it moves.
	var version atomic.Int64
	stat := func(p string) watch.Stamp {
		return watch.Stamp{ModTime: time.Unix(version.Load(), 0), Exists: true}
	}
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.watch(ctx, ticks, []*pack.Exercise{ex}, dir, grade.Options{}, stat) }()
	ticks <- time.Time{} // the first grade is done once the watcher takes a tick
	os.WriteFile(answerFile, []byte("kill source at 1200\nrun 3000\n"), 0o644)
	version.Store(1)
	ticks <- time.Time{}
	ticks <- time.Time{} // the second grade is done
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if n := strings.Count(text, "exercise "); n != 2 {
		t.Errorf("%d reports, want 2:\n%s", n, text)
	}
	if !strings.Contains(text, "upstream-backup  script  2/14") || !strings.Contains(text, "== "+answerFile+" changed") ||
		!strings.Contains(text, "upstream-backup  script  14/14    pass") {
		t.Errorf("watch output:\n%s", text)
	}
}

// TestExerciseTest: a pack's wrong answer that a check rewards fails
// exercise test, naming the check; as expected, it passes.
func TestExerciseTest(t *testing.T) {
	isolate(t)
	dir := writePack(t, "rec", `id: rec
title: t
kind: configuration
job: clicks
answer: settings.lab
allow: [restart]
scenario: |
  kill count[1] at 300
  run 3000
checks:
  - name: running
    expect: job.state == running
  - name: recovers quickly
    expect: recovery.time_ms < 10000
`, "settings.lab", "set restart none\n", "tests/tests.yaml", "- answer: ref.lab\n  score: full\n- answer: none.lab\n  score: 0\n",
		"tests/ref.lab", "set restart fixed-delay attempts=3 delay=1s\n", "tests/none.lab", "set restart none\n")
	r := streamlab(t, "", "exercise", "test", "--pack", dir, "--seeds", "2")
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL  rec: 2 answers under seeds 1, 2\n") ||
		!strings.Contains(r.stdout, `none.lab under seed 2 scored 1 of 2, want 0; the checks that gave it points: "recovers quickly"`) ||
		!strings.HasSuffix(r.stdout, "1 exercises, 2 stored answers, under 2 seeds: 2 scores off\n") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile(filepath.Join(dir, "rec", "tests", "tests.yaml"), []byte("- answer: ref.lab\n  score: full\n- answer: none.lab\n  score: [0, 1]\n"), 0o644)
	if r := streamlab(t, "", "exercise", "test", "--pack", dir); r.code != 0 || !strings.HasSuffix(r.stdout, "under 3 seeds: every score as expected\n") {
		t.Errorf("as expected: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile(filepath.Join(dir, "rec", "tests", "tests.yaml"), []byte("- answer: ref.lab\n  score: lots\n"), 0o644)
	if r := streamlab(t, "", "exercise", "test", "--pack", dir); r.code != 2 || !strings.Contains(r.stderr, "tests.yaml:2:10: score:") {
		t.Errorf("bad tests.yaml: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
