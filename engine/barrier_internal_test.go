package engine

import (
	"testing"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// eagerRouter hands each element straight to the nodes downstream, which
// process it before the sender goes on: the interleaving in which every
// task downstream outruns the source, one the concurrent executor allows.
type eagerRouter struct {
	g       *graph
	n       *node
	routers map[*node]*eagerRouter
	rr      int
}

func (e *eagerRouter) emit(r Record) {
	next := e.g.stages[e.n.stage+1].nodes[e.g.target(e.n, &r, &e.rr)]
	next.receive(e.g.inputIndex(e.n), element{kind: kindRecord, rec: r}, e.routers[next])
}

func (e *eagerRouter) broadcast(el element) {
	for _, d := range e.g.downstream(e.n) {
		d.receive(e.g.inputIndex(e.n), el, e.routers[d])
	}
}

// A barrier is never acknowledged before its checkpoint exists: when every
// task downstream aligns the barrier before the source has gone on (the
// concurrent executor allows it), each acknowledgement still finds its
// checkpoint, and the run's checkpoints complete. When the source sent its
// barrier before beginning the checkpoint, every acknowledgement was
// dropped as one for no checkpoint, none completed, and an exactly-once
// table stayed empty with no failure at all.
func TestBarrierAcknowledgedOnlyOnceItsCheckpointExists(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := DefaultConfig()
	cfg.Executor, cfg.Semantics, cfg.Sink, cfg.Mode = ExecConcurrent, ExactlyOnce, SinkTable, ModeUpdate
	cfg.CheckpointInterval = 100
	r, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	routers := map[*node]*eagerRouter{}
	for _, n := range r.g.nodes {
		routers[n] = &eagerRouter{g: r.g, n: n, routers: routers}
	}
	r.Admit(253)
	r.cur.sendEnd = true
	for {
		e, ok := r.cur.next()
		if !ok {
			break
		}
		emitFromSource(r.g.nodes[0], e, routers[r.g.nodes[0]])
	}
	c := r.recovery.ckpt
	if c.completed == 0 || c.completed != r.cur.ckpt || c.aborted != 0 || len(c.pending) != 0 {
		t.Fatalf("%d barriers sent: %d checkpoints completed, %d aborted, %d pending", r.cur.ckpt, c.completed, c.aborted, len(c.pending))
	}
	rep := r.Report()
	if rep.Sink.Rows == 0 || rep.Sink.Lost != 0 || !rep.Sink.Correct {
		t.Fatalf("with no failure the table must equal the failure-free run: %+v", rep.Sink)
	}
}
