package engine

import (
	"fmt"
	"math"
)

// backupEntry is a record an upstream node keeps until downstream
// acknowledges it (upstream backup).
type backupEntry struct {
	rec   Record
	epoch int64 // the sender's epoch when it sent the record
}

// ackEvery batches acknowledgements, as real upstream backup does: the
// queues are trimmed after every ackEvery-th committed micro-batch, trading
// a little memory for far less bookkeeping.
const ackEvery = 10

// upstreamBackup is rollback recovery (at-least-once): every node keeps
// what it sent in output queues until downstream acknowledges it, and a
// replacement is sent again whatever it may not have passed on.
type upstreamBackup struct {
	rc      *recovery
	backups map[*node][][]backupEntry // per sender, per downstream node
	scratch map[*node]map[int64]bool
	trigWM  map[*node][][2]int64 // window nodes: (epoch, watermark) at each trigger
	// ackedWM is, per window node, the watermark its downstream had
	// acknowledged at the last acknowledgement round: all a replacement
	// can know of what was emitted for good.
	ackedWM   map[*node]int64
	sinkEpoch int64 // the last micro-batch the sink committed
	commits   int64
}

func newUpstreamBackup(rc *recovery) *upstreamBackup {
	u := &upstreamBackup{rc: rc, backups: map[*node][][]backupEntry{}, scratch: map[*node]map[int64]bool{},
		trigWM: map[*node][][2]int64{}, ackedWM: map[*node]int64{}}
	g := rc.r.g
	for _, n := range g.nodes {
		if n.stage+1 < len(g.stages) {
			u.backups[n] = make([][]backupEntry, len(g.stages[n.stage+1].nodes))
		}
	}
	return u
}

// failed forgets what n triggered since the last acknowledgement: it may or
// may not have reached the sink, so only acknowledged watermarks count.
func (u *upstreamBackup) failed(n *node, _ int64, _ string) (handled, whole bool) {
	delete(u.trigWM, n)
	return false, false
}

func (*upstreamBackup) holdsWatermark() bool { return true }
func (*upstreamBackup) cancel(string)        {}

// sent keeps what a node sent.
func (u *upstreamBackup) sent(n *node, target int, r Record) {
	q := &u.backups[n][target]
	*q = append(*q, backupEntry{rec: r, epoch: n.epoch + 1})
	u.rc.backupNow++
	u.rc.backupPeak = max(u.rc.backupPeak, u.rc.backupNow)
}

// marker notes each window node's watermark at its triggers, and runs an
// acknowledgement round after every ackEvery-th batch the sink commits.
func (u *upstreamBackup) marker(n *node, e element) {
	if e.kind != kindTrigger {
		return
	}
	if w, ok := n.op.(*windowCount); ok && w.hasWM {
		u.trigWM[n] = append(u.trigWM[n], [2]int64{n.epoch, w.wm})
	}
	if n.op == operator(u.rc.r.sink) {
		u.sinkEpoch = n.epoch
		if u.commits++; u.commits%ackEvery == 0 {
			u.trim()
		}
	}
}

// start lets a replaced window count begin where the acknowledged output
// left off: windows final at that watermark were emitted and acknowledged,
// and what it needs of the rest is replayed to it.
func (u *upstreamBackup) start(n *node) {
	if w, ok := n.op.(*windowCount); ok {
		if wm, acked := u.ackedWM[n]; acked {
			w.wm, w.hasWM = wm, true
		}
	}
}

// replay sends the replacement every record its live senders still keep
// for it, each sender's watermark after its records, as the first time.
func (u *upstreamBackup) replay(n *node) (int64, string) {
	r := u.rc.r
	q := &r.det.queues[r.det.index[n]]
	var replayed int64
	for _, s := range r.g.upstream(n) {
		if s.dead {
			continue
		}
		for _, b := range u.backups[s][n.index] {
			q.push(item{r.g.inputIndex(s), element{kind: kindRecord, rec: b.rec}})
			replayed++
		}
		if s.wm != math.MinInt64 {
			q.push(item{r.g.inputIndex(s), element{kind: kindWatermark, value: s.wm}})
		}
	}
	return replayed, fmt.Sprintf("%s replaced: %d unacknowledged records replayed from upstream output queues", n.name, replayed)
}

// restartSource re-reads the log from the oldest record downstream has not
// acknowledged.
func (u *upstreamBackup) restartSource(int64) int64 {
	r := u.rc.r
	src := r.g.nodes[0]
	from := r.cur.off
	for _, q := range u.backups[src] {
		for _, b := range q {
			from = min(from, b.rec.Offset)
		}
	}
	for t := range u.backups[src] {
		u.backups[src][t] = nil
	}
	replayed := r.cur.off - from
	u.rc.replayed += replayed
	r.cur.off = from
	return replayed
}

// restartJob starts again from the beginning of the source: the output
// queues were in the cancelled tasks.
func (u *upstreamBackup) restartJob(int64) (int64, string) {
	u.reset()
	return rewindToStart(u.rc.r)
}

// rewindToStart rewinds the source to offset 0, for a job restarted with
// nothing preserved but the log.
func rewindToStart(r *Runtime) (int64, string) {
	from := r.cur.off
	r.cur.rewind(pos{nextTrigger: r.cur.trigger})
	return from, fmt.Sprintf("no checkpoint to restore: job restarted with empty state from the beginning of the source, %d records read again", from)
}

// reset empties the output queues and what acknowledgements knew.
func (u *upstreamBackup) reset() {
	for _, qs := range u.backups {
		for t := range qs {
			qs[t] = nil
		}
	}
	u.rc.backupNow = 0
	clear(u.trigWM)
	clear(u.ackedWM)
}

func (u *upstreamBackup) backlog(n *node) int64 {
	var total int64
	for _, q := range u.backups[n] {
		total += int64(len(q))
	}
	return total
}

// acknowledgeWindows runs at each acknowledgement round: a window node's
// acknowledged watermark becomes that of its last trigger whose output the
// sink has committed. Every window final then has been emitted and
// acknowledged, so the records it counted are needed no more; windows that
// fired later are not acknowledged yet, and a replacement fires them again.
func (u *upstreamBackup) acknowledgeWindows() {
	for n, trigs := range u.trigWM {
		i := 0
		for i < len(trigs) && trigs[i][0] <= u.sinkEpoch {
			u.ackedWM[n] = trigs[i][1]
			i++
		}
		u.trigWM[n] = append(trigs[:0], trigs[i:]...)
	}
}

// trim applies the acknowledgement rule after the sink commits a batch,
// from the sink upstream. A node acknowledges a record once nothing
// downstream can need it again:
//
//   - the sink, once the micro-batch holding it is committed;
//   - a stateless operator, once what it derived from the record has been
//     acknowledged in turn (it is neither queued there nor kept in its own
//     output queues);
//   - a windowed count, once every window the record counts toward was
//     final at a trigger whose output the sink committed (in complete mode
//     never: the whole table is state).
func (u *upstreamBackup) trim() {
	r := u.rc.r
	u.acknowledgeWindows()
	var total int64
	for s := len(r.g.stages) - 2; s >= 0; s-- {
		for _, sender := range r.g.stages[s].nodes {
			for _, d := range r.g.downstream(sender) {
				t := d.index
				u.rc.acks++ // d acknowledges to sender
				need := u.needs(d)
				kept := u.backups[sender][t]
				q := kept[:0]
				for _, b := range kept {
					if need(b) {
						q = append(q, b)
					}
				}
				clear(kept[len(q):])
				u.backups[sender][t] = q
				total += int64(len(q))
			}
		}
	}
	u.rc.backupNow = total
}

// needs returns the predicate "d may still need this record".
func (u *upstreamBackup) needs(d *node) func(backupEntry) bool {
	r := u.rc.r
	if d.dead {
		// Everything sent to a dead node is what its replacement replays.
		return func(backupEntry) bool { return true }
	}
	if d.op == operator(r.sink) {
		return func(b backupEntry) bool { return b.epoch > u.sinkEpoch }
	}
	if w, ok := d.op.(*windowCount); ok {
		wm, acked := u.ackedWM[d]
		if w.mode == ModeComplete || !acked {
			return func(backupEntry) bool { return true }
		}
		return func(b backupEntry) bool {
			lastEnd := floorDiv(b.rec.Time, w.slide)*w.slide + w.size
			return lastEnd > wm
		}
	}
	held := u.scratch[d]
	if held == nil {
		held = map[int64]bool{}
		u.scratch[d] = held // reused: trimming runs after every commit
	}
	clear(held)
	for _, q := range u.backups[d] {
		for _, b := range q {
			held[b.rec.Offset] = true
		}
	}
	q := &r.det.queues[r.det.index[d]]
	for _, it := range q.items[q.head:] {
		held[it.e.rec.Offset] = true
	}
	for _, h := range d.held {
		for _, e := range h {
			held[e.rec.Offset] = true
		}
	}
	return func(b backupEntry) bool { return held[b.rec.Offset] }
}
