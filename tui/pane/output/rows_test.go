package output

import (
	"flag"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func rec(key string, v int64) engine.Record {
	return engine.Record{Offset: -1, WindowStart: 1000, WindowEnd: 2000, Key: key, Value: v}
}

func TestNewRows(t *testing.T) {
	a, b, c, d := rec("a", 1), rec("b", 1), rec("a", 2), rec("c", 1)
	for _, tt := range []struct {
		prev, cur []engine.Record
		want      int
	}{
		{nil, []engine.Record{a, b}, 2},
		{[]engine.Record{a, b}, []engine.Record{a, b}, 0},
		{[]engine.Record{a, b}, []engine.Record{a, b, c}, 1},
		{[]engine.Record{a, b, c}, []engine.Record{b, c, d}, 1}, // the ring moved on
		{[]engine.Record{a, b}, []engine.Record{c, d}, 2},       // more than a ring behind
	} {
		if got := newRows(tt.prev, tt.cur); len(got) != tt.want {
			t.Errorf("newRows(%v, %v) = %v, want %d rows", tt.prev, tt.cur, got, tt.want)
		}
	}
}

func TestRepeatsAreMarkedAndTablesUpdateInPlace(t *testing.T) {
	m := New(styles.New(styles.Mono))
	m.SetSize(40, 10)
	f := bridge.Frame{Gen: 1, ClockMS: 1000, Snap: engine.Snapshot{Sink: engine.SinkTable, Mode: engine.ModeUpdate,
		Rows: []engine.Record{rec("a", 1), rec("b", 1)}}}
	m.SetFrame(f)
	f.ClockMS, f.Snap.Rows = 5000, []engine.Record{rec("a", 1), rec("b", 1), rec("a", 2), rec("a", 2)}
	m.SetFrame(f)
	if len(m.order) != 2 || m.table[cellKey{1000, "a"}].rec.Value != 2 {
		t.Fatalf("table %v", m.order)
	}
	if c := m.table[cellKey{1000, "a"}]; c.times != 2 || c.changed != 5000 {
		t.Errorf("a: times %d changed %d", c.times, c.changed)
	}
	if c := m.table[cellKey{1000, "b"}]; c.changed != 1000 {
		t.Errorf("b changed at %d, was not rewritten", c.changed)
	}
	if m.log[len(m.log)-1].times != 2 {
		t.Error("the repeated row is not marked ×2 in the log")
	}
}

// A narrow pane keeps each row's key and count and leaves out its time.
func TestNarrowPaneKeepsTheCounts(t *testing.T) {
	for _, sink := range []engine.SinkKind{engine.SinkLog, engine.SinkTable} {
		m := New(styles.New(styles.Mono))
		m.SetSize(16, 8)
		m.SetFrame(bridge.Frame{Gen: 1, ClockMS: 1000, Snap: engine.Snapshot{Sink: sink, Mode: engine.ModeUpdate,
			Rows: []engine.Record{rec("close", 13), rec("scroll", 245)}}})
		view := ansi.Strip(m.View())
		for _, want := range []string{"close      13", "scroll    245"} {
			if !strings.Contains(view, want) {
				t.Errorf("%s sink: %q not shown in a 16-wide pane:\n%s", sink, want, view)
			}
		}
	}
}
