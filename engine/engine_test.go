package engine_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// TestMain checks that no goroutine outlives the tests, and makes each
// property test run propertyChecks cases (fewer with -short) unless told
// otherwise with -rapid.checks (or RAPID_CHECKS). The seed is not fixed: rapid draws a new one
// every run and prints it with a failure (-rapid.seed reproduces it), and
// the failing case is kept under testdata/rapid, where every later run
// replays it first.
func TestMain(m *testing.M) {
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["rapid.checks"] && os.Getenv("RAPID_CHECKS") == "" {
		checks := propertyChecks
		if testing.Short() {
			checks = propertyChecks / 5
		}
		if err := flag.Set("rapid.checks", fmt.Sprint(checks)); err != nil {
			panic(err)
		}
	}
	goleak.VerifyTestMain(m)
}

// propertyChecks is how many cases each property test runs in `make test`:
// seven properties, so 315 generated cases a run, each run new ones.
const propertyChecks = 45

// clock parses "15:04" on 2026-01-01 into Unix ms.
func clock(t *testing.T, hhmm string) int64 {
	t.Helper()
	ts, err := time.Parse("2006-01-02 15:04", "2026-01-01 "+hhmm)
	if err != nil {
		t.Fatal(err)
	}
	return ts.UnixMilli()
}

// eventFile writes "HH:MM action" events as a JSON Lines source file.
func eventFile(t *testing.T, events ...string) string {
	t.Helper()
	var b strings.Builder
	for i, e := range events {
		hhmm, action, _ := strings.Cut(e, " ")
		fmt.Fprintf(&b, `{"id":%d,"time":%d,"action":%q}`+"\n", i+1, clock(t, hhmm), action)
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// windowJob counts per action in windows over a replayed file, one record
// per virtual second and a trigger after each.
func windowJob(file string, window, slide, watermark time.Duration) jobspec.Spec {
	return jobspec.Spec{
		Name:   "words",
		Source: jobspec.Source{Rate: 1, Devices: 1, Trigger: time.Second, Watermark: watermark, File: file},
		Operators: []jobspec.Operator{
			{Name: "parse", Kind: jobspec.KindParse, Parallelism: 1},
			{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 2, Partition: jobspec.PartitionHash, Window: window, Slide: slide},
		},
	}
}

func start(t *testing.T, spec jobspec.Spec, mode engine.Mode, sink engine.SinkKind) *engine.Runtime {
	t.Helper()
	cfg := engine.DefaultConfig()
	cfg.Mode, cfg.Sink = mode, sink
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

func run(t *testing.T, rt *engine.Runtime, n int64) {
	t.Helper()
	rt.Admit(n)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// rows renders the latest value per window and key the sink holds, as
// "HH:MM-HH:MM key=value", from its most recent rows.
func rows(rt *engine.Runtime) map[string]int64 {
	out := map[string]int64{}
	for _, r := range rt.SinkRows() {
		k := fmt.Sprintf("%s-%s %s", time.UnixMilli(r.WindowStart).UTC().Format("15:04"), time.UnixMilli(r.WindowEnd).UTC().Format("15:04"), r.Key)
		out[k] = r.Value
	}
	return out
}

// The watermark example of the Spark programming guide: 10-minute windows
// sliding every 5 minutes, a 10-minute watermark delay.
func TestSparkWatermarkExample(t *testing.T) {
	file := eventFile(t,
		"12:07 dog", "12:08 owl", // first trigger
		"12:14 dog", // the watermark becomes 12:04
		"12:09 cat", // late, but inside the watermark: still counts
		"12:15 cat", "12:08 dog", "12:13 owl",
		"12:21 owl",    // the watermark becomes 12:11: 12:00–12:10 is final
		"12:04 donkey", // too late: its windows are gone
		"12:17 owl",
	)
	spec := windowJob(file, 10*time.Minute, 5*time.Minute, 10*time.Minute)
	rt := start(t, spec, engine.ModeUpdate, engine.SinkLog)

	run(t, rt, 3)
	if wm := rt.Report().Window.Watermark; wm != clock(t, "12:04") {
		t.Fatalf("after 12:14 the watermark is %s, want 12:04", time.UnixMilli(wm).UTC().Format("15:04"))
	}
	run(t, rt, 1)
	got := rows(rt)
	if got["12:00-12:10 cat"] != 1 || got["12:05-12:15 cat"] != 1 {
		t.Fatalf("the late 12:09 cat must count in 12:00–12:10 and 12:05–12:15; rows %v", got)
	}
	run(t, rt, 4)
	if wm := rt.Report().Window.Watermark; wm != clock(t, "12:11") {
		t.Fatalf("after 12:21 the watermark is %s, want 12:11", time.UnixMilli(wm).UTC().Format("15:04"))
	}
	run(t, rt, 2)
	rep := rt.Report()
	if rep.Window.DroppedLate != 1 {
		t.Fatalf("dropped late = %d, want 1 (the 12:04 donkey)", rep.Window.DroppedLate)
	}
	for k := range rows(rt) {
		if strings.Contains(k, "donkey") {
			t.Fatalf("the 12:04 donkey must be ignored, found row %s", k)
		}
	}
	if !rep.Sink.Correct || rep.Sink.Lost != 0 {
		t.Fatalf("a failure-free run must match its ledger: %+v", rep.Sink)
	}
}

// In append mode the 12:00–12:10 counts are emitted once, and only when the
// watermark passes 12:10.
func TestSparkWatermarkAppendEmitsFinalWindowsOnly(t *testing.T) {
	file := eventFile(t, "12:07 dog", "12:08 owl", "12:14 dog", "12:09 cat", "12:15 cat", "12:08 dog", "12:13 owl", "12:21 owl")
	rt := start(t, windowJob(file, 10*time.Minute, 5*time.Minute, 10*time.Minute), engine.ModeAppend, engine.SinkLog)
	run(t, rt, 7)
	for k := range rows(rt) {
		if strings.HasPrefix(k, "12:00-12:10") {
			t.Fatalf("12:00–12:10 emitted before the watermark passed 12:10: %v", rows(rt))
		}
	}
	run(t, rt, 1)
	got := rows(rt)
	want := map[string]int64{"12:00-12:10 dog": 2, "12:00-12:10 owl": 1, "12:00-12:10 cat": 1}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("row %s = %d, want %d (rows %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("only the final window may be appended, got %v", got)
	}
}

// The Databricks blog's example: counts per hour into a table updated in
// place; an event of 1:58 arriving at 2:02 updates the 1:00 row.
func TestBlogLateEventUpdatesOldRow(t *testing.T) {
	file := eventFile(t, "01:30 open", "02:01 open", "01:58 open")
	spec := windowJob(file, time.Hour, time.Hour, 10*time.Minute)
	rt := start(t, spec, engine.ModeUpdate, engine.SinkTable)
	run(t, rt, 2)
	if got := rows(rt); got["01:00-02:00 open"] != 1 || got["02:00-03:00 open"] != 1 {
		t.Fatalf("rows %v", got)
	}
	run(t, rt, 1)
	last := rt.SinkRows()[len(rt.SinkRows())-1]
	if last.Key != "open" || last.WindowStart != clock(t, "01:00") || last.Value != 2 {
		t.Fatalf("the late 1:58 event must update the 1:00 row to 2, last write %+v", last)
	}
	rep := rt.Report()
	if rep.Sink.Rows != 2 {
		t.Fatalf("the table must be updated in place: %d rows, want 2", rep.Sink.Rows)
	}
}

func TestOutputModeRules(t *testing.T) {
	clicks, _ := jobspec.Builtin("clicks")
	pass, _ := jobspec.Builtin("passthrough")
	noWM := clicks
	noWM.Source.Watermark = -1
	cases := []struct {
		spec jobspec.Spec
		mode engine.Mode
		bad  string
	}{
		{clicks, engine.ModeAppend, ""},
		{clicks, engine.ModeUpdate, ""},
		{clicks, engine.ModeComplete, ""},
		{noWM, engine.ModeAppend, "append mode needs a watermark"},
		{noWM, engine.ModeUpdate, ""},
		{pass, engine.ModeAppend, ""},
		{pass, engine.ModeUpdate, ""},
		{pass, engine.ModeComplete, "complete mode is not supported"},
	}
	for _, c := range cases {
		err := engine.CheckMode(c.spec, c.mode, c.spec.Source.Watermark >= 0)
		if (err != nil) != (c.bad != "") || (err != nil && !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("%s %s: err %v, want %q", c.spec.Name, c.mode, err, c.bad)
		}
	}
}
