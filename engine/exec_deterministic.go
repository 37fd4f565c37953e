package engine

import (
	"math/rand/v2"
)

// detExec is the deterministic executor: one scheduler that repeatedly
// picks, with a seeded random generator, one node that has input (and room
// downstream) and lets it process one element. The same seed gives the same
// interleaving, so a failure placed "after N records" lands at the same
// point on every run.
type detExec struct {
	g        *graph
	rng      *rand.Rand
	queues   []queue // inbound, per node (index in g.nodes)
	routers  []*detRouter
	cap      int
	runnable []int
	steps    int64
	index    map[*node]int
	// recovery handles failures; nil until the runtime sets it up.
	recovery *recovery
}

type item struct {
	from int
	e    element
}

// queue is a FIFO of elements.
type queue struct {
	items []item
	head  int
}

func (q *queue) len() int { return len(q.items) - q.head }

func (q *queue) push(it item) { q.items = append(q.items, it) }

func (q *queue) pop() item {
	it := q.items[q.head]
	q.items[q.head] = item{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head >= 1024 && q.head*2 >= len(q.items) {
		n := copy(q.items, q.items[q.head:])
		q.items, q.head = q.items[:n], 0
	}
	return it
}

// detRouter delivers a node's output straight into the downstream queues.
type detRouter struct {
	x    *detExec
	n    *node
	next []int // downstream node indexes, by position in the next stage
	fed  []int // the downstream nodes it has a channel to (markers go there)
	in   int   // which input of a downstream node this node is
	rr   int
	// toSink: this node's output goes to the sink (see graph.sent).
	toSink bool
}

func (d *detRouter) emit(r Record) {
	d.n.counts.Out++
	t := d.x.g.target(d.n, &r, &d.rr)
	e := d.x.g.sent(d.n, r, d.toSink)
	if rc := d.x.recovery; rc != nil {
		rc.s.sent(d.n, t, e.rec)
		if d.x.g.nodes[d.next[t]].dead {
			rc.lostFlight++ // sent to a dead node: gone, unless kept above
			return
		}
	}
	d.x.queues[d.next[t]].push(item{d.in, e})
}

func (d *detRouter) broadcast(e element) {
	for _, t := range d.fed {
		if !d.x.g.nodes[t].dead {
			d.x.queues[t].push(item{d.in, e})
		}
	}
}

func newDetExec(g *graph, seed int64, capacity int) *detExec {
	x := &detExec{g: g, rng: rand.New(rand.NewPCG(uint64(seed), 0x5c4ed01e)), cap: capacity}
	x.queues = make([]queue, len(g.nodes))
	index := map[*node]int{}
	for i, n := range g.nodes {
		index[n] = i
	}
	x.index = index
	for _, n := range g.nodes {
		rt := &detRouter{x: x, n: n}
		if n.stage+1 < len(g.stages) {
			for _, m := range g.stages[n.stage+1].nodes {
				rt.next = append(rt.next, index[m])
			}
			for _, m := range g.downstream(n) {
				rt.fed = append(rt.fed, index[m])
			}
			rt.in = g.inputIndex(n)
			rt.toSink = g.sendsToSink(n)
		}
		x.routers = append(x.routers, rt)
	}
	return x
}

// roomDownstream reports whether every queue node i feeds is below capacity
// (backpressure: a node with a full consumer waits).
func (x *detExec) roomDownstream(i int) bool {
	for _, t := range x.routers[i].fed {
		if x.queues[t].len() >= x.cap {
			return false
		}
	}
	return true
}

// step lets one node process one element; false when nothing can run.
func (x *detExec) step(cur *cursor) bool {
	x.runnable = x.runnable[:0]
	for i, n := range x.g.nodes {
		if n.dead {
			continue
		}
		ready := x.queues[i].len() > 0
		if i == 0 {
			ready = cur.pending()
		}
		if ready && x.roomDownstream(i) {
			x.runnable = append(x.runnable, i)
		}
	}
	if len(x.runnable) == 0 {
		return false
	}
	i := x.runnable[0]
	if len(x.runnable) > 1 {
		i = x.runnable[x.rng.IntN(len(x.runnable))]
	}
	x.steps++
	n, rt := x.g.nodes[i], x.routers[i]
	if i == 0 {
		e, _ := cur.next()
		emitFromSource(n, e, rt)
		return true
	}
	it := x.queues[i].pop()
	if it.e.kind == kindCommit {
		x.recovery.commitArrived(n, it.e.id)
		return true
	}
	n.receive(it.from, it.e, rt)
	return true
}

// emitFromSource sends one source element downstream.
func emitFromSource(n *node, e element, out router) {
	switch e.kind {
	case kindRecord:
		n.counts.In++
		n.lastOffset = e.rec.Offset
		out.emit(e.rec)
	case kindWatermark:
		n.wm = e.value
		out.broadcast(e)
	default:
		// The scheme sees the marker before it leaves: a checkpoint must
		// exist before its barrier does, or under the concurrent executor
		// a task downstream could align and acknowledge it first, and the
		// coordinator would drop that acknowledgement as one for no
		// checkpoint, then abort the checkpoint when the sink's arrived.
		n.epoch = e.value
		if n.onMarker != nil {
			n.onMarker(n, e)
		}
		out.broadcast(e)
	}
}
