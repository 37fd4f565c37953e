package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/lessons"
)

// isolateState keeps a test's lesson progress in a directory of its own.
func isolateState(t *testing.T) string {
	t.Helper()
	isolate(t)
	dir := t.TempDir()
	t.Setenv(lessons.StateDirEnv, dir)
	return dir
}

func TestLessonsList(t *testing.T) {
	dir := isolateState(t)
	r := streamlab(t, "", "lessons")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{filepath.Join(dir, "progress.json"), "1   streams", "Streams and jobs", "not started", "10  job-start", "the next one is 1 (streams)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// Progress shows, and the next lesson moves on.
	p := &lessons.Progress{Seed: 77}
	p.StepsDone("streams", 99)
	p.CheckPassed("streams")
	p.StepsDone("output-modes", 1)
	if err := (lessons.Store{Dir: dir}).Save(p); err != nil {
		t.Fatal(err)
	}
	r = streamlab(t, "", "lessons")
	for _, want := range []string{"your lesson seed is 77", "done", "step 2 of 4", "the next one is 2 (output-modes)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// With every lesson done there is no next one to name.
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		p.StepsDone(l.ID, 99)
		p.CheckPassed(l.ID)
	}
	if err := (lessons.Store{Dir: dir}).Save(p); err != nil {
		t.Fatal(err)
	}
	r = streamlab(t, "", "lessons")
	if strings.Contains(r.stdout, "the next one") || !strings.Contains(r.stdout, "All 10 lessons are done") {
		t.Errorf("with every lesson done:\n%s", r.stdout)
	}
}

func TestLessonsDamagedProgressIsAWarning(t *testing.T) {
	dir := isolateState(t)
	if err := os.WriteFile(filepath.Join(dir, "progress.json"), []byte("{oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := streamlab(t, "", "lessons")
	if r.code != 0 || !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "progress.json.bad-1") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "progress.json.bad-1")); err != nil {
		t.Fatal(err)
	}
}

func TestLessonsVerify(t *testing.T) {
	isolateState(t)
	r := streamlab(t, "", "lessons", "verify", "streams", "3", "--seed", "2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{
		"lesson 1 streams: Streams and jobs (seed 2)",
		"step 1/4 done: Run the clicks job (session 1, after `run 3000`)",
		"step 4/4 done: Spark's example, in seconds (session 4, after `run 6`)",
		"lesson 3 node-failure",
		"check: ",
		"2 of 2 lessons can be finished",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// The check's answer only with --reveal.
	if !strings.Contains(r.stdout, "check: solved (--reveal prints its answer)") {
		t.Errorf("verify without --reveal:\n%s", r.stdout)
	}
	shown := streamlab(t, "", "lessons", "verify", "streams", "--seed", "2", "--reveal")
	if shown.code != 0 || strings.Contains(shown.stdout, "--reveal prints") || !strings.Contains(shown.stdout, "check: ") {
		t.Errorf("verify --reveal: exit %d\n%s", shown.code, shown.stdout)
	}
	if r := streamlab(t, "", "lessons", "verify", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, `unknown lesson "nosuch"`) {
		t.Errorf("unknown lesson: exit %d, %q", r.code, r.stderr)
	}
}

// --seeds verifies a lesson under --seed and the next ones, and says so.
func TestLessonsVerifyUnderSeeds(t *testing.T) {
	isolateState(t)
	r := streamlab(t, "", "lessons", "verify", "streams", "--seed", "3", "--seeds", "2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{"streams: Streams and jobs (seed 3)", "streams: Streams and jobs (seed 4)", "1 of 1 lessons can be finished under seeds 3 to 4\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "(seed 5)") {
		t.Errorf("a third seed ran:\n%s", r.stdout)
	}
	for _, n := range []string{"0", "101"} {
		if r := streamlab(t, "", "lessons", "verify", "streams", "--seeds", n); r.code != 2 || !strings.Contains(r.stderr, "--seeds must be from 1 to 100") {
			t.Errorf("--seeds %s: exit %d, %q", n, r.code, r.stderr)
		}
	}
}

// A lesson that fails names its seeds when several were tried.
func TestLessonWithSeeds(t *testing.T) {
	for _, tc := range []struct {
		failed []int64
		tried  int
		want   string
	}{
		{[]int64{1}, 1, "streams"},
		{[]int64{3}, 12, "streams (seed 3)"},
		{[]int64{3, 7}, 12, "streams (seeds 3, 7)"},
	} {
		if got := lessonWithSeeds("streams", tc.failed, tc.tried); got != tc.want {
			t.Errorf("%v of %d: %q, want %q", tc.failed, tc.tried, got, tc.want)
		}
	}
}

// Lesson 9 needs the engine's dependency check at submission.
func TestLessonsVerifyJobStart(t *testing.T) {
	isolateState(t)
	r := streamlab(t, "", "lessons", "verify", "job-start")
	if r.code != 0 || !strings.Contains(r.stdout, "step 4/5 done: The wrong Flink version") {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
}

func TestLessonsReset(t *testing.T) {
	dir := isolateState(t)
	store := lessons.Store{Dir: dir}
	p := &lessons.Progress{Seed: 5}
	p.StepsDone("streams", 2)
	p.StepsDone("rollback", 3)
	if err := store.Save(p); err != nil {
		t.Fatal(err)
	}
	if r := streamlab(t, "", "lessons", "reset", "4"); r.code != 0 || !strings.Contains(r.stdout, "lesson 4 (rollback)") {
		t.Fatalf("exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	got, _ := store.Load()
	if got.Lessons["rollback"] != nil || got.Lessons["streams"] == nil {
		t.Fatalf("after reset 4: %+v", got.Lessons)
	}
	if r := streamlab(t, "", "lessons", "reset", "nosuch"); r.code != 2 {
		t.Fatalf("unknown lesson: exit %d", r.code)
	}
	if r := streamlab(t, "", "lessons", "reset"); r.code != 0 || !strings.Contains(r.stdout, "every lesson") {
		t.Fatalf("exit %d, %q", r.code, r.stdout)
	}
	b, _ := os.ReadFile(store.Path())
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil || raw["seed"] != float64(5) || raw["lessons"] != nil {
		t.Fatalf("progress after reset all: %s", b)
	}
}

// Opening a lesson needs a terminal; before it gets there, it gives the
// learner a seed of their own and writes the lesson's files.
func TestLessonOpensInTheTerminalLab(t *testing.T) {
	dir := isolateState(t)
	r := streamlab(t, "", "lesson", "output-modes")
	if r.code != 2 || !strings.Contains(r.stderr, "needs a terminal") {
		t.Fatalf("exit %d, %q", r.code, r.stderr)
	}
	p, err := (lessons.Store{Dir: dir}).Load()
	if err != nil || p.Seed == 0 {
		t.Fatalf("no learner seed: %+v %v", p, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "lessons", "output-modes", "late-open.yaml")); err != nil {
		t.Fatal(err)
	}
	// The seed stays; --seed overrides it without replacing it.
	seed := p.Seed
	streamlab(t, "", "lesson", "--seed", "3")
	if p, _ := (lessons.Store{Dir: dir}).Load(); p.Seed != seed {
		t.Fatalf("seed changed from %d to %d", seed, p.Seed)
	}
}
