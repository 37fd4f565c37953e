package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// TestActiveStandbyFailuresAreInTheLog: a node that fails over to its
// active standby has failed all the same; the log says so before the
// takeover, as for any other scheme, so that the events pane, the charts'
// kill marks and a grader counting failures see it. A second failure
// before the next standby is up fails the job, and is in the log too.
func TestActiveStandbyFailuresAreInTheLog(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := DefaultConfig()
	cfg.Semantics, cfg.HA = AtLeastOnce, HAActiveStandby
	rt, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	sub := rt.Bus().Subscribe(1 << 16)
	for _, at := range []int64{500, 501} {
		if err := rt.KillAt("count[0]", at); err != nil {
			t.Fatal(err)
		}
	}
	rt.Admit(2000)
	if err := rt.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "no active standby left") {
		t.Fatalf("the second failure should fail the job, got %v", err)
	}
	events, _ := sub.Drain()
	var seen []string
	for _, e := range events {
		switch e.Kind {
		case bus.EventNodeKilled, bus.EventNodeRestarted, bus.EventJobFailed:
			seen = append(seen, string(e.Kind)+" "+e.Node)
		}
	}
	want := []string{"node-killed count[0]", "node-restarted count[0]", "node-killed count[0]", "job-failed "}
	if strings.Join(seen, ", ") != strings.Join(want, ", ") {
		t.Fatalf("failure events %q, want %q", seen, want)
	}
}
