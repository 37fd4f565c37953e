package bridge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fastFileJob writes a job that replays n events at source.rate 1000000
// (a million a virtual second, the most there is) and returns its path:
// a bounded source, so a quantum of the lab's running clock costs only n
// records however long it is.
func fastFileJob(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var events strings.Builder
	actions := []string{"open", "view", "click", "close"}
	for i := range n {
		fmt.Fprintf(&events, `{"id":%d,"time":%d,"action":%q}`+"\n", i+1, 1767268800000+int64(i), actions[i%len(actions)])
	}
	job := "name: fast\nsource:\n  file: events.jsonl\n  rate: 1000000\noperators:\n  - name: parse\n    kind: parse\n" +
		"  - name: count\n    kind: window-count\n    window: 10s\n"
	for name, body := range map[string]string{"job.yaml": job, "events.jsonl": events.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "job.yaml")
}

// At source.rate 1000000 and ×max the running clock's quanta stay within
// what one run line may admit, so the recording replays to the same report.
func TestFastSourceAtMaxSpeedReplays(t *testing.T) {
	b := newBridge(t, Options{Job: fastFileJob(t, 3000), Seed: 1, Speed: Max, Running: true})
	at := t0
	b.Tick(at)
	ticks(b, &at, 3, 33*time.Millisecond)
	if f := b.Frame(); f.Snap.Offset != 3000 {
		t.Fatalf("offset %d after the lab ran at ×max, want the source's 3000 records", f.Snap.Offset)
	}
	src := replaySame(t, b)
	if !strings.Contains(src, "\nrun ") {
		t.Fatalf("no run line recorded:\n%s", src)
	}
}
