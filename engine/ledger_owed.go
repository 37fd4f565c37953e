package engine

import (
	"cmp"
	"slices"
)

// What the sink lacks, sorted. The ledger (ledger.go) compares the sink
// with the failure-free run at the same batch; what the sink lacks is then
// one of three things, and every observer — the lab's panes and charts,
// the report, lesson checks — reads the one view made here:
//
//   - uncommitted: rows an exactly-once sink holds in a transaction that
//     has not committed yet. The failure-free run is compared at the last
//     committed batch, so they are not missing; they are counted apart.
//   - owed: while a failure holds the job back (a node down, the whole
//     job restarting or without a leader, or the replay after it not
//     through yet), what a scheme that preserves its input will still
//     deliver. The failure-free run goes on meanwhile, as the source reads
//     or, while the source is down, as the virtual clock moves: that work
//     is expected, and owed.
//   - lost: the rest, what no replay brings back.

// ledgerApply counts a batch that is now visible in the sink: the batch
// of trigger, which the failure-free run then commits too.
func (r *Runtime) ledgerApply(b sinkBatch) {
	if r.ledger == nil {
		return
	}
	batch := b.rows
	r.ledger.apply(batch, true)
	r.lin.wrote(b, r.sinkTime(), r.g.writerName, r.ledger.cellOf)
	r.applied = max(r.applied, r.cur.place(b.trigger))
	r.ref.advanceTo(r.applied)
	if r.ledger.events && len(batch) > 0 {
		// A batch flushed at a barrier ends before the next trigger.
		r.ref.flushPast(slices.MaxFunc(batch, func(a, b Record) int { return cmp.Compare(a.Offset, b.Offset) }).Offset)
	}
	r.sampleLedger()
}

// sampleLedger puts the ledger as observers see it on the timeline.
func (r *Runtime) sampleLedger() { r.tl.sample(r.sinkTime(), r.ledgerView()) }

// ledgerView is the ledger's totals with what the sink lacks sorted into
// owed and lost, and what it holds uncommitted. correct is "equals the
// failure-free run so far": never while something is owed, never once the
// job has failed (the failure-free run has not).
func (r *Runtime) ledgerView() LedgerTotals {
	t := r.ledger.Totals()
	t.Owed = r.owed(t)
	t.Lost -= t.Owed
	t.Uncommitted = r.uncommitted()
	t.Correct = t.Correct && t.Owed == 0 && r.state != StateFailed
	return t
}

// owed is what the sink lacks now that the guarantee still owes: while a
// failure holds back a scheme that preserves input, everything missing but
// what a Bloom filter dropped by mistake, which is gone for good. Both
// sides are in the ledger's unit: a record's effect, or a window's count
// (filterLost).
func (r *Runtime) owed(t LedgerTotals) int64 {
	if r.state != StateRunning || r.ha == HANone || !r.heldBack() {
		return 0
	}
	return max(t.Lost-r.filterLost(), 0)
}

// heldBack reports whether a failure still holds the sink back: a node
// is down, or the sink has not yet committed (visibly: a transaction's
// rows count once it commits) a trigger the source sent after the last
// one went out while a node was down — a replay comes before it — and
// the job has not gone quiet since.
func (r *Runtime) heldBack() bool {
	return r.recovery.recovering() || r.applied < r.owedUntil
}

// followFailure runs the failure-free run on while a failure holds the
// real job back, to where a failure-free job would be by now: as far as
// the source has read, and while the source is down too (the whole job
// restarting, or waiting for a new leader) as far as it would have read
// by the virtual clock. What that job would have delivered is expected
// (owed or lost), and correct is not true until the real job has caught
// up with it. It is called after every step and when the job goes quiet.
func (r *Runtime) followFailure() {
	if r.ledger != nil && r.recovery.recovering() { // the clock is read only then
		r.followFailureTo(r.downUntil())
	}
}

// downUntil is how far the clock has got while the source is down: now,
// or sooner the restart that brings it back, when that is due by now
// (the scheduler carries it out at its own time, next).
func (r *Runtime) downUntil() int64 {
	t := r.recovery.now()
	for _, p := range r.recovery.restarts {
		if !p.standby && (p.whole || p.node == r.g.nodes[0]) {
			t = min(t, max(p.at, p.slot))
		}
	}
	return t
}

// followFailureTo is followFailure with the clock at virtual time ms: a
// restart is carried out at its own time, however far ahead the admitted
// time is.
func (r *Runtime) followFailureTo(ms int64) {
	if r.ledger == nil || !r.recovery.recovering() {
		return
	}
	before := r.ref.triggers
	r.ref.advanceTo(r.cur.fired)
	at := r.sinkTime()
	if r.g.nodes[0].dead && r.state == StateRunning {
		r.ref.advanceUntil(ms)
		at = max(at, ms) // the chart shows the owed work grow while the job is down
	}
	// The real job has caught up once its sink commits a trigger past
	// every one the failure-free run has counted.
	r.owedUntil = r.ref.triggers + 1
	if r.ref.triggers > before {
		r.tl.sample(at, r.ledgerView())
	}
}

// caughtUp is called when the job goes quiet: whatever replay there was
// is through, so what the sink still lacks is lost.
func (r *Runtime) caughtUp() {
	if r.ledger == nil || r.owedUntil == 0 || r.recovery.recovering() {
		return
	}
	r.owedUntil = 0
	r.sampleLedger()
}

// uncommitted counts the rows a transactional sink has written in
// transactions that have not committed.
func (r *Runtime) uncommitted() int64 {
	var n int64
	if c := r.recovery.ckpt; c != nil {
		for _, bs := range c.batches {
			for _, b := range bs {
				n += int64(len(b.rows))
			}
		}
	}
	return n
}

// filterLost is what the membership filter's mistakes cost in the ledger's
// unit. A falsely dropped event is one record's effect; a falsely dropped
// result row is what its count would have added to what a reader sees.
func (r *Runtime) filterLost() int64 {
	if d := r.dedup(); d != nil && r.ledger != nil && !r.ledger.events {
		return r.ledger.filterLost(d.falseRows)
	}
	if fs, ok := r.FilterStats(); ok {
		return fs.FalseDrops
	}
	return 0
}

// carryLate keeps the late records a window count dropped when it is
// replaced: a replacement counts from nothing (or, a standby, from when
// it came up), and the total must not go back.
func (r *Runtime) carryLate(old, replacement operator) {
	if w, ok := old.(*windowCount); ok {
		r.lateRetired += w.droppedLate
		if nw, ok := replacement.(*windowCount); ok {
			r.lateRetired -= nw.droppedLate
		}
	}
}
