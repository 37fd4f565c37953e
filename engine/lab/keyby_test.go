package lab_test

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
)

const perDeviceJob = `name: per-device
source:
  devices: 7
  watermark: none
operators:
  - name: parse
    kind: parse
  - name: count
    kind: window-count
    parallelism: 3
    key: device
    window: 10s
`

// A window-count keyed by device counts per (window, device): the table
// read back with SQL equals the counts recomputed from the dumped source,
// on both executors, with each device's windows on one node.
func TestWindowCountKeyedByDevice(t *testing.T) {
	for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
		t.Run(string(exec), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(perDeviceJob), 0o644); err != nil {
				t.Fatal(err)
			}
			db, dump := filepath.Join(dir, "out.db"), filepath.Join(dir, "source.jsonl")
			seed := int64(5)
			rep := runIn(t, dir, "job job.yaml\nset sink table\nset mode complete\nrun 2000\n",
				lab.Options{Seed: &seed, DBPath: db, DumpSource: dump, Executor: exec})
			if !rep.Sink.Correct {
				t.Fatalf("report: %+v", rep.Sink)
			}
			want := countsPerDevice(t, dump, 10_000)
			got := tableCounts(t, db)
			if !maps.Equal(got, want) {
				t.Fatalf("table has %d (window, device) rows, the source %d:\n got %v\nwant %v", len(got), len(want), got, want)
			}
			if len(want) < 7 {
				t.Fatalf("only %d (window, device) pairs: the job should count 7 devices", len(want))
			}
		})
	}
}

// countsPerDevice recomputes tumbling-window counts per device from a
// --dump-source file: every event with an action counts.
func countsPerDevice(t *testing.T, path string, size int64) map[string]int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct {
			Time   int64  `json:"time"`
			Action string `json:"action"`
			Device int    `json:"device"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.Action == "" {
			continue
		}
		start := e.Time - ((e.Time%size)+size)%size
		out[fmt.Sprintf("%d device-%d", start, e.Device)]++
	}
	return out
}

// tableCounts reads table `results` of a SQLite file as "start key" → value.
func tableCounts(t *testing.T, db string) map[string]int64 {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT window_start, "key", value FROM results`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var start, value int64
		var key string
		if err := rows.Scan(&start, &key, &value); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%d %s", start, key)] = value
	}
	return out
}
