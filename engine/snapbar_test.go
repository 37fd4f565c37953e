package engine_test

import (
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// Stepping a checkpointed job, a snapshot shows barriers waiting at nodes.
func TestSnapshotShowsBarriers(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.CheckpointInterval = engine.ExactlyOnce, 50
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(500)
	seen := false
	for range 5000 {
		if ok, _ := rt.Step(); !ok {
			break
		}
		for _, n := range rt.Snapshot().Nodes {
			seen = seen || n.Barriers > 0
		}
	}
	if !seen {
		t.Fatal("no barrier ever seen waiting at a node")
	}
}
