package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/tui/bridge"
)

// At ×max the run that starts the job shows its batches in the events
// pane as it is fast-forwarded, as every later run does.
func TestFirstRunAtMaxSpeedFillsTheEventsPane(t *testing.T) {
	b, err := bridge.New(bridge.Options{Job: "clicks", Seed: 1, Speed: bridge.Max, Clock: bridge.NewManualClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := labModel(t, 120, 40, nil)
	b.Handle(bridge.Request{Kind: bridge.Line, Line: "run 2000"})
	m.applyFrame(b.Frame())
	for at := t0; b.Playing(); {
		at = at.Add(100 * time.Millisecond)
		b.Tick(at)
		m.applyFrame(b.Frame())
	}
	var batches []string
	for _, e := range m.events.Entries() {
		if strings.HasPrefix(e.Text, "batch ") {
			batches = append(batches, e.Text)
		}
	}
	if len(batches) == 0 {
		t.Errorf("no batch in the events pane after the first run 2000 at ×max: %q", texts(m))
	}
}
