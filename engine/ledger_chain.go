package engine

import (
	"context"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// chain runs a job's logical plan as direct function calls: one instance of
// each operator, no channels, no scheduler, no failures. It is the ledger's
// failure-free run and the benchmarks' plain loop.
type chain struct {
	ops  []operator
	outs []emitter // built once: converting per call would allocate
	sink *sinkOp
	cur  *cursor
	// triggers counts the triggers handled: the sink commits a batch at
	// each, and at each flush (flushPast) besides.
	triggers int64
}

type chainOut struct {
	c    *chain
	next int
}

func (o *chainOut) emit(r Record) { o.c.push(o.next, r) }

func newChain(spec jobspec.Spec, newOp func(jobspec.Operator) (operator, error), cur *cursor, sink *sinkOp) *chain {
	c := &chain{sink: sink, cur: cur}
	for _, op := range spec.Operators {
		if op.Kind == jobspec.KindDedup {
			continue // the failure-free run needs no duplicates removed
		}
		o, _ := newOp(op) // the same operators built the real job already
		c.ops = append(c.ops, o)
		c.outs = append(c.outs, &chainOut{c, len(c.ops)})
	}
	return c
}

func (c *chain) push(i int, r Record) {
	if i == len(c.ops) {
		c.sink.record(r, nil)
		return
	}
	c.ops[i].record(r, c.outs[i])
}

// handle passes one source element through the whole chain.
func (c *chain) handle(e element) {
	switch e.kind {
	case kindRecord:
		c.push(0, e.rec)
	case kindWatermark:
		for i, op := range c.ops {
			op.watermark(e.value, c.outs[i])
		}
	case kindTrigger:
		c.triggers++
		for i, op := range c.ops {
			op.trigger(c.outs[i])
		}
		c.sink.trigger(nil)
	}
}

// advanceTo runs until the sink has committed a batch for each of the
// first triggers triggers (it commits one per trigger), or the admitted
// input is used up.
func (c *chain) advanceTo(triggers int64) {
	for c.triggers < triggers {
		e, ok := c.cur.next()
		if !ok {
			return
		}
		c.handle(e)
	}
}

// advanceUntil runs what a source reading all along would have read by
// virtual time ms: every element due at or before it (the records arrived
// by then, and the triggers and admission ends they come after), as a
// source paced by the clock does.
func (c *chain) advanceUntil(ms int64) {
	for c.cur.pending() && c.cur.now() <= ms {
		e, ok := c.cur.next()
		if !ok {
			return
		}
		c.handle(e)
	}
}

// flushPast runs through the record at offset off and commits what the
// sink holds as a batch of its own, as the real sink does at a checkpoint
// barrier between two triggers: a job of events then compares batch for
// batch.
func (c *chain) flushPast(off int64) {
	for c.cur.off <= off {
		e, ok := c.cur.next()
		if !ok {
			break
		}
		c.handle(e)
	}
	c.sink.flush()
}

// drain runs through everything admitted.
func (c *chain) drain() {
	for {
		e, ok := c.cur.next()
		if !ok {
			return
		}
		c.handle(e)
	}
}

// drainContext is drain, stopping with ctx's error when ctx ends: the
// failure-free run may have millions of admitted records to go through.
func (c *chain) drainContext(ctx context.Context) error {
	for i := 0; ; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e, ok := c.cur.next()
		if !ok {
			return nil
		}
		c.handle(e)
	}
}
