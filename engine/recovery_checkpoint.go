package engine

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/streamlab/streamlab/engine/bus"
)

// stateful operators can be snapshotted at a barrier and restored.
type stateful interface {
	snapshot() any
	restore(state any)
	// stateBytes estimates the snapshot's size when written out.
	stateBytes() int64
}

func (w *windowCount) snapshot() any {
	c := *w
	c.windows = w.windows.clone()
	c.rows = nil
	return &c
}

func (w *windowCount) restore(state any) {
	c := state.(*windowCount)
	*w = *c
	w.windows = c.windows.clone()
}

// stateBytes counts each window as written out: start (8), count (8), the
// key and its length (8), plus the watermark and counters (24).
func (w *windowCount) stateBytes() int64 {
	return 24 + w.windows.bytesWritten(func(key string) int64 { return 24 + int64(len(key)) })
}

// nodeSnapshot is one node's part of a checkpoint.
type nodeSnapshot struct {
	state any
	wm    int64
	bytes int64
}

// checkpoint is one asynchronous barrier snapshot (Carbone et al., 2015):
// the source's position when it injected barrier id, and each node's state
// when the barrier had arrived on all its inputs.
type checkpoint struct {
	id     int64
	at     pos
	states map[*node]nodeSnapshot
	bytes  int64
}

// coordinator is the job manager's checkpoint coordinator. A checkpoint
// completes when the sink acknowledges its barrier; the sink's transaction
// for it is then committed (two-phase commit: pre-committed at the barrier,
// committed on completion).
type coordinator struct {
	// mu guards the pending checkpoints: under the concurrent executor the
	// source begins them and every node acknowledges from its goroutine.
	mu         sync.Mutex
	r          *Runtime
	pending    map[int64]*checkpoint
	last       *checkpoint
	completed  int64
	aborted    int64
	restoredID int64
	restores   int64
	totalBytes int64
	// copied counts the state bytes every snapshot copied, completed or not.
	copied  int64
	txn     int64                 // the sink's open transaction: the next checkpoint's id
	batches map[int64][]sinkBatch // committed to the ledger when their transaction commits
}

func newCoordinator(r *Runtime) *coordinator {
	return &coordinator{r: r, pending: map[int64]*checkpoint{}, txn: 1, batches: map[int64][]sinkBatch{}}
}

// begin records the source's position as barrier id leaves it. The source
// calls it before the barrier is sent, so that no task can acknowledge a
// checkpoint that does not exist yet.
func (c *coordinator) begin(id int64, at pos) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[id] = &checkpoint{id: id, at: at, states: map[*node]nodeSnapshot{}}
}

// ack takes a node's snapshot for checkpoint id; the sink's ack completes
// the checkpoint.
func (c *coordinator) ack(n *node, id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp := c.pending[id]
	r := c.r
	if n.op == operator(r.sink) {
		// The sink pre-commits what it holds for this checkpoint.
		r.sink.flush()
	}
	if cp == nil {
		return // aborted
	}
	snap := nodeSnapshot{wm: n.wm}
	if s, ok := n.op.(stateful); ok {
		snap.state, snap.bytes = s.snapshot(), s.stateBytes()
		cp.bytes += snap.bytes
		c.copied += snap.bytes
	}
	cp.states[n] = snap
	// Every task has acknowledged once the sink has (barriers reach it
	// last), unless a task died meanwhile: then the checkpoint is aborted.
	if n.op == operator(r.sink) {
		if len(cp.states) == len(r.g.nodes)-1 {
			c.complete(cp)
		} else {
			delete(c.pending, id)
			c.aborted++
		}
	}
}

// complete makes cp the checkpoint to restore and commits the sink's
// transactions up to it.
func (c *coordinator) complete(cp *checkpoint) {
	delete(c.pending, cp.id)
	for id := range c.pending {
		if id < cp.id {
			delete(c.pending, id)
		}
	}
	c.last = cp
	c.completed++
	c.totalBytes += cp.bytes
	c.txn = cp.id + 1
	c.r.publish(bus.Event{TimeMS: c.r.sinkTime(), Kind: bus.EventCheckpoint, N: cp.id,
		Text: fmt.Sprintf("checkpoint %d complete: source offset %d, %d bytes of state", cp.id, cp.at.off, cp.bytes)})
	c.notifyComplete(cp.id)
}

// notifyComplete tells the sink that checkpoint id completed, the second
// phase of the two-phase commit. Under the deterministic executor the word
// travels to the sink as a message of its own, so a failure can fall
// between the checkpoint's completion and the commit (restore then commits
// what the checkpoint pre-committed); the concurrent executor commits at
// once.
func (c *coordinator) notifyComplete(id int64) {
	r := c.r
	if r.det == nil {
		c.commit(id)
		return
	}
	sink := r.g.nodes[len(r.g.nodes)-1]
	r.det.queues[r.det.index[sink]].push(item{from: -1, e: element{kind: kindCommit, id: id}})
}

// commit commits every pre-committed transaction up to id.
func (c *coordinator) commit(id int64) {
	ids := slices.Sorted(maps.Keys(c.batches))
	ts, _ := c.r.writer.(*tableSink)
	for _, t := range ids {
		if t > id {
			continue
		}
		if ts != nil && ts.transactional {
			if err := ts.store.Commit(t); err != nil && c.r.sink.err == nil {
				c.r.sink.err = fmt.Errorf("sink: commit of transaction %d: %w", t, err)
			}
		}
		for _, b := range c.batches[t] {
			c.r.ledgerApply(b)
		}
		delete(c.batches, t)
	}
}

// resolvePending reads the transactions the table still holds
// pre-committed and commits or aborts each against the restored checkpoint.
func (c *coordinator) resolvePending(ts *tableSink) {
	r := c.r
	pending, err := ts.store.Pending()
	if err != nil && r.sink.err == nil {
		r.sink.err = fmt.Errorf("sink: pending transactions: %w", err)
	}
	var last int64
	if c.last != nil {
		last = c.last.id
	}
	for _, t := range pending {
		if t <= last {
			if err := ts.store.Commit(t); err != nil && r.sink.err == nil {
				r.sink.err = fmt.Errorf("sink: commit of transaction %d: %w", t, err)
			}
			for _, b := range c.batches[t] {
				r.ledgerApply(b)
			}
			r.publish(bus.Event{TimeMS: r.recovery.now(), Kind: bus.EventCheckpoint, N: t,
				Text: fmt.Sprintf("transaction %d committed on restore: checkpoint %d had completed before the sink could commit it", t, t)})
			continue
		}
		if err := ts.store.Abort(t); err != nil && r.sink.err == nil {
			r.sink.err = fmt.Errorf("sink: abort of transaction %d: %w", t, err)
		}
	}
}

// abortPending drops checkpoints in progress.
func (c *coordinator) abortPending(why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range slices.Sorted(maps.Keys(c.pending)) {
		delete(c.pending, id)
		c.aborted++
		c.r.publish(bus.Event{TimeMS: c.r.recovery.now(), Kind: bus.EventCheckpoint, N: id, Text: fmt.Sprintf("checkpoint %d aborted: %s", id, why)})
	}
}

// restore puts every node back to the last completed checkpoint, resolves
// the sink's pre-committed transactions as Flink's two-phase-commit sinks
// do on restore — those of the restored checkpoint and before are
// committed, later ones aborted — and rewinds the source; it returns the
// offset the source resumes at.
func (c *coordinator) restore() int64 {
	r := c.r
	if ts, ok := r.writer.(*tableSink); ok && ts.transactional {
		c.resolvePending(ts)
	}
	clear(c.batches)
	c.restores++
	at := pos{nextTrigger: r.cur.trigger}
	if c.last != nil {
		at = c.last.at
		c.restoredID = c.last.id
		for n, s := range c.last.states {
			if st, ok := n.op.(stateful); ok && s.state != nil {
				st.restore(s.state)
			}
			n.wm = s.wm
		}
	} else {
		c.restoredID = 0
	}
	for _, n := range r.g.nodes {
		if n.wm == math.MinInt64 {
			continue
		}
		for j := range n.inWM {
			n.inWM[j] = n.wm
		}
	}
	r.cur.rewind(at)
	c.txn = r.cur.ckpt + 1
	return at.off
}
