package lab_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// execLines runs lines on s, failing the test on an error.
func execLines(t *testing.T, s *lab.Session, lines ...string) {
	t.Helper()
	for i, l := range lines {
		c, err := script.ParseLine("t.lab", i+1, l)
		if err == nil {
			err = s.Exec(context.Background(), c)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A subscription taken before the job starts hears what one taken at once
// after the start hears: every event from then on, and not the start's
// own.
func TestSubscribeBeforeTheStartHearsWhatOneAfterItHears(t *testing.T) {
	setup := []string{"job clicks", "set semantics at-least-once"}
	runs := []string{"kill count[1] at 300", "run 2000", "run 10s"}

	early := lab.NewSession("t.lab", lab.Options{})
	defer early.Close()
	before := early.Subscribe(1 << 16)
	execLines(t, early, setup...)
	if early.Started() || early.Running() != nil {
		t.Fatal("set and job lines started the job")
	}
	execLines(t, early, runs...)

	late := lab.NewSession("t.lab", lab.Options{})
	defer late.Close()
	execLines(t, late, setup...)
	if err := late.Start(); err != nil || !late.Started() {
		t.Fatalf("Start = %v, started %v", err, late.Started())
	}
	after := late.Subscribe(1 << 16)
	execLines(t, late, runs...)

	got, _ := before.Drain()
	want, _ := after.Drain()
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("subscribed before the start: %d events, after it: %d; want the same, and some", len(got), len(want))
	}
	if slices.ContainsFunc(got, func(e bus.Event) bool { return e.Kind == bus.EventJobStarted }) {
		t.Error("a subscription taken before the start heard the start")
	}
	late.Unsubscribe(after)
	execLines(t, late, "run 1s")
	if evs, _ := after.Drain(); len(evs) != 0 {
		t.Errorf("an unsubscribed subscription heard %d events", len(evs))
	}
}

// StartFor places the engine's refusal at the command that needed the
// job; Start leaves it unplaced.
func TestStartForPlacesTheRefusalAtTheCommand(t *testing.T) {
	s := lab.NewSession("t.lab", lab.Options{})
	defer s.Close()
	execLines(t, s, "set semantics exactly-once", "set ha none")
	raw := s.Start()
	var unplaced *poserr.Error
	if !errors.As(raw, &unplaced) || unplaced.Line != 0 {
		t.Fatalf("Start = %v; want a refusal at no line (exactly once needs preserved input)", raw)
	}
	c, _ := script.ParseLine("t.lab", 7, "run 100")
	err := s.StartFor(c)
	var at *poserr.Error
	if !errors.As(err, &at) || at.Line != 7 || !errors.Is(err, lab.ErrBadInput) {
		t.Fatalf("StartFor = %v; want bad input at line 7", err)
	}
	if s.Started() {
		t.Fatal("a refused job started")
	}
}

// Preview shows the configured job's stages and nodes without starting it,
// and says when the engine refuses the configuration.
func TestPreviewShowsTheJobWithoutStartingIt(t *testing.T) {
	s := lab.NewSession("t.lab", lab.Options{})
	defer s.Close()
	execLines(t, s, "job clicks", "set source.rate 50")
	snap, ok := s.Preview()
	if !ok || snap.Job != "clicks" || len(snap.Nodes) == 0 {
		t.Fatalf("preview %+v, %v", snap, ok)
	}
	if s.Started() {
		t.Fatal("the preview started the job")
	}
	execLines(t, s, "set semantics exactly-once", "set ha none")
	if _, ok := s.Preview(); ok {
		t.Fatal("a configuration the engine refuses has a preview")
	}
}
