package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/internal/refmodel"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
)

// base is a multiple of every window size the boundary tests use, so that
// windows start at base.
var base = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixMilli()

// msEvents writes events "+ms action" (ms after base) as a source file.
func msEvents(t *testing.T, events ...string) string {
	t.Helper()
	var b strings.Builder
	for i, e := range events {
		var ms int64
		var action string
		if _, err := fmt.Sscanf(e, "+%d %s", &ms, &action); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `{"id":%d,"time":%d,"action":%q}`+"\n", i+1, base+ms, action)
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// boundaryRun counts 10 s tumbling windows over file with a watermark delay
// of 0, one record a second and triggers only where each admission ends,
// admitting the records in the given chunks; it returns the report and the
// results table read back with SQL.
func boundaryRun(t *testing.T, file string, mode engine.Mode, chunks ...int64) (report.Report, []refmodel.Row) {
	t.Helper()
	spec := jobspec.Spec{
		Name:   "boundary",
		Source: jobspec.Source{Rate: 1, Devices: 1, Trigger: time.Hour, Watermark: 0, File: file},
		Operators: []jobspec.Operator{
			{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 1, Partition: jobspec.PartitionHash, Window: 10 * time.Second, Slide: 10 * time.Second},
		},
	}.WithDefaults()
	cfg := engine.DefaultConfig()
	cfg.Mode, cfg.Sink, cfg.DBPath = mode, engine.SinkTable, filepath.Join(t.TempDir(), "out.db")
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range chunks {
		rt.Admit(n)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	rep := rt.Report()
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	return rep, readTable(t, cfg.DBPath, false).rows
}

// A window is final exactly when the watermark reaches its end. Flink's
// Watermark contract: "a watermark tells operators that no elements with a
// timestamp older or equal to the watermark timestamp should arrive"; a
// window [s, e) holds timestamps below e, so at watermark e nothing more can
// arrive for it. In append mode (Structured Streaming guide, "Output
// Modes": a window is appended once, when final) it is written then, and a
// millisecond earlier it is not.
func TestWindowFinalWhenTheWatermarkReachesItsEnd(t *testing.T) {
	// The second event moves the watermark to exactly base+10 s, the end of
	// the first window; it belongs to the next window (windows are [s, e)).
	_, rows := boundaryRun(t, msEvents(t, "+5000 a", "+10000 b"), engine.ModeAppend, 2)
	want := []refmodel.Row{{WindowStart: base, WindowEnd: base + 10_000, Key: "a", Value: 1}}
	if !slices.Equal(rows, want) {
		t.Fatalf("watermark at the window's end: table %v, want %v", rows, want)
	}
	_, rows = boundaryRun(t, msEvents(t, "+5000 a", "+9999 b"), engine.ModeAppend, 2)
	if len(rows) != 0 {
		t.Fatalf("watermark 1 ms before the window's end: table %v, want nothing appended", rows)
	}
}

// A record exactly at the lateness boundary: once the watermark has reached
// a window's end the window's state is gone (Structured Streaming guide,
// "Handling Late Data and Watermarking": data later than the threshold is
// dropped), so a record for it is dropped late; a record for the next
// window, at the watermark itself, still counts.
func TestRecordAtTheLatenessBoundary(t *testing.T) {
	// The first chunk's trigger sends watermark base+10 s; the next records
	// are judged by it.
	rep, rows := boundaryRun(t, msEvents(t, "+10000 a", "+9999 a", "+10000 a"), engine.ModeUpdate, 1, 2)
	want := []refmodel.Row{{WindowStart: base + 10_000, WindowEnd: base + 20_000, Key: "a", Value: 2}}
	if rep.Window.DroppedLate != 1 || !slices.Equal(rows, want) {
		t.Fatalf("dropped late %d, table %v; want 1 and %v", rep.Window.DroppedLate, rows, want)
	}
	// One millisecond less lateness: the watermark is base+9999 and the
	// record at base+9999 still counts in its window.
	rep, rows = boundaryRun(t, msEvents(t, "+9999 a", "+9999 a"), engine.ModeUpdate, 1, 1)
	want = []refmodel.Row{{WindowStart: base, WindowEnd: base + 10_000, Key: "a", Value: 2}}
	if rep.Window.DroppedLate != 0 || !slices.Equal(rows, want) {
		t.Fatalf("dropped late %d, table %v; want 0 and %v", rep.Window.DroppedLate, rows, want)
	}
}

// A record belongs to the window [s, s+size) with s <= t < s+size
// (Structured Streaming guide, "Window Operations on Event Time": windows
// are half-open): a record at a window's start is in that window, one a
// millisecond before is in the previous one.
func TestWindowAssignmentAtTheStart(t *testing.T) {
	_, rows := boundaryRun(t, msEvents(t, "+0 a", "+9999 b", "+10000 c", "+19999 d"), engine.ModeUpdate, 4)
	want := []refmodel.Row{
		{WindowStart: base, WindowEnd: base + 10_000, Key: "a", Value: 1},
		{WindowStart: base, WindowEnd: base + 10_000, Key: "b", Value: 1},
		{WindowStart: base + 10_000, WindowEnd: base + 20_000, Key: "c", Value: 1},
		{WindowStart: base + 10_000, WindowEnd: base + 20_000, Key: "d", Value: 1},
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("table %v, want %v", rows, want)
	}
}
