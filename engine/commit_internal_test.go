package engine

import (
	"context"
	"testing"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// Two-phase commit (Flink documentation, "Fault Tolerance Guarantees of
// Data Sources and Sinks", TwoPhaseCommitSinkFunction): at the barrier the
// sink only pre-commits; its transaction commits once the checkpoint has
// completed, that is once every task has acknowledged it. A sink barrier of
// a checkpoint that a task never acknowledged (it died meanwhile) leaves
// the transaction pending, for restore to abort.
func TestSinkBarrierOfAnIncompleteCheckpointCommitsNothing(t *testing.T) {
	spec, _ := jobspec.Builtin("passthrough")
	cfg := DefaultConfig()
	cfg.Semantics, cfg.Sink, cfg.Mode = ExactlyOnce, SinkTable, ModeAppend
	r, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Admit(100)
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := r.writer.(*tableSink)
	before, err := ts.store.Count()
	if err != nil || before == 0 {
		t.Fatalf("the first run committed %d rows (%v)", before, err)
	}
	c := r.recovery.ckpt
	id := r.cur.ckpt + 1
	c.begin(id, r.cur.pos)
	// Only the sink acknowledges: map and filter never do.
	r.sink.buf = append(r.sink.buf, r.src.At(100))
	c.ack(r.g.nodes[len(r.g.nodes)-1], id)
	after, err := ts.store.Count()
	if err != nil {
		t.Fatal(err)
	}
	pending, err := ts.store.Pending()
	if err != nil {
		t.Fatal(err)
	}
	if after != before || len(pending) != 1 {
		t.Fatalf("the sink's barrier of checkpoint %d, which no task acknowledged: %d rows committed (before %d), pending %v",
			id, after, before, pending)
	}
}
