package lab_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
)

const slidingCounters = `name: pp
source:
  rate: 50
operators:
  - name: parse
    kind: parse
  - name: count
    kind: window-count
    parallelism: 2
    window: 10s
    slide: 5s
`

const slidingKills = `job job.yaml
set semantics at-least-once
set ha upstream-backup
set sink table
set mode update
set deployment managed provision=0s
set restart fixed-delay attempts=1000 delay=0ms
kill count[0] at 262
run 201
kill count[1] at 589
run 1642
run 10s
run 10s
`

// A counter that dies after sending a window's count that the sink had
// not yet aligned must not have that stale count land after its
// replacement's: the sink's channel from it delivers in order. Two counter
// kills used to leave window 12:00:05 "close" at 70 where every record
// counted makes 71. Read back from SQLite, every row is at least what the
// same job writes without failures (at-least-once loses nothing).
func TestStaleCountOfADeadCounterDoesNotOverwriteItsReplacement(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(slidingCounters), 0o644); err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	failed, clean := filepath.Join(dir, "failed.db"), filepath.Join(dir, "clean.db")
	rep := runIn(t, dir, slidingKills, lab.Options{Seed: &seed, DBPath: failed})
	if rep.Recovery.Failures != 2 {
		t.Fatalf("want both kills to fire, got %d failures", rep.Recovery.Failures)
	}
	noKills := strings.NewReplacer("kill count[0] at 262\n", "", "kill count[1] at 589\n", "").Replace(slidingKills)
	runIn(t, dir, noKills, lab.Options{Seed: &seed, DBPath: clean})
	got, want := tableCounts(t, failed), tableCounts(t, clean)
	var over int64
	for k, v := range want {
		if got[k] < v {
			t.Errorf("window %s: %d after the kills, %d without them", k, got[k], v)
		}
		over += max(got[k]-v, 0)
	}
	if rep.Sink.Lost != 0 || rep.Sink.Duplicates != over {
		t.Errorf("report says %d lost, %d duplicates; the tables differ by %d", rep.Sink.Lost, rep.Sink.Duplicates, over)
	}
	// The replacements start from the acknowledged watermark, behind where
	// their predecessors were: the extra counts here are all records the
	// failure-free run dropped as late, and the report says so.
	if over == 0 || rep.Sink.LateCounted != over {
		t.Errorf("%d extra counts, %d of them late records counted", over, rep.Sink.LateCounted)
	}
}

const completeKills = `job job.yaml
set seed 1
set semantics at-least-once
set ha upstream-backup
set sink table
set mode complete
set deployment managed provision=0s
set restart fixed-delay attempts=1000 delay=0ms
kill count[1] at 741
run 200
kill count[1] at 491
run 220
run 10s
`

// In complete mode every trigger replaces the table with the whole result.
// A trigger for which a counter sent nothing (it was down, or its
// replacement joined after it) must not replace the table with the other
// counter's part: the sink holds such a batch back, as Spark commits a
// micro-batch only once all its tasks have finished. Here count[1] is
// killed twice (the second kill hits its replacement); without holding
// back, the table kept 27 of its 77 rows. Read back from SQLite, every row
// of the failure-free table is there with at least its count.
func TestCompleteModeHoldsBackABatchWithoutEveryCounter(t *testing.T) {
	dir := t.TempDir()
	job := strings.Replace(slidingCounters, "    kind: parse\n", "    kind: parse\n    partition: rebalance\n", 1)
	job = strings.Replace(job, "slide: 5s", "slide: 2500ms", 1)
	if err := os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	failed, clean := filepath.Join(dir, "failed.db"), filepath.Join(dir, "clean.db")
	rep := runIn(t, dir, completeKills, lab.Options{DBPath: failed})
	if rep.Recovery.Failures != 2 {
		t.Fatalf("want both kills to fire, got %d failures", rep.Recovery.Failures)
	}
	noKills := strings.NewReplacer("kill count[1] at 741\n", "", "kill count[1] at 491\n", "").Replace(completeKills)
	runIn(t, dir, noKills, lab.Options{DBPath: clean})
	got, want := tableCounts(t, failed), tableCounts(t, clean)
	for k, v := range want {
		if got[k] < v {
			t.Errorf("window %s: %d after the kills, %d without them", k, got[k], v)
		}
	}
	if rep.Sink.Lost != 0 || len(got) != len(want) {
		t.Errorf("report says %d lost; table has %d rows, %d without the kills", rep.Sink.Lost, len(got), len(want))
	}
}
