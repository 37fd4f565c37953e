package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// While a parallel sender is down, the windows it feeds hold their watermark
// under rollback recovery (its records will be replayed), and the snapshot
// says so. Gap recovery has no such state: without checkpoints Flink
// restarts the failed task's whole region, so every node is down with it.
func TestSnapshotShowsAHeldWatermark(t *testing.T) {
	spec := jobspec.Spec{Name: "pp", Source: jobspec.DefaultSource(), Operators: []jobspec.Operator{
		{Name: "parse", Kind: jobspec.KindParse, Parallelism: 2, Partition: jobspec.PartitionRebalance},
		{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 2, Partition: jobspec.PartitionHash, Window: 10 * time.Second},
	}}.WithDefaults()
	for semantics, held := range map[engine.Semantics]bool{engine.AtLeastOnce: true, engine.AtMostOnce: false} {
		cfg := engine.DefaultConfig()
		cfg.Semantics, cfg.Mode, cfg.Provision = semantics, engine.ModeAppend, 20*time.Second
		cfg.Restart, _ = restart.Default(restart.Exponential) // gap recovery restarts nothing unless told
		rt, err := engine.New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		rt.Admit(1000)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		before := rt.Snapshot()
		if err := rt.Kill("parse[1]"); err != nil {
			t.Fatal(err)
		}
		rt.AdmitFor(10 * time.Second)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		for i, n := range rt.Snapshot().Nodes {
			if !held {
				if n.State == engine.NodeRunning {
					t.Errorf("%s: %s is running while parse[1]'s region restarts", semantics, n.Name)
				}
				continue
			}
			if !strings.HasPrefix(n.Name, "count[") {
				continue
			}
			if n.WatermarkHeld != held {
				t.Errorf("%s: %s held=%t, want %t", semantics, n.Name, n.WatermarkHeld, held)
			}
			if moved := n.Watermark > before.Nodes[i].Watermark; moved == held {
				t.Errorf("%s: %s watermark %d before, %d after 10 s with parse[1] down", semantics, n.Name, before.Nodes[i].Watermark, n.Watermark)
			}
		}
		rt.Close()
	}
}
