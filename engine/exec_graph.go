package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// router carries what a node produces to the nodes downstream. Each
// executor has its own; the node logic is the same under both.
type router interface {
	emitter
	// broadcast sends a watermark or marker to every downstream node.
	broadcast(e element)
}

// node is one parallel instance of an operator: the unit that is killed and
// restarted. It merges its inputs: the watermark is the minimum over them,
// and markers (triggers, barriers, ends) are aligned — an input that
// delivered marker n is held back until every live input has, so that each
// marker closes the same epoch of records whatever order the inputs arrive
// in. An input whose sender died is left out until a replacement joins.
type node struct {
	name  string
	stage int
	index int
	spec  jobspec.Operator // to build a fresh operator for a replacement
	op    operator
	inWM  []int64
	wm    int64
	marks []int64   // sequence number of the last marker per input
	kinds []element // that marker
	alive []bool    // inputs whose sender is up
	// frozen inputs are down but still hold the watermark back at what
	// they last sent: under rollback recovery their records will be
	// replayed, and must not arrive to windows already closed without them.
	frozen []bool
	epoch  int64       // sequence number of the last marker aligned
	held   []heldQueue // per input, what arrived after its marker
	// sorted nodes take each epoch's records in one fixed order (see
	// orderSensitive and graph.fixedOrder): they gather them in epochRecs
	// and hand them to the operator when the epoch closes, the watermark
	// after them.
	sorted    bool
	epochRecs []Record
	done      bool // aligned the end marker
	dead      bool
	// rep is an active standby: a replica fed the same input, its output
	// held back (discarded) until it takes over.
	rep     operator
	standby bool // a standby is up (for the source and sink, whose replica holds no state of its own)
	// restarts counts this node's restarts, its own and the whole job's:
	// it runs attempt restarts+1, and stamps what it sends with it.
	restarts int32
	counts   nodeCounts
	// timerChecks counts the window timers its triggers checked (Work).
	timerChecks int64
	// lastOffset and lastAt say how far the node has got, for placing a
	// failure in virtual time: the latest source offset among its records,
	// the latest marker time it aligned.
	lastOffset int64
	lastAt     int64
	// onMarker observes each aligned marker before it is forwarded (the
	// checkpoint coordinator snapshots state at barriers).
	onMarker func(n *node, e element)
}

// nodeCounts are the per-node counters a snapshot shows.
type nodeCounts struct {
	In, Out int64
	// Standby counts records its active standby processed too.
	Standby int64
}

// heldBack takes an active standby's output: held back until the standby
// takes over, and so never sent (the primary sent the same).
type heldBack struct{}

func (heldBack) emit(Record) {}

func newNode(name string, stage, index, inputs int, op operator) *node {
	n := &node{name: name, stage: stage, index: index, op: op, wm: math.MinInt64, lastOffset: -1,
		inWM: make([]int64, inputs), marks: make([]int64, inputs), kinds: make([]element, inputs),
		alive: make([]bool, inputs), frozen: make([]bool, inputs), held: make([]heldQueue, inputs)}
	for i := range n.inWM {
		n.inWM[i] = math.MinInt64
		n.alive[i] = true
	}
	return n
}

// receive handles one element from input from.
func (n *node) receive(from int, e element, out router) {
	if n.marks[from] > n.epoch {
		n.held[from].push(e)
		return
	}
	if n.handle(from, e, out) {
		n.release(out)
	}
}

// handle processes one element and reports whether it completed an
// alignment.
func (n *node) handle(from int, e element, out router) bool {
	switch e.kind {
	case kindRecord:
		n.counts.In++
		n.lastOffset = max(n.lastOffset, e.rec.Offset)
		if n.sorted {
			n.epochRecs = append(n.epochRecs, e.rec)
			return false
		}
		if s, ok := n.op.(*sinkOp); ok {
			s.receive(e.rec, originOf(from, e))
			return false
		}
		n.process(e.rec, out)
	case kindWatermark:
		n.inWM[from] = e.value
		if !n.sorted {
			n.advanceWatermark(out)
		}
	default:
		n.marks[from], n.kinds[from] = e.value, e
		return n.align(out)
	}
	return false
}

// process hands one record to the operator (and its active standby).
func (n *node) process(r Record, out router) {
	n.op.record(r, out)
	if n.rep != nil {
		n.counts.Standby++
		n.rep.record(r, heldBack{})
	}
}

// closeEpoch hands a sorted node's operator the records of the epoch that
// just closed, in compareRecords order, then moves the watermark: what it
// emits for them reaches the nodes downstream before the watermark that
// followed them, as it would have unsorted.
func (n *node) closeEpoch(out router) {
	slices.SortFunc(n.epochRecs, compareRecords)
	for _, r := range n.epochRecs {
		n.process(r, out)
	}
	clear(n.epochRecs)
	n.epochRecs = n.epochRecs[:0]
	n.advanceWatermark(out)
}

// compareRecords orders records by every field, source offset first: a
// total order, so that a multiset of records sorts to one sequence however
// it arrived.
func compareRecords(a, b Record) int {
	return cmp.Or(cmp.Compare(a.Offset, b.Offset), cmp.Compare(a.WindowStart, b.WindowStart), strings.Compare(a.Key, b.Key),
		cmp.Compare(a.WindowEnd, b.WindowEnd), cmp.Compare(a.Value, b.Value), cmp.Compare(a.ID, b.ID),
		cmp.Compare(a.Time, b.Time), strings.Compare(a.Action, b.Action), cmp.Compare(a.Device, b.Device))
}

// advanceWatermark moves the node's watermark to the minimum over its live
// (and frozen) inputs, if that is later.
func (n *node) advanceWatermark(out router) {
	m, any := int64(math.MaxInt64), false
	for i, w := range n.inWM {
		if n.alive[i] || n.frozen[i] {
			m, any = min(m, w), true
		}
	}
	if any && m > n.wm && m != math.MinInt64 {
		n.wm = m
		n.op.watermark(m, out)
		if n.rep != nil {
			n.rep.watermark(m, heldBack{})
		}
		out.broadcast(element{kind: kindWatermark, value: m})
	}
}

// align completes the next epoch when every live input has delivered its
// marker, acting on that marker and forwarding it.
func (n *node) align(out router) bool {
	m, any := int64(math.MaxInt64), false
	for i, mk := range n.marks {
		if n.alive[i] {
			m, any = min(m, mk), true
		}
	}
	if !any || m <= n.epoch {
		return false
	}
	n.epoch = m
	if n.sorted {
		n.closeEpoch(out)
	}
	var e element
	for i, k := range n.kinds {
		if n.marks[i] == m && k.kind != kindRecord {
			e = k
			break
		}
	}
	if e.kind == kindRecord {
		// Every input at m is level only because it joined there (a
		// replacement, or a sender that came back): that epoch closed
		// before this node took part in it, so there is no marker to act
		// on or forward.
		return true
	}
	n.lastAt = max(n.lastAt, e.at)
	switch e.kind {
	case kindTrigger:
		if s, ok := n.op.(*sinkOp); ok {
			s.lastTrigger = max(s.lastTrigger, e.id)
			if s.whole && !n.allDelivered(m) {
				s.discard()
				break
			}
		}
		n.timerChecks += openTimers(n.op) + openTimers(n.rep)
		n.op.trigger(out)
		if n.rep != nil {
			n.rep.trigger(heldBack{})
		}
	case kindEnd:
		n.done = true
	}
	if n.onMarker != nil {
		n.onMarker(n, e)
	}
	out.broadcast(element{kind: e.kind, value: m, id: e.id, at: e.at})
	return true
}

// allDelivered reports whether every input took part in epoch m with a
// marker of its own: none is down, and none is level only because its
// replacement joined there (and so sent no output for it).
func (n *node) allDelivered(m int64) bool {
	for i := range n.marks {
		if !n.alive[i] || (n.marks[i] == m && n.kinds[i].kind == kindRecord) {
			return false
		}
	}
	return true
}

// release replays what was held back during an alignment that just
// completed, which may complete further alignments.
func (n *node) release(out router) {
	for progress := true; progress; {
		progress = false
		for i := range n.held {
			for n.held[i].len() > 0 && n.marks[i] <= n.epoch {
				n.handle(i, n.held[i].pop(), out)
				progress = true
			}
		}
	}
}

// inputDown leaves an input out of alignment while its sender is dead;
// what it delivered before dying still counts. With hold (rollback
// recovery) the input keeps holding the watermark back until its
// replacement has replayed; without (gap recovery) it is left out of the
// watermark too, like an idle input.
func (n *node) inputDown(i int, out router, hold bool) {
	n.alive[i] = false
	n.frozen[i] = hold
	if n.align(out) {
		n.release(out)
	}
	if !n.sorted { // a sorted node moves it when its epoch closes
		n.advanceWatermark(out)
	}
}

// inputUp lets a replacement sender join at epoch, the epoch its own
// senders are in. Markers it missed while down never come, so it counts as
// level with this node up to there. When it joins ahead, what it sends
// belongs to the epochs after its join and is held back until this node
// gets there: a trigger's batch must not take in the replacement's output
// for the next one.
//
// What the dead sender delivered after a marker this node had not aligned
// yet is still held back; it is handled first, before anything the
// replacement sends, as a channel delivers in order: otherwise a window's
// stale count from the dead sender would overwrite its replacement's.
func (n *node) inputUp(i int, epoch int64, out router) {
	n.alive[i], n.frozen[i] = true, false
	n.marks[i] = max(epoch, n.epoch)
	n.kinds[i] = element{}
	n.inWM[i] = math.MinInt64
	if out != nil {
		n.align(out) // it may have been the input this node waited for
		n.release(out)
	}
}

// stage is one operator of the job with its parallel nodes.
type stage struct {
	name      string
	kind      string
	partition string
	keyOf     func(Record) string // what hash partitions by, when not the record's key
	nodes     []*node
}

// graph is the physical dataflow: stage 0 is the source, the last stage the
// sink; every node of a stage feeds the next stage by its partitioning.
type graph struct {
	stages []*stage
	nodes  []*node
	sink   *sinkOp
	// stamp says where a sender stands in the run, for what it sends to
	// the sink (recovery.stampForSink); nil leaves that unmarked.
	stamp func(sender *node) (atMS, restarts int64)
}

// sendsToSink reports whether n's output goes to the sink.
func (g *graph) sendsToSink(n *node) bool { return n.stage == len(g.stages)-2 }

// sent makes the element that carries r from n: r stamped with n's
// restarts, and when it goes to the sink, with the rest of its origin.
func (g *graph) sent(n *node, r Record, toSink bool) element {
	r.senderRestarts = n.restarts
	e := element{kind: kindRecord, rec: r}
	if toSink && g.stamp != nil {
		e.at, e.id = g.stamp(n) // a pointer to e would move it to the heap
	}
	return e
}

const (
	kindSource = "source"
	kindSink   = "sink"
)

// nodeName is "name" for a single instance and "name[i]" otherwise.
func nodeName(name string, parallelism, i int) string {
	if parallelism == 1 {
		return name
	}
	return fmt.Sprintf("%s[%d]", name, i)
}

// buildGraph creates the nodes of spec; sink is the sink node's logic and
// newOp makes each operator's.
func buildGraph(spec jobspec.Spec, newOp func(jobspec.Operator) (operator, error), sink *sinkOp) (*graph, error) {
	g := &graph{sink: sink}
	add := func(name, kind, partition string, parallelism, inputs int, mk func() operator) {
		s := &stage{name: name, kind: kind, partition: partition}
		for i := range parallelism {
			n := newNode(nodeName(name, parallelism, i), len(g.stages), i, inputs, mk())
			s.nodes = append(s.nodes, n)
			g.nodes = append(g.nodes, n)
		}
		g.stages = append(g.stages, s)
	}
	add(kindSource, kindSource, "", 1, 1, func() operator { return nil })
	g.nodes[0].spec = jobspec.Operator{Name: kindSource, Kind: kindSource, Parallelism: 1}
	prev := 1
	for _, op := range spec.Operators {
		op := op
		if _, err := newOp(op); err != nil {
			return nil, err
		}
		p := max(op.Parallelism, 1)
		partition := op.Partition
		if partition == "" {
			partition = jobspec.PartitionForward
			if op.Kind == jobspec.KindWindowCount || op.Kind == jobspec.KindDedup {
				partition = jobspec.PartitionHash
			}
		}
		inputs := prev
		if partition == jobspec.PartitionForward {
			if p != prev {
				return nil, badConfig("operator %q: forward partitioning needs the parallelism of the operator before it (%d), got %d", op.Name, prev, p)
			}
			inputs = 1
		}
		add(op.Name, op.Kind, partition, p, inputs, func() operator { o, _ := newOp(op); return o })
		g.stages[len(g.stages)-1].keyOf = keySelector(op)
		for _, n := range g.stages[len(g.stages)-1].nodes {
			n.spec = op
		}
		prev = p
	}
	add(kindSink, kindSink, jobspec.PartitionRebalance, 1, prev, func() operator { return sink })
	for _, n := range g.nodes {
		_, sensitive := n.op.(orderSensitive)
		n.sorted = sensitive && !g.fixedOrder(n)
	}
	// The sink gathers every upstream node.
	g.stages[len(g.stages)-1].partition = "gather"
	return g, nil
}

// fixedOrder reports whether n's input arrives in the same order under
// either executor and any interleaving: it has one input, whose sender's
// input is in a fixed order in turn (the source's is). Where a node merges
// several inputs, the order depends on how the executor happened to run
// them, for it and for every node after it.
func (g *graph) fixedOrder(n *node) bool {
	for n.stage > 0 {
		up := g.upstream(n)
		if len(up) != 1 {
			return false
		}
		n = up[0]
	}
	return true
}

// targets returns, for a record r leaving node n of stage s, the index of the
// downstream node that receives it. rr is n's round-robin counter.
func (g *graph) target(n *node, r *Record, rr *int) int {
	next := g.stages[n.stage+1]
	p := len(next.nodes)
	switch next.partition {
	case jobspec.PartitionForward:
		return n.index
	case jobspec.PartitionHash:
		if next.keyOf != nil {
			return int(hashKey(next.keyOf(*r)) % uint32(p))
		}
		return int(hashKey(r.Key) % uint32(p))
	case jobspec.PartitionRebalance:
		*rr = (*rr + 1) % p
		return *rr
	}
	return 0 // gather
}

// downstream returns the nodes n sends to, each over a channel of its own:
// the node of the same index for a forward edge, every node of the next
// stage otherwise. Markers travel on exactly these channels, so a node
// aligns over the inputs it really has.
func (g *graph) downstream(n *node) []*node {
	if n.stage+1 >= len(g.stages) {
		return nil
	}
	next := g.stages[n.stage+1]
	if next.partition == jobspec.PartitionForward {
		return next.nodes[n.index : n.index+1]
	}
	return next.nodes
}

// upstream returns the nodes that send to n.
func (g *graph) upstream(n *node) []*node {
	if n.stage == 0 {
		return nil
	}
	if g.stages[n.stage].partition == jobspec.PartitionForward {
		return g.stages[n.stage-1].nodes[n.index : n.index+1]
	}
	return g.stages[n.stage-1].nodes
}

// inputIndex is which input of the downstream node a node's output arrives
// on.
func (g *graph) inputIndex(n *node) int {
	next := g.stages[n.stage+1]
	if next.partition == jobspec.PartitionForward {
		return 0
	}
	return n.index
}

// hashKey is 32-bit FNV-1a: a stable partitioner, the same on every run.
func hashKey(key string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h ^= uint32(key[i])
		h *= 16777619
	}
	return h
}

// node looks a node up by name.
func (g *graph) node(name string) *node {
	for _, n := range g.nodes {
		if n.name == name {
			return n
		}
	}
	return nil
}
