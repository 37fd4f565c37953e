package bridge

import (
	"context"
	"slices"
	"testing"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// heardHeadless is what a subscription taken before anything runs hears
// of each line of a session begun with job and seed, one slice a line:
// the events the lab's panes must show.
func heardHeadless(t *testing.T, job string, seed int64, lines ...string) [][]bus.Event {
	t.Helper()
	sess := lab.NewSession(sessionFile, lab.Options{})
	t.Cleanup(func() { sess.Close() })
	sub := sess.Subscribe(subscriptionSize)
	prelude := place{seed: seed}.prelude(job, "")
	var out [][]bus.Event
	for i, line := range append(prelude, lines...) {
		c, err := script.ParseLine(sessionFile, i+1, line)
		if err == nil {
			err = sess.Exec(context.Background(), c)
		}
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if i >= len(prelude) {
			evs, _ := sub.Drain()
			out = append(out, evs)
		}
	}
	return out
}

// sameEvents fails t unless the frame's events are the ones wanted.
func sameEvents(t *testing.T, what string, got, want []bus.Event) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the headless session heard nothing: the test proves nothing", what)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: the frame has %d events, want the %d the session published (first wanted %+v)", what, len(got), len(want), want[0])
	}
}

// At ×max a typed run is fast-forwarded; the one that starts the job is
// shown like any later one, every event it caused in the frames it takes.
func TestFirstRunAtMaxSpeedIsHeard(t *testing.T) {
	want := heardHeadless(t, "clicks", 1, "run 2000", "run 2000")
	b := newBridge(t, Options{Job: "clicks", Seed: 1, Speed: Max})
	b.Handle(Request{Kind: Line, Line: "run 2000"})
	sameEvents(t, "first run", tickToEnd(t, b), want[0])
	b.Handle(Request{Kind: Line, Line: "run 2000"})
	sameEvents(t, "second run", tickToEnd(t, b), want[1])
}

// An exercise's scenario sets the stage with runs carried out at once:
// its first run's events are in the first frame.
func TestScenarioFirstRunIsHeard(t *testing.T) {
	want := heardHeadless(t, "clicks", 7, "run 1500")
	b := newBridge(t, Options{Seed: 1})
	b.Handle(Request{Kind: OpenSession, Job: "clicks", Seed: 7, Workspace: t.TempDir(), Lines: []string{"run 1500"}})
	sameEvents(t, "scenario's run", b.Frame().Events, want[0])
}

// A kill typed before any run starts the job: the kill itself is heard.
func TestKillBeforeAnyRunIsHeard(t *testing.T) {
	want := heardHeadless(t, "clicks", 1, "kill count[1]")
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	b.Handle(Request{Kind: Line, Line: "kill count[1]"})
	sameEvents(t, "kill", b.Frame().Events, want[0])
}
