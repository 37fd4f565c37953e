package refmodel

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// oneWindow is a job of one 10 s tumbling window-count over a source of one
// record a second whose triggers come only at the end of each admission.
func oneWindow(delay time.Duration) jobspec.Spec {
	src := jobspec.DefaultSource()
	src.Rate, src.Trigger, src.Watermark = 1, time.Hour, delay
	return jobspec.Spec{Name: "w", Source: src, Operators: []jobspec.Operator{
		{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 1, Window: 10 * time.Second, Slide: 10 * time.Second}}}
}

func events(times ...int64) []Event {
	var out []Event
	for i, t := range times {
		out = append(out, Event{ID: uint64(i + 1), Time: t, Action: "a", Key: "a", Offset: int64(i)})
	}
	return out
}

// Structured Streaming guide, "Handling Late Data and Watermarking": a
// window's state is dropped once the watermark passes its end, so a record
// for it is late. Here the watermark, sent at the trigger after the first
// record, is exactly the end of window [0, 10 s): the record at 0 s that
// follows is dropped; with a 1 ms longer delay it counts.
func TestLatenessBoundary(t *testing.T) {
	adm := NewAdmissions(1)
	adm.Records(1)
	adm.Records(2)
	ev := events(10_000, 0, 10_001)
	for _, c := range []struct {
		delay   time.Duration
		mode    string
		dropped int64
		rows    []Row
	}{
		{0, "update", 1, []Row{{10_000, 20_000, "a", 2}}},
		{0, "append", 1, nil},
		{0, "complete", 0, []Row{{0, 10_000, "a", 1}, {10_000, 20_000, "a", 2}}},
		{time.Millisecond, "update", 0, []Row{{0, 10_000, "a", 1}, {10_000, 20_000, "a", 2}}},
		{time.Millisecond, "append", 0, []Row{{0, 10_000, "a", 1}}},
	} {
		out, err := Run(oneWindow(c.delay), c.mode, ev, adm.Bounds)
		if err != nil {
			t.Fatal(err)
		}
		if out.DroppedLate != c.dropped || !slices.Equal(out.Rows, c.rows) {
			t.Errorf("delay %v %s: dropped %d rows %v, want %d %v", c.delay, c.mode, out.DroppedLate, out.Rows, c.dropped, c.rows)
		}
	}
}

// A sliding window of 10 s every 5 s holds t in the two windows whose
// start is a multiple of 5 s in (t-10 s, t]; negative times floor.
func TestSlidingWindows(t *testing.T) {
	spec := oneWindow(time.Hour)
	spec.Operators[0].Slide = 5 * time.Second
	adm := NewAdmissions(1)
	adm.Records(3)
	out, err := Run(spec, "update", events(10_000, 9_999, -1), adm.Bounds)
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{{-10_000, 0, "a", 1}, {-5_000, 5_000, "a", 1}, {0, 10_000, "a", 1}, {5_000, 15_000, "a", 2}, {10_000, 20_000, "a", 1}}
	if !slices.Equal(out.Rows, want) {
		t.Fatalf("rows %v, want %v", out.Rows, want)
	}
}

// Time triggers: with rate 1000 the record at offset off arrives at off ms;
// a trigger every 10 ms fires before offsets 10, 20, …, and the watermark
// it carries judges the records after it.
func TestTimeTriggers(t *testing.T) {
	spec := oneWindow(0)
	spec.Source.Rate, spec.Source.Trigger = 1000, 10*time.Millisecond
	times := make([]int64, 12)
	times[9] = 20_000 // read before the trigger at 10 ms
	times[10] = 5_000 // after it: window [0, 10 s) is final, late
	times[11] = 25_000
	adm := NewAdmissions(1000)
	adm.Records(12)
	out, err := Run(spec, "update", events(times...), adm.Bounds)
	if err != nil {
		t.Fatal(err)
	}
	if out.DroppedLate != 1 || out.Watermark != 25_000 {
		t.Fatalf("dropped %d, watermark %d", out.DroppedLate, out.Watermark)
	}
	// The late record is left out of the one window it falls in.
	if want := []Row{{0, 10_000, "a", 1}}; !slices.Equal(out.Late, want) {
		t.Fatalf("late %v, want %v", out.Late, want)
	}
}

// Parse keys by the action after map lower-cases it; a filter drops by the
// action it sees.
func TestStatelessOperators(t *testing.T) {
	src := jobspec.DefaultSource()
	spec := jobspec.Spec{Name: "s", Source: src, Operators: []jobspec.Operator{
		{Kind: jobspec.KindMap}, {Kind: jobspec.KindParse}, {Kind: jobspec.KindFilter, Drop: []string{"scroll"}}}}
	ev := []Event{{ID: 1, Action: "Open", Key: "Open"}, {ID: 2, Action: "scroll", Key: "scroll", Offset: 1}, {ID: 3, Action: "SCROLL", Key: "SCROLL", Offset: 2}}
	adm := NewAdmissions(src.Rate)
	adm.Records(3)
	out, err := Run(spec, "append", ev, adm.Bounds)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Events) != 1 || out.Events[0].Action != "open" || out.Events[0].Key != "open" {
		t.Fatalf("events %+v", out.Events)
	}
}

func TestReadDump(t *testing.T) {
	ev, err := ReadDump(strings.NewReader(`{"id":5,"time":7,"action":"x","offset":0}` + "\n"))
	if err != nil || len(ev) != 1 || ev[0].Key != "x" || ev[0].ID != 5 {
		t.Fatalf("%+v %v", ev, err)
	}
	if _, err := ReadDump(strings.NewReader("{")); err == nil {
		t.Fatal("a broken line reads")
	}
}

// For admits what arrives before the new time: at 3 records a second,
// 2 s admits offsets 0–5 (arrivals 0, 333, 666, 1000, 1333, 1666).
func TestAdmissionsFor(t *testing.T) {
	a := NewAdmissions(3)
	a.For(2 * time.Second)
	a.Records(2)
	a.For(time.Millisecond)
	if !slices.Equal(a.Bounds, []int64{6, 8, 8}) {
		t.Fatalf("bounds %v", a.Bounds)
	}
}
