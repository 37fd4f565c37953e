package events

import (
	"flag"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

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
// after it; events keep the engine's order, which is virtual time's;
// routine per-batch events collapse into the latest of each kind, and a
// failure between two batches keeps them apart.
func TestEventsOrderAndCollapse(t *testing.T) {
	m := New(styles.New(styles.ByName("default", true)))
	m.SetSize(40, 12)
	m.SetFrame(bridge.Frame{Gen: 1, ClockMS: 1000, Playing: true,
		Results: []bridge.Result{{Info: "run finished at t 0:01.0"}, {Line: "kill count[1]"}},
		Events: []bus.Event{
			{TimeMS: 1000, Kind: bus.EventBatchCommitted, Text: "batch 1 committed: 0 rows"},
			{TimeMS: 1000, Kind: bus.EventNodeKilled, Text: "count[1] killed"},
			{TimeMS: 1200, Kind: bus.EventBatchCommitted, Text: "batch 2 committed: 0 rows"},
			{TimeMS: 1300, Kind: bus.EventWatermark, Text: "watermark 12:00:01"},
			{TimeMS: 1300, Kind: bus.EventWatermark, Text: "watermark 12:00:02"},
			{TimeMS: 1400, Kind: bus.EventRunQuiet, Text: "quiet at offset 300"},
			{TimeMS: 1400, Kind: bus.EventAdmitted, Text: "100 records admitted"},
			{TimeMS: 1500, Kind: bus.EventBatchCommitted, Text: "batch 3 committed: 0 rows"},
		}})
	got := strings.Join(texts(m), " | ")
	want := "> kill count[1] | batch 1 committed: 0 rows | count[1] killed | watermark 12:00:02 | batch 3 committed: 0 rows | run finished at t 0:01.0"
	if got != want {
		t.Errorf("entries\n got %s\nwant %s", got, want)
	}
	if batch3 := m.Entries()[len(m.Entries())-2]; batch3.repeat != 1 {
		t.Errorf("batch 3 stands for %d earlier batches, want 1 (batch 2)", batch3.repeat)
	}
	if v := strings.Join(m.Lines(), "\n"); !strings.Contains(v, "(×2)") {
		t.Errorf("no count shown:\n%s", v)
	}
}

// One clock: a kill typed at 43.7 s whose node got only to 43.6 s is told
// after the kill, never stamped before it; the lines of a session never go
// back in time, and a new session's lines follow the old one's, however
// early its clock starts (a failed job's last line is not moved below the
// next job's start).
func TestEventsReadAsOneClock(t *testing.T) {
	m := New(styles.New(styles.ByName("default", true)))
	m.SetSize(60, 20)
	m.SetFrame(bridge.Frame{Gen: 1, ClockMS: 43_700,
		Results: []bridge.Result{{Line: "kill count[0]"}},
		Events:  []bus.Event{{TimeMS: 43_600, Kind: bus.EventNodeKilled, Text: "count[0] killed after 412 records"}}})
	m.SetFrame(bridge.Frame{Gen: 1, ClockMS: 45_000,
		Events: []bus.Event{{TimeMS: 44_900, Kind: bus.EventJobFailed, Text: "job failed: count[0] failed"}}})
	m.SetFrame(bridge.Frame{Gen: 2, ClockMS: 0,
		Results: []bridge.Result{{Line: "job clicks"}},
		Events:  []bus.Event{{TimeMS: 0, Kind: bus.EventJobStarted, Text: "job clicks started"}}})
	got := strings.Join(texts(m), " | ")
	want := "> kill count[0] | count[0] killed after 412 records | job failed: count[0] failed | > job clicks | job clicks started"
	if got != want {
		t.Fatalf("entries\n got %s\nwant %s", got, want)
	}
	es := m.Entries()
	if es[1].TimeMS < es[0].TimeMS {
		t.Errorf("killed stamped %d before the kill at %d", es[1].TimeMS, es[0].TimeMS)
	}
	if es[2].TimeMS != 44_900 || es[4].TimeMS != 0 {
		t.Errorf("job failed at %d, the next job started at %d: each is stamped when it happened", es[2].TimeMS, es[4].TimeMS)
	}
}

// A routine event that collapses into an earlier one leaves a copy of the
// model taken before it as it was: a Bubble Tea model is a value, and an
// earlier one (a frame drawn, a test's before) must not change under it.
func TestCollapsingLeavesEarlierCopiesAlone(t *testing.T) {
	m := New(styles.New(styles.ByName("default", true)))
	m.SetSize(40, 12)
	m.SetFrame(bridge.Frame{Gen: 1, ClockMS: 1000, Events: []bus.Event{
		{TimeMS: 1000, Kind: bus.EventWatermark, Text: "watermark 12:00:01"},
		{TimeMS: 1000, Kind: bus.EventBatchCommitted, Text: "batch 1 committed: 0 rows"},
	}})
	before := m
	want := strings.Join(texts(before), " | ")
	m.SetFrame(bridge.Frame{Gen: 1, ClockMS: 1100, Events: []bus.Event{
		{TimeMS: 1100, Kind: bus.EventWatermark, Text: "watermark 12:00:02"},
	}})
	if got := strings.Join(texts(before), " | "); got != want {
		t.Errorf("the copy taken before changed:\n got %s\nwant %s", got, want)
	}
	if got, want := strings.Join(texts(m), " | "), "batch 1 committed: 0 rows | watermark 12:00:02"; got != want {
		t.Errorf("after the collapse\n got %s\nwant %s", got, want)
	}
}

// A routine line too long for a narrow pane (the lab's is 25 cells wide at 80×24) reads in
// its short form, never cut: the batch's number and rows, the watermark's
// time and the late records' count all survive, with the count of the
// lines it stands for where it fits; where the pane is wide the whole
// sentence reads on one line.
func TestRoutineLinesKeepTheirNumbersWhenNarrow(t *testing.T) {
	frame := bridge.Frame{Gen: 1, ClockMS: 3800, Events: []bus.Event{
		{TimeMS: 3000, Kind: bus.EventBatchCommitted, Text: "batch 2 committed: 9 rows"},
		{TimeMS: 3000, Kind: bus.EventBatchCommitted, Text: "batch 3 committed: 47 rows"},
		{TimeMS: 3000, Kind: bus.EventWatermark, Text: "watermark 11:59:57"},
		{TimeMS: 3800, Kind: bus.EventDroppedLate, Text: "2 records dropped late so far"},
		{TimeMS: 3800, Kind: bus.EventKillUnfired, Text: "kill count[1] at 900 has not fired: count[1] has processed 412 records so far"},
	}}
	for _, c := range []struct {
		w    int
		want []string
	}{
		{25, []string{"0:03.0 batch 3: 47 rows 0:03.0", "wm 11:59:57", "2 dropped late", "412 records so far"}},
		{36, []string{"0:03.0 batch 3: 47 rows (×2)", "0:03.0 watermark 11:59:57", "0:03.8 2 dropped late", "412 records so far"}},
		{100, []string{"0:03.0 batch 3 committed: 47 rows (×2)", "0:03.0 watermark 11:59:57", "0:03.8 2 records dropped late so far", "has processed 412 records so far"}},
	} {
		m := New(styles.New(styles.ByName("default", true)))
		m.SetSize(c.w, 20)
		m.SetFrame(frame)
		inner := c.w - 2
		var body []string
		for _, l := range m.Lines()[1 : len(m.Lines())-1] {
			l = strings.TrimSpace(strings.Trim(ansi.Strip(l), "│┃"))
			if strings.HasSuffix(l, "…") {
				t.Errorf("width %d: a line is cut: %q", c.w, l)
			}
			if n := ansi.StringWidth(l); n > inner {
				t.Errorf("width %d: %q is %d cells wide", c.w, l, n)
			}
			body = append(body, l)
		}
		shown := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
		for _, w := range c.want {
			if !strings.Contains(shown, w) {
				t.Errorf("width %d: %q does not read in the pane:\n%s", c.w, w, strings.Join(body, "\n"))
			}
		}
	}
}
