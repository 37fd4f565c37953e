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
	for k, v := range want {
		if got[k] < v {
			t.Errorf("window %s: %d after the kills, %d without them", k, got[k], v)
		}
	}
	if rep.Sink.Lost != 0 {
		t.Errorf("report says %d lost", rep.Sink.Lost)
	}
}
