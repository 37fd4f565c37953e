package lab_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
)

// replayJob writes a job that replays events (JSON Lines) through parse
// and a sliding window-count, and returns the script's path.
func replayJob(t *testing.T, events, script string) string {
	t.Helper()
	return replayJobFile(t, "name: replay\nsource:\n  file: events.jsonl\noperators:\n  - name: parse\n    kind: parse\n"+
		"  - name: count\n    kind: window-count\n    window: 10s\n    slide: 5s\n", events, script)
}

// replayJobFile writes job, its events and script, and returns the
// script's path.
func replayJobFile(t *testing.T, job, events, script string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"job.yaml": job, "events.jsonl": events, "s.lab": script} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "s.lab")
}

// runReplay runs the script at path within a minute, failing the test if
// it does not return by then (a loop no context reaches).
func runReplay(t *testing.T, path string, opts lab.Options) (*report.Report, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		rep *report.Report
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		res, err := lab.RunScript(ctx, path, src, opts)
		rep := res.Report
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return within a minute, though its context ended after 30 s", path)
	}
	return nil, nil
}

// An empty source file is an empty stream that has ended: nothing is
// generated in its place, nothing reaches the sink, and the dump is empty.
func TestEmptySourceFileIsAnEmptyFinishedStream(t *testing.T) {
	for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
		t.Run(string(exec), func(t *testing.T) {
			path := replayJob(t, "", "job job.yaml\nset sink table\nrun 200\nrun 10s\nexpect sink.rows == 0\n")
			dump := filepath.Join(t.TempDir(), "dump.jsonl")
			rep, err := runReplay(t, path, lab.Options{Executor: exec, DumpSource: dump})
			if err != nil {
				t.Fatal(err)
			}
			if engine.JobStateOf(rep.Job) != engine.StateFinished || rep.Source.Records != 0 || rep.Sink.Rows != 0 || rep.Sink.Expected != 0 {
				t.Fatalf("job %s, source %+v, sink %+v; want finished and empty", rep.Job.State, rep.Source, rep.Sink)
			}
			if b, err := os.ReadFile(dump); err != nil || len(b) != 0 {
				t.Fatalf("dump of an empty file: %q, %v", b, err)
			}
		})
	}
}

// An event time no window arithmetic can take is a positioned error at
// its line, refused before anything runs; the limits themselves run, and
// their windows are where the reference definition puts them.
func TestEventTimesOutsideTheYears1To9999AreRefused(t *testing.T) {
	ok := `{"id":1,"time":1767268800000,"action":"open"}` + "\n"
	for _, tm := range []int64{math.MaxInt64, -9223372036854775000, math.MinInt64, jobspec.MaxEventTime + 1, jobspec.MinEventTime - 1} {
		t.Run(fmt.Sprint(tm), func(t *testing.T) {
			events := ok + fmt.Sprintf(`{"id":2,"time":%d,"action":"open"}`, tm) + "\n"
			path := replayJob(t, events, "job job.yaml\nrun 10\n")
			_, err := runReplay(t, path, lab.Options{})
			if !errors.Is(err, lab.ErrBadInput) || !strings.Contains(err.Error(), "events.jsonl:2: time "+fmt.Sprint(tm)+" is outside") {
				t.Fatalf("got %v; want a bad-input error at events.jsonl:2 about the time", err)
			}
		})
	}
	for _, tm := range []int64{jobspec.MaxEventTime, jobspec.MinEventTime} {
		t.Run(fmt.Sprint(tm), func(t *testing.T) {
			events := ok + fmt.Sprintf(`{"id":2,"time":%d,"action":"open"}`, tm) + "\n"
			path := replayJob(t, events, "job job.yaml\nset mode complete\nset sink table\nrun 10\n")
			db := filepath.Join(t.TempDir(), "out.db")
			rep, err := runReplay(t, path, lab.Options{DBPath: db})
			if err != nil {
				t.Fatal(err)
			}
			if engine.JobStateOf(rep.Job) != engine.StateFinished || rep.Sink.Lost != 0 || !rep.Sink.Correct {
				t.Fatalf("job %s, sink %+v", rep.Job.State, rep.Sink)
			}
			// Each event is in two 10 s windows sliding by 5 s: those
			// starting at the multiples of 5 s in (t-10s, t].
			rows := readRows(t, db)
			if len(rows) != 4 {
				t.Fatalf("%d rows, want 4: %v", len(rows), rows)
			}
			var found int
			for _, r := range rows {
				if r.start%5000 == 0 && r.start <= tm && tm < r.end && r.end-r.start == 10_000 {
					found++
				}
			}
			if found != 2 {
				t.Fatalf("%d windows hold time %d, want 2: %v", found, tm, rows)
			}
		})
	}
}

// window is one row of table `results`.
type window struct {
	start, end int64
	key        string
	value      int64
}

// readRows reads table `results` of a SQLite file.
func readRows(t *testing.T, db string) []window {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT window_start, window_end, "key", value FROM results ORDER BY window_start, "key"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []window
	for rows.Next() {
		var w window
		if err := rows.Scan(&w.start, &w.end, &w.key, &w.value); err != nil {
			t.Fatal(err)
		}
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Lesson 1 says the watermark moves once a micro-batch, before each
// trigger, as Spark's does at the end of a batch: an event 15 s behind the
// newest one, arriving 10 ms after it in the same batch, is still counted
// in its open window; the same event in the next batch, after the
// watermark (newest less 5 s) passed that window's end, is dropped late.
func TestWatermarkMovesOncePerMicroBatch(t *testing.T) {
	job := "name: wm\nsource:\n  file: events.jsonl\n  rate: 100\n  watermark: 5s\n  trigger: 1s\n" +
		"operators:\n  - name: parse\n    kind: parse\n  - name: count\n    kind: window-count\n    window: 10s\n"
	const t0 = 1767268800000 // 2026-01-01T12:00:00Z, a window's start
	var events strings.Builder
	for i, ms := range []int64{0, 20_000, 5_000, 5_000} {
		fmt.Fprintf(&events, `{"id":%d,"time":%d,"action":"open"}`+"\n", i+1, t0+ms)
	}
	// Offsets 0-2 arrive 10 ms apart, one batch; offset 3 comes in a
	// batch of its own, after the trigger that ended the first.
	path := replayJobFile(t, job, events.String(), "job job.yaml\nset sink table\nrun 3\nrun 1\n")
	db := filepath.Join(t.TempDir(), "out.db")
	rep, err := runReplay(t, path, lab.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	var first int64
	for _, r := range readRows(t, db) {
		if r.start == t0 && r.key == "open" {
			first = r.value
		}
	}
	if first != 2 || rep.Window.DroppedLate != 1 {
		t.Fatalf("window [0 s, 10 s) counted %d, %d dropped late; want 2 counted (the second 15 s behind the newest, in its batch) and 1 dropped (the next batch's)", first, rep.Window.DroppedLate)
	}
}

// tableRows counts the rows of a SQLite file's table.
func tableRows(t *testing.T, db, table string) int64 {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int64
	if err := conn.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The ledger's truth is what a reader of the sink sees. Records of a
// replayed file that share an id are one row of the id-keyed table (update
// mode), so one effect; appended they are a row each. The report says how
// many repeat an id. The expected counts come from the file, the rows from
// SQLite; a kill and a replay in between (at-least-once) and more events
// than the ledger keeps cells for (it folds what it has settled) change
// neither.
func TestRecordsSharingAnIdAreOneRowOfAKeyedTable(t *testing.T) {
	const job = "name: ids\nsource:\n  file: events.jsonl\noperators:\n  - name: parse\n    kind: parse\n    parallelism: 2\n    partition: rebalance\n"
	cases := []struct {
		name         string
		events, ids  int
		mode, failed string
	}{
		{"one id", 50, 1, "update", ""},
		{"one id appended", 50, 1, "append", ""},
		{"3000 ids in 10000 records, a kill", 10_000, 3000, "update", "set semantics at-least-once\nkill parse[1] at 1500\n"},
		{"3000 ids in 10000 records appended, a kill", 10_000, 3000, "append", "set semantics at-least-once\nkill parse[1] at 1500\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var events strings.Builder
			distinct := map[int]bool{}
			for i := range tc.events {
				id := i * 7919 % tc.ids
				distinct[id] = true
				fmt.Fprintf(&events, `{"id":%d,"time":%d,"action":"open"}`+"\n", id, 1767268800000+int64(i)*10)
			}
			script := "job job.yaml\nset sink table\nset mode " + tc.mode + "\n" + tc.failed + fmt.Sprintf("run %d\nrun 30s\n", tc.events)
			path := replayJobFile(t, job, events.String(), script)
			db := filepath.Join(t.TempDir(), "out.db")
			rep, err := runReplay(t, path, lab.Options{DBPath: db})
			if err != nil {
				t.Fatal(err)
			}
			rows := tableRows(t, db, "events")
			want, repeats := int64(len(distinct)), int64(tc.events-len(distinct))
			if tc.mode == "append" {
				want = int64(tc.events)
			}
			s := rep.Sink
			if rep.Source.RepeatedIDs != repeats {
				t.Errorf("source.repeated_ids %d, the file repeats %d ids", rep.Source.RepeatedIDs, repeats)
			}
			if tc.mode != "append" && rows != want {
				t.Errorf("the table holds %d rows, the file %d distinct ids", rows, want)
			}
			if s.Expected != want || s.Lost != 0 || s.Pending != 0 || s.Unique != want {
				t.Errorf("sink %+v; a reader sees %d rows and expects %d", s, rows, want)
			}
			if tc.failed == "" && (s.Delivered != rows || !s.Correct) {
				t.Errorf("no failure, yet sink %+v against %d rows", s, rows)
			}
			if tc.failed != "" && rep.Recovery.Failures == 0 {
				t.Errorf("the kill did not fire: %+v", rep.Recovery)
			}
		})
	}
}
