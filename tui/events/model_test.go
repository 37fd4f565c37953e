package events

import (
	"flag"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func texts(m Model) []string {
	var out []string
	for _, e := range m.Entries() {
		out = append(out, e.Text)
	}
	return out
}

// A command comes before what it caused, and a note answering no command
// after it; events are in time order (the engine publishes a kill placed
// at 0.9 s after commits stamped later); routine per-batch events collapse
// into the latest of each kind, stamped no later than the clock of a run
// that plays, and a failure between two batches keeps them apart.
func TestEventsOrderAndCollapse(t *testing.T) {
	m := New(styles.New(styles.ByName("default", true)))
	m.SetSize(40, 12)
	m.SetFrame(bridge.Frame{ClockMS: 1000, Playing: true,
		Results: []bridge.Result{{Info: "run finished at t 0:01.0"}, {Line: "kill count[1]"}},
		Events: []bus.Event{
			{TimeMS: 800, Kind: bus.EventBatchCommitted, Text: "batch 1 committed: 0 rows"},
			{TimeMS: 950, Kind: bus.EventBatchCommitted, Text: "batch 2 committed: 0 rows"},
			{TimeMS: 29_000, Kind: bus.EventWatermark, Text: "watermark 12:00:01"},
			{TimeMS: 900, Kind: bus.EventNodeKilled, Text: "count[1] killed"},
			{TimeMS: 29_000, Kind: bus.EventWatermark, Text: "watermark 12:00:02"},
			{TimeMS: 29_000, Kind: bus.EventRunQuiet, Text: "quiet at offset 300"},
			{TimeMS: 29_000, Kind: bus.EventAdmitted, Text: "100 records admitted"},
			{TimeMS: 29_000, Kind: bus.EventBatchCommitted, Text: "batch 3 committed: 0 rows"},
		}})
	got := strings.Join(texts(m), " | ")
	want := "> kill count[1] | batch 1 committed: 0 rows | count[1] killed | watermark 12:00:02 | batch 3 committed: 0 rows | run finished at t 0:01.0"
	if got != want {
		t.Errorf("entries\n got %s\nwant %s", got, want)
	}
	for _, e := range m.Entries() {
		if e.TimeMS > 1000 {
			t.Errorf("%q stamped %d, after the clock of the playing run", e.Text, e.TimeMS)
		}
	}
	if batch3 := m.Entries()[len(m.Entries())-2]; batch3.repeat != 1 {
		t.Errorf("batch 3 stands for %d earlier batches, want 1 (batch 2)", batch3.repeat)
	}
	if v := strings.Join(m.Lines(), "\n"); !strings.Contains(v, "(×2)") {
		t.Errorf("no count shown:\n%s", v)
	}
}
