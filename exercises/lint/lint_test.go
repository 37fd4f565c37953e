package lint_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamlab/streamlab/exercises/lint"
	"github.com/streamlab/streamlab/exercises/pack"
)

func writePack(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const good = `id: good
title: Good
kind: configuration
job: passthrough
answer: settings.lab
allow: [semantics]
scenario: |
  set mode append
  kill map at 300
  run 1000
checks:
  - name: nothing lost
    expect: sink.lost == 0
`

func TestCleanPack(t *testing.T) {
	dir := writePack(t, map[string]string{
		"good/exercise.yaml": good, "good/README.md": "task", "good/settings.lab": "set semantics at-most-once\n",
	})
	fs, err := lint.Dir(context.Background(), dir)
	if err != nil || len(fs) != 0 {
		t.Errorf("clean pack: %v, %v", fs, err)
	}
}

// TestFindings: every problem of a pack, static or found by the dry run,
// with its file, line and column.
func TestFindings(t *testing.T) {
	dir := writePack(t, map[string]string{
		// The engine knows no node "mapper": only the dry run finds it.
		"node/exercise.yaml": strings.NewReplacer("id: good", "id: node", "kill map", "kill mapper").Replace(good),
		"node/README.md":     "task",
		"node/settings.lab":  "set semantics at-most-once\n",
		// A starter the engine rejects.
		"starter/exercise.yaml": strings.Replace(good, "id: good", "id: starter", 1),
		"starter/README.md":     "task",
		"starter/settings.lab":  "set semantics sometimes\n",
		// A starter that already passes.
		"easy/exercise.yaml": strings.Replace(good, "id: good", "id: easy", 1),
		"easy/README.md":     "task",
		"easy/settings.lab":  "set semantics at-least-once\n",
		// A starter that passes the checks left once the broken one is
		// put aside: that is no finding, the broken check may be what it lacks.
		"half/exercise.yaml": strings.NewReplacer("id: good", "id: half", "sink.lost == 0", "sink.lots == 0").Replace(good),
		"half/README.md":     "task",
		"half/settings.lab":  "set semantics at-least-once\n",
		// Two static problems in one file, and a missing README.
		"bad/exercise.yaml": strings.NewReplacer("id: good", "id: bad", "kind: configuration", "kind: essay", "sink.lost == 0", "sink.lots == 0").Replace(good),
		"bad/settings.lab":  "",
		// Not an exercise, but looks like one.
		"typo/README.md": "task",
	})
	fs, err := lint.Dir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, strings.TrimPrefix(f.Error(), filepath.ToSlash(dir)+"/"))
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{
		`bad/README.md: missing`,
		`bad/exercise.yaml:3:7: kind: unknown kind "essay"`,
		`bad/exercise.yaml:13:13: expect: unknown report field "sink.lots"`,
		`easy/settings.lab: the starter answer already scores full marks`,
		`node/exercise.yaml:9:8: the starter answer cannot be graded: no such node "mapper"`,
		`starter/settings.lab:1:15: the starter answer cannot be graded: unknown semantics "sometimes"`,
		`typo: the directory has a README.md but no exercise.yaml`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("findings lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "good/") {
		t.Errorf("the good exercise has findings:\n%s", text)
	}
	if strings.Contains(text, "half/settings.lab: the starter answer already scores full marks") {
		t.Errorf("a starter is said to score full marks with a broken check left out:\n%s", text)
	}
	for _, f := range fs {
		if full := strings.Contains(f.Msg, "already scores full marks"); full != errors.Is(f, lint.ErrAlreadyFull) {
			t.Errorf("%v: errors.Is(ErrAlreadyFull) = %t", f, !full)
		}
	}
}

func TestUnreadableDir(t *testing.T) {
	if _, err := lint.Dir(context.Background(), filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing directory should be an error, not a finding")
	}
}

// TestOverlay lints an instructor's overlay with its pack: its problems at
// their positions, and a dry run with its hidden checks.
func TestOverlay(t *testing.T) {
	p, err := pack.Load(fstest.MapFS{
		"ex/exercise.yaml": {Data: []byte("id: ex\ntitle: t\nkind: configuration\njob: passthrough\nanswer: settings.lab\nscenario: run 100\nchecks:\n  - name: ran\n    expect: source.records >= 100\n")},
		"ex/README.md":     {Data: []byte("task")},
		"ex/settings.lab":  {Data: []byte("set semantics at-least-once\n")},
	}, "pack")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "ex"), 0o755)
	os.WriteFile(filepath.Join(dir, "ex", "checks.yaml"), []byte("checks:\n  - name: secret\n    expect: sink.nosuch == 1\n"), 0o644)
	fs, err := lint.Overlay(context.Background(), p, dir)
	if err != nil || len(fs) != 1 || !strings.Contains(fs[0].Error(), filepath.Join(dir, "ex", "checks.yaml")+":3:13: expect: unknown report field") {
		t.Errorf("bad overlay: %v, %v", fs, err)
	}
	// A clean overlay whose hidden check the starter already passes, with
	// the visible ones: the dry run reports a starter with full marks.
	os.WriteFile(filepath.Join(dir, "ex", "checks.yaml"), []byte("checks:\n  - name: secret\n    expect: source.records >= 1\n"), 0o644)
	fs, err = lint.Overlay(context.Background(), p, dir)
	if err != nil || len(fs) != 1 || !strings.Contains(fs[0].Error(), "full") {
		t.Errorf("overlay dry run: %v, %v", fs, err)
	}
	if _, err := lint.Overlay(context.Background(), p, filepath.Join(dir, "nosuch")); err == nil {
		t.Error("a missing overlay directory is not an error")
	}
}

// TestEveryFindingInOneRun: a check with a static problem does not hide
// what only the dry run finds in the same exercise.
func TestEveryFindingInOneRun(t *testing.T) {
	bad := strings.NewReplacer("id: good", "id: both", "kill map", "kill mapper").Replace(good) +
		"  - name: typo\n    expect: sink.lots == 0\n"
	dir := writePack(t, map[string]string{"both/exercise.yaml": bad, "both/README.md": "task", "both/settings.lab": "set semantics at-most-once\n"})
	fs, err := lint.Dir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, f := range fs {
		text = append(text, f.Error())
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{`exercise.yaml:15:13: expect: unknown report field "sink.lots"`, `exercise.yaml:9:8: the starter answer cannot be graded: no such node "mapper"`} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
}

// TestJobFileStarterMayLackTheScenarioNode: the scenario kills a node the
// student is to add; the starter's lint passes, and the reference answer,
// when the pack has one, must have it.
func TestJobFileStarterMayLackTheScenarioNode(t *testing.T) {
	exercise := "id: build\ntitle: t\nkind: configuration\njob: job.yaml\nanswer: job.yaml\nscenario: |\n  kill count at 100\n  run 500\nchecks:\n  - name: ran\n    expect: job.state == running\n"
	starter := "name: mine\noperators:\n  - name: p\n    kind: parse\n"
	reference := starter + "  - name: count\n    kind: window-count\n    window: 10s\n"
	files := map[string]string{"build/exercise.yaml": exercise, "build/README.md": "task", "build/job.yaml": starter}
	fs, err := lint.Dir(context.Background(), writePack(t, files))
	if err != nil || len(fs) != 0 {
		t.Errorf("starter without the node: %v, %v", fs, err)
	}
	files["build/tests/tests.yaml"] = "- answer: ref.yaml\n  score: full\n"
	files["build/tests/ref.yaml"] = reference
	fs, err = lint.Dir(context.Background(), writePack(t, files))
	if err != nil || len(fs) != 0 {
		t.Errorf("with a reference that has it: %v, %v", fs, err)
	}
	files["build/tests/ref.yaml"] = starter
	fs, err = lint.Dir(context.Background(), writePack(t, files))
	if err != nil || len(fs) != 1 || !strings.Contains(fs[0].Error(), "build/tests/ref.yaml: the reference answer cannot be graded") {
		t.Errorf("with a reference that lacks it: %v, %v", fs, err)
	}
}

func TestSuggestsABudget(t *testing.T) {
	old := strings.Replace(good, "answer: settings.lab", "time_limit: 10s\nanswer: settings.lab", 1)
	p, err := pack.Load(fstest.MapFS{"good/exercise.yaml": {Data: []byte(old)}, "good/README.md": {Data: []byte("task")}, "good/settings.lab": {Data: []byte("")}}, "pack")
	if err != nil {
		t.Fatal(err)
	}
	s := lint.Suggestions(p)
	if len(s) != 1 || !strings.Contains(s[0], "pack/good/exercise.yaml: time_limit 10s is now only a wall-time guard") {
		t.Errorf("suggestions: %q", s)
	}
}

// TestTrivialAnswersFlagged: lint grades the answers that skip the point
// (the empty file, the starter, a run that fails nothing) and flags, at
// the check, what they pass when they score above a fifth of the points.
func TestTrivialAnswersFlagged(t *testing.T) {
	ex := `id: weak
title: Weak
kind: script
job: passthrough
answer: a.lab
scenario: set semantics at-least-once
checks:
  - name: nothing lost
    expect: sink.lost == 0
    points: 3
  - name: a failure
    expect: recovery.failures >= 1
`
	dir := writePack(t, map[string]string{"weak/exercise.yaml": ex, "weak/README.md": "task", "weak/a.lab": "# kill a node\n"})
	fs, err := lint.Dir(context.Background(), dir)
	if err != nil || len(fs) != 1 {
		t.Fatalf("findings %v, %v", fs, err)
	}
	f := fs[0]
	want := `check "nothing lost" is passed by the empty answer (which scores 75% of the points) and the starter (which scores 75% of the points) and the starter with a run that fails nothing (which scores 75% of the points)`
	if f.Line != 8 || f.Col != 5 || !strings.HasPrefix(f.Msg, want) {
		t.Errorf("%v\nwant at 8:5 %q", f, want)
	}
	// With the points on the subject, nothing is flagged.
	dir = writePack(t, map[string]string{"weak/exercise.yaml": strings.Replace(ex, "points: 3", "points: 1\n  - name: b\n    expect: events.kills >= 1\n    points: 3", 1),
		"weak/README.md": "task", "weak/a.lab": "# kill a node\n"})
	if fs, err := lint.Dir(context.Background(), dir); err != nil || len(fs) != 0 {
		t.Errorf("rebalanced: %v, %v", fs, err)
	}
	if got := len(lint.TrivialAnswers(&pack.Exercise{Kind: pack.KindPrediction})); got != 0 {
		t.Errorf("a prediction has %d trivial answers", got)
	}
}

// TestFixedPredictionFlagged: a prediction one fixed answer passes under
// most seeds is flagged at its check, unless it says seed_free.
func TestFixedPredictionFlagged(t *testing.T) {
	ex := `id: fixed
title: Fixed
kind: prediction
job: passthrough
answer: answers.yaml
scenario: |
  set filter bloom m=20000 k=4
  run 300
checks:
  - name: bits
    answer: bits
    field: filter.m
`
	files := map[string]string{"fixed/exercise.yaml": ex, "fixed/README.md": "task", "fixed/answers.yaml": "bits:\n"}
	fs, err := lint.Dir(context.Background(), writePack(t, files))
	if err != nil || len(fs) != 1 || fs[0].Line != 10 || !strings.Contains(fs[0].Msg, `check "bits": the one answer 20000 passes under 40 of 40 seeds tried`) {
		t.Fatalf("findings %v, %v", fs, err)
	}
	files["fixed/exercise.yaml"] = ex + "    seed_free: true\n"
	if fs, err := lint.Dir(context.Background(), writePack(t, files)); err != nil || len(fs) != 0 {
		t.Errorf("seed_free: %v, %v", fs, err)
	}
}
