package lab_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
)

// runIn runs a lab script written to dir (with any job files beside it).
func runIn(t *testing.T, dir, src string, opts lab.Options) *report.Report {
	t.Helper()
	path := filepath.Join(dir, "t.lab")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := lab.RunScript(ctx, path, []byte(src), opts)
	rep := res.Report
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// dumpedOffsets reads a --dump-source file and returns the offsets of the
// events whose action is not dropped.
func dumpedOffsets(t *testing.T, path string, drop ...string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct {
			Action string `json:"action"`
			Offset int64  `json:"offset"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(drop, e.Action) {
			out = append(out, e.Offset)
		}
	}
	return out
}

// tableOffsets reads the offsets in table `events` of a SQLite file, in order.
func tableOffsets(t *testing.T, db string) []int64 {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT "offset" FROM events ORDER BY "offset"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var off int64
		if err := rows.Scan(&off); err != nil {
			t.Fatal(err)
		}
		out = append(out, off)
	}
	return out
}

const forwardJob = `name: fwd
operators:
  - name: map
    kind: map
    parallelism: 3
    partition: rebalance
  - name: filter
    kind: filter
    parallelism: 3
    partition: forward
    drop: [scroll]
`

// A forward edge between parallel stages is a channel of its own: each
// filter node aligns over its one input, so exactly-once into a table holds
// through a sink failure (the events table read back with SQL equals the
// dumped source without the dropped action), and the concurrent executor
// does not hang on it.
func TestForwardEdgesKeepExactlyOnce(t *testing.T) {
	for _, seed := range []int64{2, 3, 6} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "fwd.yaml"), []byte(forwardJob), 0o644); err != nil {
				t.Fatal(err)
			}
			db, dump := filepath.Join(dir, "out.db"), filepath.Join(dir, "source.jsonl")
			rep := runIn(t, dir, "job fwd.yaml\nset semantics exactly-once\nset sink table\nset mode append\nset checkpoint.interval 100\nkill sink at 400\nrun 3000\nrun 30s\nrun 30s\n",
				lab.Options{Seed: &seed, DBPath: db, DumpSource: dump})
			if !rep.Sink.Correct || rep.Sink.Lost != 0 || rep.Sink.Duplicates != 0 || rep.Recovery.Failures != 1 {
				t.Fatalf("report: %+v, recovery %+v", rep.Sink, rep.Recovery)
			}
			want, got := dumpedOffsets(t, dump, "scroll"), tableOffsets(t, db)
			if !slices.Equal(got, want) {
				t.Fatalf("events table has %d rows, the source without scroll %d", len(got), len(want))
			}
		})
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fwd.yaml"), []byte(forwardJob), 0o644); err != nil {
		t.Fatal(err)
	}
	crep := runIn(t, dir, "job fwd.yaml\nset semantics exactly-once\nset sink table\nset mode append\nrun 3000\n", lab.Options{Executor: engine.ExecConcurrent})
	if !crep.Sink.Correct || crep.Source.Records != 3000 {
		t.Fatalf("concurrent executor: %+v", crep.Sink)
	}
}

// Under at-least-once a dead parallel upstream node holds the watermark of
// the windows it feeds until its replacement has replayed: nothing it
// replays arrives late.
func TestDeadUpstreamHoldsTheWatermark(t *testing.T) {
	dir := t.TempDir()
	job := "name: pp\noperators:\n  - name: parse\n    kind: parse\n    parallelism: 2\n    partition: rebalance\n  - name: count\n    kind: window-count\n    parallelism: 2\n    partition: hash\n    window: 10s\n"
	if err := os.WriteFile(filepath.Join(dir, "pp.yaml"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := runIn(t, dir, "job pp.yaml\nset semantics at-least-once\nset mode append\nset deployment managed provision=20s\nkill parse[1] at 1100\nrun 3000\nrun 30s\nrun 30s\n", lab.Options{})
	if rep.Sink.Lost != 0 || rep.Recovery.Failures != 1 || rep.Recovery.Replayed == 0 {
		t.Fatalf("sink %+v, recovery %+v", rep.Sink, rep.Recovery)
	}
}

// Rollback recovery knows only what was acknowledged: windows that fired
// after the last acknowledgement fire again, and an append log shows them
// as duplicates, with nothing lost.
func TestRollbackRepeatsUnacknowledgedWindows(t *testing.T) {
	rep := runIn(t, t.TempDir(), "job clicks\nset semantics at-least-once\nset mode append\nkill count[0] at 700\nkill count[1] at 800\nrun 3000\nrun 30s\nrun 30s\n", lab.Options{})
	if rep.Sink.Duplicates == 0 || rep.Sink.Lost != 0 || rep.Recovery.Failures != 2 {
		t.Fatalf("sink %+v, recovery %+v", rep.Sink, rep.Recovery)
	}
}

// Flink documentation, "High Availability": without HA services the job
// fails with its job manager; with a standby the new leader restarts the
// job from the latest completed checkpoint once the lease has run out.
func TestJobManagerHighAvailability(t *testing.T) {
	base := "job clicks\nset semantics exactly-once\nset sink table\n%srun 2500\nkill jobmanager\nrun 10s\n"
	none := runIn(t, t.TempDir(), fmt.Sprintf(base, ""), lab.Options{})
	if engine.JobStateOf(none.Job) != engine.StateFailed || !strings.Contains(none.Job.Error, "high-availability.type") {
		t.Fatalf("without HA: %s %q", none.Job.State, none.Job.Error)
	}
	early := runIn(t, t.TempDir(), fmt.Sprintf(base, "set jobmanager.ha standby lease=15s\n"), lab.Options{})
	if engine.JobStateOf(early.Job) != engine.StateRunning || early.Checkpoints.Restores != 0 || early.Sink.Pending == 0 || early.Sink.Lost != 0 {
		t.Fatalf("10 s into a 15 s lease the job waits for a leader, owing its work: %s, %+v, %+v", early.Job.State, early.Sink, early.Checkpoints)
	}
	late := runIn(t, t.TempDir(), fmt.Sprintf(base, "set jobmanager.ha standby lease=15s\n")+"run 30s\n", lab.Options{})
	r := late.Recovery
	if engine.JobStateOf(late.Job) != engine.StateRunning || late.Checkpoints.Restores != 1 || r.JobManagerFailovers != 1 || r.LeaderElectionMS != 15000 ||
		!late.Sink.Correct || late.Sink.Pending != 0 {
		t.Fatalf("with a standby: %s, sink %+v, recovery %+v, checkpoints %+v", late.Job.State, late.Sink, r, late.Checkpoints)
	}
	if late.Config.JobManagerHA != "standby lease=15s" {
		t.Fatalf("config.jobmanager_ha = %q", late.Config.JobManagerHA)
	}
}

// With nothing configured the restart strategy is Flink 2.3's: none with
// checkpointing off (gap recovery), exponential-delay with its defaults
// (FLINK-33736) with checkpointing on; a set strategy is kept either way.
func TestRestartDefaultsInTheReport(t *testing.T) {
	const exp = "exponential-delay initial=1s max=1m0s multiplier=1.5 reset=1h0m0s jitter=0.1"
	for script, want := range map[string]string{
		"job clicks\nrun 10\n":                                               "none",
		"job clicks\nset semantics exactly-once\nrun 10\n":                   exp,
		"job clicks\nset semantics at-least-once\nrun 10\n":                  exp,
		"job clicks\nset restart fixed-delay\nrun 10\n":                      "fixed-delay attempts=1 delay=1s",
		"job clicks\nset semantics exactly-once\nset restart none\nrun 10\n": "none",
	} {
		if rep := runIn(t, t.TempDir(), script, lab.Options{}); rep.Config.Restart != want {
			t.Errorf("%q: config.restart = %q, want %q", script, rep.Config.Restart, want)
		}
	}
}

// Checkpointing off and nothing configured: the first failure fails the
// job, in Flink 2.3's words.
func TestNoCheckpointsNoRestart(t *testing.T) {
	rep := runIn(t, t.TempDir(), "job clicks\nrun 500\nkill count[1]\nrun 500\n", lab.Options{})
	if rep.Job.State != "failed" || rep.Recovery.Restarts != 0 || !strings.Contains(rep.Job.Error, "recovery is suppressed by NoRestartBackoffTimeStrategy") {
		t.Fatalf("state %s, restarts %d, error %q", rep.Job.State, rep.Recovery.Restarts, rep.Job.Error)
	}
}

// A kill whose node never gets that far is reported, not silent.
func TestUnfiredKillsAreReported(t *testing.T) {
	rep := runIn(t, t.TempDir(), "job clicks\nkill count[1] at 100000\nrun 500\n", lab.Options{})
	if !slices.Equal(rep.Recovery.Unfired, []string{"count[1] at 100000"}) || rep.Recovery.Failures != 0 {
		t.Fatalf("unfired %v, failures %d", rep.Recovery.Unfired, rep.Recovery.Failures)
	}
}

// The two-phase commit's failure window: the sink dies after a checkpoint
// completed and before it committed; restore commits that checkpoint's
// transaction from the table's pending ones, so nothing is lost or doubled.
func TestSinkDiesBetweenCheckpointAndCommit(t *testing.T) {
	rep := runIn(t, t.TempDir(), "job clicks\nset semantics exactly-once\nset sink table\nset mode append\nkill sink at commit\nrun 2500\nrun 30s\nrun 30s\n", lab.Options{})
	if rep.Recovery.Failures != 1 || !rep.Sink.Correct || rep.Sink.Lost != 0 || rep.Sink.Duplicates != 0 || len(rep.Recovery.Unfired) != 0 {
		t.Fatalf("sink %+v, recovery %+v", rep.Sink, rep.Recovery)
	}
}
