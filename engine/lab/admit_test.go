package lab_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// A run admitted with Play and then stepped bit by bit, as the terminal
// lab plays it, with a kill placed by record count in the middle, ends in
// the same report as the script run headless with that kill before the run.
func TestAdmitThenStepEqualsRun(t *testing.T) {
	const prelude = "job clicks\nset semantics at-most-once\nset restart exponential-delay\nset seed 3\nkill count[1] at 1200\n"
	want := runScript(t, prelude+"kill count[0] at 900\nrun 3000\nrun 10s\n", lab.Options{})

	s := lab.NewSession("play.lab", lab.Options{})
	defer s.Close()
	ctx := context.Background()
	exec := func(line string) {
		t.Helper()
		c, err := script.ParseLine("play.lab", 1, line)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Exec(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "set seed 3", "kill count[1] at 1200"} {
		exec(l)
	}
	c, _ := script.ParseLine("play.lab", 6, "run 3000")
	play, err := s.Play(c)
	if err != nil || play.Admitted() != 3000 {
		t.Fatalf("Play = %v, %v; want 3000 records admitted", play, err)
	}
	rt := s.Running()
	start, end := rt.NowMS(), play.UntilMS()
	if play.FromMS() != 0 || end != rt.AdmittedUntilMS() {
		t.Fatalf("the play admitted from %d to %d ms, the job's admission ends at %d", play.FromMS(), end, rt.AdmittedUntilMS())
	}
	if start >= end {
		t.Fatalf("playhead %d is not before the end of the admission %d", start, end)
	}
	// Step until the playhead passes a third of the admitted time, then
	// place a kill of count[0] at its next record, as a learner's key does.
	for rt.NowMS() < start+(end-start)/3 {
		if did, err := play.Step(); err != nil || !did {
			t.Fatalf("Step = %v, %v before the playhead reached its target", did, err)
		}
	}
	var in int64
	for _, nd := range rt.Snapshot().Nodes {
		if nd.Name == "count[0]" {
			in = nd.In
		}
	}
	if in >= 900 || in == 0 {
		t.Fatalf("count[0] processed %d records a third of the way in; the test needs between 1 and 899", in)
	}
	exec("kill count[0] at 900")
	if err := play.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	// The playhead reaches the end of the admission unless the job is
	// down then: gap recovery restarts the whole job, and a restart due
	// after the admitted time has not happened yet.
	down := slices.ContainsFunc(rt.Snapshot().Nodes, func(n engine.NodeSnapshot) bool { return n.State != engine.NodeRunning })
	if rt.NowMS() != end && !down {
		t.Errorf("after the run the playhead is at %d, want the end of the admission %d", rt.NowMS(), end)
	}
	exec("run 10s")
	rep, err := s.Report()
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := rep.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("played run differs from the headless run:\n got %s\nwant %s", got.Bytes(), want)
	}
}
