package bridge

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/bus"
)

// forwardLines start a run with a failure and a recovery in it, long
// enough that a fast-forward of it takes many slices.
var forwardLines = []string{"set semantics at-least-once", "kill count[0] at 3000", "run 20000"}

// startForwardRun opens clicks with forwardLines on a bridge whose ticks
// take steps slices, and plays the run for half a second of wall time.
// It returns the bridge, the time of its last tick and the events heard.
func startForwardRun(t *testing.T, steps int) (*Bridge, time.Time, []bus.Event) {
	t.Helper()
	b := newBridge(t, Options{Job: "clicks", Seed: 4, StepBudget: steps})
	for _, line := range forwardLines {
		b.Handle(Request{Kind: Line, Line: line})
	}
	at := t0
	var heard []bus.Event
	for range 15 {
		ticks(b, &at, 1, time.Second/30)
		heard = append(heard, b.Frame().Events...)
	}
	if !b.Playing() {
		t.Fatal("the run is not playing")
	}
	return b, at, heard
}

// ended is what a finished lab shows: the report as JSON, the recording
// and every event heard.
type ended struct {
	report []byte
	script []string
	events []bus.Event
}

func endOf(t *testing.T, b *Bridge, heard []bus.Event) ended {
	t.Helper()
	f := b.Frame()
	if f.Missed != 0 {
		t.Fatalf("%d events missed: the comparison would not see them", f.Missed)
	}
	rep, err := b.Session().Report()
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(rep)
	return ended{report: js, script: b.Script(), events: append(heard, f.Events...)}
}

// synchronousEnd plays the run as startForwardRun does, then finishes it
// at once, as the fast-forward key did before it took slices.
func synchronousEnd(t *testing.T) ended {
	b, _, heard := startForwardRun(t, 200_000)
	b.endPlay()
	return endOf(t, b, heard)
}

func sameEnd(t *testing.T, got, want ended) {
	t.Helper()
	if !bytes.Equal(got.report, want.report) {
		t.Errorf("the fast-forwarded report differs from the synchronous one\ngot  %s\nwant %s", got.report, want.report)
	}
	if !slices.Equal(got.script, want.script) {
		t.Errorf("recording %q, want %q", got.script, want.script)
	}
	if len(got.events) != len(want.events) || !slices.Equal(got.events, want.events) {
		t.Errorf("%d events heard, want the %d of the synchronous finish", len(got.events), len(want.events))
	}
}

// A fast-forward in slices of a few thousand steps ends where finishing
// the run at once does: the same report byte for byte, the same recording
// (which replays to it) and the same events.
func TestFastForwardEndsAsASynchronousFinish(t *testing.T) {
	want := synchronousEnd(t)
	b, _, heard := startForwardRun(t, 5_000)
	b.Handle(Request{Kind: Finish})
	at := b.pace.lastTick
	slicesTaken := 0
	for ; b.Playing(); slicesTaken++ {
		ticks(b, &at, 1, time.Second/30)
		heard = append(heard, b.Frame().Events...)
	}
	if slicesTaken < 10 {
		t.Fatalf("the fast-forward took %d ticks: too few slices to test splitting", slicesTaken)
	}
	sameEnd(t, endOf(t, b, heard), want)
	replaySame(t, b)
}

// While a run is fast-forwarded every tick publishes a frame that says
// so, with the records read growing, and no tick takes more steps than a
// slice; the last frame shows the run over.
func TestFastForwardShowsProgressEveryTick(t *testing.T) {
	const slice = 5_000
	b, at, _ := startForwardRun(t, slice)
	b.Publish()
	<-b.Frames()
	b.Handle(Request{Kind: Finish})
	var lastDone, lastSteps int64 = -1, b.job.Steps()
	frames := 0
	for b.Playing() {
		ticks(b, &at, 1, time.Second/30)
		if took := b.job.Steps() - lastSteps; took > slice {
			t.Fatalf("tick %d took %d steps, more than a slice of %d", frames, took, slice)
		}
		lastSteps = b.job.Steps()
		b.Publish()
		var f Frame
		select {
		case f = <-b.Frames():
		default:
			t.Fatalf("tick %d published no frame", frames)
		}
		frames++
		if !f.Playing {
			break
		}
		if !f.Forwarding || f.ForwardTotal != 20_000 {
			t.Fatalf("tick %d: forwarding %v, total %d; want the 20000 records being finished", frames, f.Forwarding, f.ForwardTotal)
		}
		if f.ForwardDone < lastDone || f.ForwardDone > f.ForwardTotal {
			t.Fatalf("tick %d: %d of %d records read, after %d", frames, f.ForwardDone, f.ForwardTotal, lastDone)
		}
		lastDone = f.ForwardDone
	}
	if frames < 10 || lastDone < 10_000 {
		t.Errorf("%d frames during the fast-forward, the last at %d records: want many, most of the run", frames, lastDone)
	}
}

// A pause stops a fast-forward where it is: ticks take no step and the run
// is still in flight. A resume goes on with it to the end a synchronous
// finish reaches.
func TestPauseStopsAFastForward(t *testing.T) {
	want := synchronousEnd(t)
	b, at, heard := startForwardRun(t, 5_000)
	b.Handle(Request{Kind: Finish})
	for range 3 {
		ticks(b, &at, 1, time.Second/30)
		heard = append(heard, b.Frame().Events...)
	}
	b.Handle(Request{Kind: Pause})
	stopped := b.job.Steps()
	for range 10 {
		ticks(b, &at, 1, time.Second/30)
	}
	f := b.Frame()
	heard = append(heard, f.Events...)
	if b.job.Steps() != stopped || !f.Paused || !f.Playing || !f.Forwarding {
		t.Fatalf("paused: %d steps taken, paused %v, playing %v, forwarding %v; want none taken and the run held",
			b.job.Steps()-stopped, f.Paused, f.Playing, f.Forwarding)
	}
	b.Handle(Request{Kind: Resume})
	for i := 0; b.Playing(); i++ {
		if i > 10_000 {
			t.Fatal("the resumed fast-forward did not end")
		}
		ticks(b, &at, 1, time.Second/30)
		heard = append(heard, b.Frame().Events...)
	}
	sameEnd(t, endOf(t, b, heard), want)
}

// Time at ×max takes one slice of steps a tick too, admitting the next
// quantum once the last is quiet: the clock moves on frame by frame, and
// the recording replays to the live report.
func TestMaxSpeedTakesASliceATick(t *testing.T) {
	const slice = 500
	b := newBridge(t, Options{Job: "clicks", Seed: 2, Speed: Max, Running: true, StepBudget: slice})
	at := t0
	b.Tick(at)
	first := b.Frame()
	lastSteps, lastClock := first.Snap.Steps, first.ClockMS
	for i := range 60 {
		ticks(b, &at, 1, time.Second/30)
		f := b.Frame()
		if took := f.Snap.Steps - lastSteps; took > slice {
			t.Fatalf("tick %d took %d steps, more than a slice of %d", i, took, slice)
		}
		if f.ClockMS < lastClock {
			t.Fatalf("tick %d: the clock went back from %d to %d", i, lastClock, f.ClockMS)
		}
		lastSteps, lastClock = f.Snap.Steps, f.ClockMS
	}
	runs := 0
	for _, line := range b.Script() {
		if strings.HasPrefix(line, "run ") {
			runs++
		}
	}
	if runs < 2 || lastClock < 60_000 {
		t.Fatalf("%d quanta admitted, clock at %d ms after 60 ticks at ×max: want several minutes' worth", runs, lastClock)
	}
	b.Handle(Request{Kind: Pause})
	b.finishQuantum()
	replaySame(t, b)
}
