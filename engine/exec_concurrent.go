package engine

import (
	"context"
	"sync"
)

// batchSize is how many elements travel in one channel send: batching is
// what keeps the concurrent executor's channel cost per record low.
const batchSize = 256

type batch struct {
	from int
	els  []element
}

// concRouter buffers a node's output per downstream node and sends full
// batches on bounded channels; a full channel blocks the sender
// (backpressure).
type concRouter struct {
	g    *graph
	n    *node
	next []chan batch
	bufs [][]element
	fed  []int // positions in next it has a channel to (markers go there)
	in   int
	rr   int
	pool *sync.Pool
	stop <-chan struct{}
	// toSink: this node's output goes to the sink (see graph.sent).
	toSink bool
}

func (c *concRouter) emit(r Record) {
	c.n.counts.Out++
	t := c.g.target(c.n, &r, &c.rr)
	c.bufs[t] = append(c.bufs[t], c.g.sent(c.n, r, c.toSink))
	if len(c.bufs[t]) == batchSize {
		c.send(t)
	}
}

func (c *concRouter) broadcast(e element) {
	for _, t := range c.fed {
		c.bufs[t] = append(c.bufs[t], e)
		if len(c.bufs[t]) == batchSize {
			c.send(t)
		}
	}
}

func (c *concRouter) send(t int) bool {
	if len(c.bufs[t]) == 0 {
		return true
	}
	select {
	case c.next[t] <- batch{c.in, c.bufs[t]}:
	case <-c.stop:
		return false
	}
	c.bufs[t] = c.pool.Get().([]element)[:0]
	return true
}

// flush sends every partly filled batch.
func (c *concRouter) flush() bool {
	for t := range c.bufs {
		if !c.send(t) {
			return false
		}
	}
	return true
}

// runConcurrent runs everything admitted with a goroutine per node and
// returns when the end marker has reached the sink (or ctx is done). When
// mustDie (if not nil) says a node has reached its scheduled failure, every
// goroutine stops and that node is returned. No goroutine outlives the call.
func runConcurrent(ctx context.Context, g *graph, cur *cursor, queueCap int, mustDie func(*node) bool) (*node, error) {
	cur.sendEnd = true
	stop := make(chan struct{})
	var (
		once   sync.Once
		failed *node
	)
	halt := func(n *node) { once.Do(func() { failed = n; close(stop) }) }
	pool := &sync.Pool{New: func() any { return make([]element, 0, batchSize) }}
	inbox := make([]chan batch, len(g.nodes))
	index := map[*node]int{}
	for i, n := range g.nodes {
		index[n] = i
		inbox[i] = make(chan batch, max(queueCap/batchSize, 2))
	}
	routers := make([]*concRouter, len(g.nodes))
	for i, n := range g.nodes {
		rt := &concRouter{g: g, n: n, pool: pool, stop: stop}
		if n.stage+1 < len(g.stages) {
			for _, m := range g.stages[n.stage+1].nodes {
				rt.next = append(rt.next, inbox[index[m]])
				rt.bufs = append(rt.bufs, pool.Get().([]element)[:0])
			}
			for _, m := range g.downstream(n) {
				rt.fed = append(rt.fed, m.index)
			}
			rt.in = g.inputIndex(n)
			rt.toSink = g.sendsToSink(n)
		}
		routers[i] = rt
	}
	var wg sync.WaitGroup
	wg.Add(len(g.nodes))
	go func() {
		defer wg.Done()
		src, rt := g.nodes[0], routers[0]
		for {
			e, ok := cur.next()
			if !ok {
				rt.flush()
				return
			}
			emitFromSource(src, e, rt)
			if mustDie != nil && mustDie(src) {
				halt(src)
				return
			}
			if e.kind == kindEnd {
				rt.flush()
				return
			}
		}
	}()
	for i := 1; i < len(g.nodes); i++ {
		go func(n *node, rt *concRouter, in chan batch) {
			defer wg.Done()
			for !n.done {
				select {
				case b := <-in:
					for _, e := range b.els {
						n.receive(b.from, e, rt)
						if mustDie != nil && mustDie(n) {
							halt(n)
							return
						}
					}
					//lint:ignore SA6002 one small allocation per batch of 256 elements
					pool.Put(b.els[:0])
					if !rt.flush() {
						return
					}
				case <-stop:
					return
				}
			}
		}(g.nodes[i], routers[i], inbox[i])
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		halt(nil)
		<-done
		return nil, ctx.Err()
	}
	for _, n := range g.nodes {
		n.done = false
	}
	return failed, nil
}
