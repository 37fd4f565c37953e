package grade_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

// win is a script exercise on the clicks job, whose windows an answer may
// make slide: the work a scheduler step does not measure.
func win(t *testing.T, budget string) *pack.Exercise {
	t.Helper()
	return lookup(t, testPack(t, func(m map[string]string) {
		m["win/exercise.yaml"] = "id: win\ntitle: Windows\nkind: script\njob: clicks\nseed: 3\nseeds: 1\nanswer: a.lab\n" + budget +
			"checks:\n  - name: ran\n    expect: source.records >= 500\n"
		m["win/README.md"] = "task"
		m["win/a.lab"] = "run 1\n"
	}), "win")
}

// TestWindowUpdatesBudget: a sliding window of 1s by 1ms makes each record
// 1000 window updates; 100 000 records would run for minutes. The grader
// refuses the run before it starts, naming the numbers, and scores 0 —
// never the wall-time guard's internal error.
func TestWindowUpdatesBudget(t *testing.T) {
	ex := win(t, "")
	if ex.Budget.WindowUpdates != pack.DefaultBudgetWindowUpdates || ex.Budget.Rows != pack.DefaultBudgetRows {
		t.Fatalf("default budget %+v", ex.Budget)
	}
	start := time.Now()
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte("set window 1s\nset window.slide 1ms\nrun 100000\n"), grade.Options{TimeLimit: 20 * time.Second})
	if err != nil {
		t.Fatalf("an internal error, not a grade: %v", err)
	}
	want := "a.lab:3:1: your answer does 100000000 window updates, the budget is 2000000 (100000 records, each counted in 1000 windows: count's window 1s slides by 1ms)"
	if r.Score != 0 || r.Passed || r.Internal || r.Error != want {
		t.Errorf("got %+v\nwant the error %q", r, want)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("refused after %s: it should not have started", took)
	}
	// A timed run is refused once admitted, before it is processed.
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set window 1s\nset window.slide 1ms\nrun 1h\n"), grade.Options{})
	if err != nil || !strings.Contains(r.Error, "a.lab:3:1: your answer does ") || !strings.Contains(r.Error, "the budget is 2000000") {
		t.Errorf("a timed run: %+v, %v", r, err)
	}
	// Within the budget, the same windows grade.
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set window 1s\nset window.slide 100ms\nrun 600\n"), grade.Options{})
	if err != nil || !r.Passed || r.Error != "" {
		t.Errorf("within the budget: %+v, %v", r, err)
	}
}

// TestWindowUpdatesOfReplays: records a restart replays go through the
// windows again; the run is stopped when they take it over the budget.
func TestWindowUpdatesOfReplays(t *testing.T) {
	ex := win(t, "budget:\n  window_updates: 145000\n")
	if ex.Budget.WindowUpdates != 145000 || ex.Budget.Records != pack.DefaultBudgetRecords {
		t.Fatalf("budget %+v", ex.Budget)
	}
	// 1400 records in 100 windows each: 140 000 updates, within.
	within := "set semantics exactly-once\nset checkpoint.interval 700\nset window 1s\nset window.slide 10ms\n"
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte(within+"run 1400\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Fatalf("within the budget: %+v, %v", r, err)
	}
	// parse fails after the checkpoint at 700: the job is restored and the
	// records after it go through the windows again.
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte(within+"kill parse at 600\nrun 1400\n"), grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 0 || !strings.Contains(r.Error, "a.lab:6:1: your answer does ") || !strings.Contains(r.Error, "window updates, the budget is 145000 (with the records restarts replayed, each counted in 100 windows") {
		t.Errorf("replays over the budget: %+v", r)
	}
}

// TestRowsBudget: in complete mode every trigger writes the whole table, so
// a 1 ms window makes the rows written grow with the square of the
// records; the rows the sink writes are budgeted.
func TestRowsBudget(t *testing.T) {
	ex := win(t, "budget:\n  rows: 20000\n")
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte("set mode complete\nset window 1ms\nrun 20000\n"), grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 0 || !strings.Contains(r.Error, "a.lab:3:1: your answer writes ") || !strings.Contains(r.Error, "rows to the sink, the budget is 20000 (in complete mode every trigger writes the whole table again)") {
		t.Errorf("%+v", r)
	}
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set mode complete\nrun 600\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("within the budget: %+v, %v", r, err)
	}
	// Options.Budget replaces the exercise's count.
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set mode complete\nrun 600\n"), grade.Options{Budget: pack.Budget{Rows: 10}})
	if err != nil || !strings.Contains(r.Error, "the budget is 10 (") {
		t.Errorf("Options.Budget: %+v, %v", r, err)
	}
}

// TestTimersBudget: a watermark lagging by 1000 hours keeps every 1 ms
// window open, and each trigger checks all their timers: work that grows
// with the square of the records. The run stops at the budget with the
// numbers, and scores 0.
func TestTimersBudget(t *testing.T) {
	ex := win(t, "budget:\n  timers: 200000\n")
	if d := win(t, "").Budget; d.Timers != pack.DefaultBudgetTimers || d.StateBytes != pack.DefaultBudgetStateBytes || d.CheckpointBytes != pack.DefaultBudgetCheckpointBytes {
		t.Fatalf("default budget %+v", d)
	}
	lagging := "set mode append\nset source.watermark 1000h\nset window 1ms\n"
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte(lagging+"run 20000\n"), grade.Options{})
	if err != nil {
		t.Fatalf("an internal error, not a grade: %v", err)
	}
	if r.Score != 0 || r.Internal || !strings.HasPrefix(r.Error, "a.lab:4:1: your answer checks ") || !strings.Contains(r.Error, "window timers, the budget is 200000 (each trigger checks the timer of every window held open") {
		t.Errorf("%+v", r)
	}
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set mode append\nrun 600\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("within the budget: %+v, %v", r, err)
	}
}

// TestCheckpointBytesBudget: a checkpoint every record copies the whole
// state every record; the copies are counted as they are made.
func TestCheckpointBytesBudget(t *testing.T) {
	ex := win(t, "budget:\n  checkpoint_bytes: 1000000\n")
	every := "set semantics exactly-once\nset checkpoint.interval 1\n"
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte(every+"run 20000\n"), grade.Options{})
	if err != nil {
		t.Fatalf("an internal error, not a grade: %v", err)
	}
	if r.Score != 0 || !strings.HasPrefix(r.Error, "a.lab:3:1: your answer copies ") || !strings.Contains(r.Error, "bytes of state into checkpoints, the budget is 1000000 (a checkpoint every 1 records copies the whole state each time)") {
		t.Errorf("%+v", r)
	}
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set semantics exactly-once\nrun 600\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("within the budget: %+v, %v", r, err)
	}
}

// TestStateBytesBudget: a Bloom filter of 10⁷ bits holds 1.25 MB before a
// record is admitted; the run is refused before it starts.
func TestStateBytesBudget(t *testing.T) {
	ex := win(t, "budget:\n  state_bytes: 100000\n")
	r, err := grade.Bytes(context.Background(), ex, "a.lab", []byte("set filter bloom m=10000000 k=3\nrun 600\n"), grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "a.lab:2:1: your answer holds 1250184 bytes of state, the budget is 100000 (windows held open, filters, checkpoints and the records upstream backup keeps, as a checkpoint would write them)"
	if r.Score != 0 || r.Error != want {
		t.Errorf("got %q\nwant %q", r.Error, want)
	}
	r, err = grade.Bytes(context.Background(), ex, "a.lab", []byte("set filter bloom m=10000 k=3\nrun 600\n"), grade.Options{})
	if err != nil || !r.Passed {
		t.Errorf("within the budget: %+v, %v", r, err)
	}
}

// TestOneBrokenExerciseDoesNotStopTheOthers: an exercise whose grading
// breaks (here the wall-time guard at 1ns) is marked Internal and scores
// zero; All grades the rest and returns an internal error.
func TestOneBrokenExerciseDoesNotStopTheOthers(t *testing.T) {
	p := testPack(t, nil)
	scr := lookup(t, p, "scr")
	guarded := *scr
	guarded.TimeLimit = time.Nanosecond
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"scr/a.lab": "run 600\n", "pred/answers.yaml": "lost: 1\nstate: running\nmode: append\n"})
	res, err := grade.All(context.Background(), []*pack.Exercise{&guarded, lookup(t, p, "pred")}, dir, grade.Options{})
	if !errors.Is(err, engine.ErrInternal) || !errors.Is(err, grade.ErrGuard) {
		t.Fatalf("err %v", err)
	}
	if res == nil || len(res.Exercises) != 2 {
		t.Fatalf("result %+v", res)
	}
	if e := res.Exercises[0]; !e.Internal || e.Score != 0 || !strings.Contains(e.Error, "wall-time guard") {
		t.Errorf("the guarded exercise: %+v", e)
	}
	if e := res.Exercises[1]; e.Internal || e.Error != "" || len(e.Checks) != 3 || !e.Checks[1].Passed {
		t.Errorf("the next exercise was not graded: %+v", e)
	}
}

// writeFiles writes files (slash paths relative to dir) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEqualToFailureFreeNeedsTheFailure: "the output equals the
// failure-free run" is what an answer that fails nothing gets; in an
// exercise about recovering from a failure it counts only when something
// failed. Where no failure is asked for, it is the point itself.
func TestEqualToFailureFreeNeedsTheFailure(t *testing.T) {
	p := testPack(t, func(m map[string]string) {
		for _, id := range []string{"rec", "plain"} {
			checks := "checks:\n  - name: correct\n    expect: sink.correct == true\n"
			if id == "rec" {
				checks += "  - name: a failure\n    expect: recovery.failures >= 1\n"
			}
			m[id+"/exercise.yaml"] = "id: " + id + "\ntitle: t\nkind: script\njob: passthrough\nseeds: 1\nanswer: a.lab\n" + checks
			m[id+"/README.md"] = "task"
			m[id+"/a.lab"] = "run 1\n"
		}
	})
	ctx := context.Background()
	calm := []byte("set semantics exactly-once\nrun 600\n")
	r, err := grade.Bytes(ctx, lookup(t, p, "rec"), "a.lab", calm, grade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Checks[0]; c.Passed || !strings.Contains(c.Message, "nothing failed in the run") {
		t.Errorf("no failure, in an exercise about one: %+v", c)
	}
	r, err = grade.Bytes(ctx, lookup(t, p, "rec"), "a.lab", []byte("set semantics exactly-once\nset sink table\nkill map at 200\nrun 600\nrun 30s\n"), grade.Options{})
	if err != nil || !r.Checks[0].Passed || !r.Checks[1].Passed {
		t.Errorf("a failure recovered: %+v, %v", r, err)
	}
	r, err = grade.Bytes(ctx, lookup(t, p, "plain"), "a.lab", calm, grade.Options{})
	if err != nil || !r.Checks[0].Passed {
		t.Errorf("no failure asked for: %+v, %v", r, err)
	}
}
