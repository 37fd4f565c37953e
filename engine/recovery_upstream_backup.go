package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
	backups map[*node][]*backupQueue // per sender, per downstream node
	scratch map[*node]map[int64]bool
	// keeps counts, per node that derives records one by one (neither a
	// window count nor the sink), the entries of each source offset its
	// own output queues keep; released collects the offsets whose count
	// fell to zero since its senders' queues were last trimmed. A sender
	// thus finds what such a node no longer needs without walking what it
	// still does.
	keeps    map[*node]map[int64]int32
	released map[*node][]int64
	trigWM   map[*node][][2]int64 // window nodes: (epoch, watermark) at each trigger
	// ackedWM is, per window node, the watermark its downstream had
	// acknowledged at the last acknowledgement round: all a replacement
	// can know of what was emitted for good.
	ackedWM   map[*node]int64
	sinkEpoch int64 // the last micro-batch the sink committed
	commits   int64
}

// keptEntry is a kept record with its place in the order sent.
type keptEntry struct {
	backupEntry
	seq int64
}

// backupQueue is what one sender keeps for one downstream node. Trimming
// costs what it removes, not what it keeps, so that a node left down for a
// long run (its queue keeps everything) does not make every round slower:
//
//   - to the sink, entries leave from the front: epochs only grow in the
//     order sent;
//   - to a window count, a walk happens only when the oldest event time
//     kept could be final;
//   - to a node that derives records one by one, an entry that node still
//     keeps output for is parked under its offset, and looked at again
//     only once that offset is released.
type backupQueue struct {
	live []keptEntry // in the order sent
	// parked holds entries by source offset; a second entry of the same
	// offset (a replay sent it again) goes to more.
	parked   map[int64]keptEntry
	more     map[int64][]keptEntry
	nParked  int
	seq      int64
	minTime  int64 // the earliest event time in live (window counts)
	unsorted bool  // an entry went in with an epoch below the one before it
}

func (q *backupQueue) len() int { return len(q.live) + q.nParked }

func (q *backupQueue) push(b backupEntry) {
	if n := len(q.live); n > 0 && b.epoch < q.live[n-1].epoch {
		q.unsorted = true
	}
	if len(q.live) == 0 || b.rec.Time < q.minTime {
		q.minTime = b.rec.Time
	}
	q.seq++
	q.live = append(q.live, keptEntry{b, q.seq})
}

// entries returns what q keeps, in the order it was sent.
func (q *backupQueue) entries() []backupEntry {
	all := slices.Clone(q.live)
	for _, e := range q.parked {
		all = append(all, e)
	}
	for _, es := range q.more {
		all = append(all, es...)
	}
	slices.SortFunc(all, func(a, b keptEntry) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]backupEntry, len(all))
	for i, e := range all {
		out[i] = e.backupEntry
	}
	return out
}

func (q *backupQueue) clear() { *q = backupQueue{} }

// park puts e aside under its offset.
func (q *backupQueue) park(e keptEntry) {
	off := e.rec.Offset
	if q.parked == nil {
		q.parked = map[int64]keptEntry{}
	}
	q.nParked++
	if _, ok := q.parked[off]; !ok {
		q.parked[off] = e
		return
	}
	if q.more == nil {
		q.more = map[int64][]keptEntry{}
	}
	q.more[off] = append(q.more[off], e)
}

// unpark takes out what is parked under off and passes each entry to f.
func (q *backupQueue) unpark(off int64, f func(keptEntry)) {
	e, ok := q.parked[off]
	if !ok {
		return
	}
	delete(q.parked, off)
	q.nParked--
	f(e)
	for _, e := range q.more[off] {
		q.nParked--
		f(e)
	}
	delete(q.more, off)
}

func newUpstreamBackup(rc *recovery) *upstreamBackup {
	u := &upstreamBackup{rc: rc, backups: map[*node][]*backupQueue{}, scratch: map[*node]map[int64]bool{},
		keeps: map[*node]map[int64]int32{}, released: map[*node][]int64{},
		trigWM: map[*node][][2]int64{}, ackedWM: map[*node]int64{}}
	g := rc.r.g
	for _, n := range g.nodes {
		if n.stage+1 < len(g.stages) {
			qs := make([]*backupQueue, len(g.stages[n.stage+1].nodes))
			for i := range qs {
				qs[i] = &backupQueue{}
			}
			u.backups[n] = qs
			if u.derivesOneByOne(n) {
				u.keeps[n] = map[int64]int32{}
			}
		}
	}
	return u
}

// derivesOneByOne reports whether n acknowledges a record once what it
// derived from it is acknowledged in turn: any node but the source, a
// window count and the sink (see trim).
func (u *upstreamBackup) derivesOneByOne(n *node) bool {
	if n.stage == 0 || n.op == operator(u.rc.r.sink) {
		return false
	}
	_, window := n.op.(*windowCount)
	return !window
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
	u.backups[n][target].push(backupEntry{rec: r, epoch: n.epoch + 1})
	if k := u.keeps[n]; k != nil {
		k[r.Offset]++
	}
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
		for _, b := range u.backups[s][n.index].entries() {
			q.push(item{r.g.inputIndex(s), u.resent(n, b.rec)})
			replayed++
		}
		if s.wm != math.MinInt64 {
			q.push(item{r.g.inputIndex(s), element{kind: kindWatermark, value: s.wm}})
		}
	}
	return replayed, fmt.Sprintf("%s replaced: %d unacknowledged records replayed from upstream output queues", n.name, replayed)
}

// resent is the element that carries r again to n from an output queue.
// A record resent to the sink keeps the stamp of the attempt that produced
// it, but when it did is not kept (-1): the resend is counted among the
// restarts, which tells the lineage the replay that sent it.
func (u *upstreamBackup) resent(n *node, r Record) element {
	e := element{kind: kindRecord, rec: r}
	if n.op == operator(u.rc.r.sink) {
		e.at, e.id = -1, u.rc.restarted
	}
	return e
}

// restartSource re-reads the log from the oldest record downstream has not
// acknowledged.
func (u *upstreamBackup) restartSource(int64) int64 {
	r := u.rc.r
	src := r.g.nodes[0]
	from := r.cur.off
	for _, q := range u.backups[src] {
		for _, b := range q.entries() {
			from = min(from, b.rec.Offset)
		}
		q.clear()
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
		for _, q := range qs {
			q.clear()
		}
	}
	for _, k := range u.keeps {
		clear(k)
	}
	clear(u.released)
	u.rc.backupNow = 0
	clear(u.trigWM)
	clear(u.ackedWM)
}

func (u *upstreamBackup) backlog(n *node) int64 {
	var total int64
	for _, q := range u.backups[n] {
		total += int64(q.len())
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
				u.rc.acks++ // d acknowledges to sender
				q := u.backups[sender][d.index]
				u.trimFor(sender, d, q)
				total += int64(q.len())
			}
		}
		// Every sender has seen what the nodes it feeds released, but a
		// dead node's senders trimmed nothing: they see it once it is back.
		for _, d := range r.g.stages[s+1].nodes {
			if !d.dead {
				u.released[d] = u.released[d][:0]
			}
		}
	}
	u.rc.backupNow = total
}

// drop removes an entry sender kept, releasing its offset when it was the
// last one sender kept of it.
func (u *upstreamBackup) drop(sender *node, b backupEntry) {
	k := u.keeps[sender]
	if k == nil {
		return
	}
	if k[b.rec.Offset]--; k[b.rec.Offset] <= 0 {
		delete(k, b.rec.Offset)
		u.released[sender] = append(u.released[sender], b.rec.Offset)
	}
}

// trimFor removes from q, which sender keeps for d, what d no longer needs.
func (u *upstreamBackup) trimFor(sender, d *node, q *backupQueue) {
	r := u.rc.r
	if d.dead {
		return // everything sent to a dead node is what its replacement replays
	}
	if d.op == operator(r.sink) {
		if q.unsorted {
			u.filter(sender, q, func(b backupEntry) bool { return b.epoch > u.sinkEpoch })
			return
		}
		i := 0
		for i < len(q.live) && q.live[i].epoch <= u.sinkEpoch {
			u.drop(sender, q.live[i].backupEntry)
			i++
		}
		clear(q.live[:i])
		q.live = q.live[i:]
		return
	}
	if w, ok := d.op.(*windowCount); ok {
		wm, acked := u.ackedWM[d]
		if w.mode == ModeComplete || !acked {
			return // the whole table is state, or nothing is final yet
		}
		lastEnd := func(t int64) int64 { return floorDiv(t, w.slide)*w.slide + w.size }
		if len(q.live) == 0 || lastEnd(q.minTime) > wm {
			return // not even the earliest record's last window is final
		}
		u.filter(sender, q, func(b backupEntry) bool { return lastEnd(b.rec.Time) > wm })
		return
	}
	held := u.scratch[d]
	if held == nil {
		held = map[int64]bool{}
		u.scratch[d] = held // reused: trimming runs after every commit
	}
	clear(held)
	dq := &r.det.queues[r.det.index[d]]
	for _, it := range dq.items[dq.head:] {
		held[it.e.rec.Offset] = true
	}
	for _, h := range d.held {
		h.each(func(e element) { held[e.rec.Offset] = true })
	}
	for _, rec := range d.epochRecs {
		held[rec.Offset] = true
	}
	keeps := u.keeps[d]
	moved := false
	// Offsets d released: their parked entries are needed now only if
	// they are still on their way through d.
	for _, off := range u.released[d] {
		if keeps[off] > 0 {
			continue
		}
		q.unpark(off, func(e keptEntry) {
			if held[off] {
				q.live, moved = append(q.live, e), true
				return
			}
			u.drop(sender, e.backupEntry)
		})
	}
	kept := q.live[:0]
	for _, e := range q.live {
		switch off := e.rec.Offset; {
		case held[off]:
			kept = append(kept, e)
		case keeps[off] > 0:
			q.park(e)
		default:
			u.drop(sender, e.backupEntry)
		}
	}
	clear(q.live[len(kept):])
	q.live = kept
	if moved { // entries back from parked joined at the end
		slices.SortFunc(q.live, func(a, b keptEntry) int { return cmp.Compare(a.seq, b.seq) })
	}
}

// filter keeps the entries of q that need reports true, walking them all.
func (u *upstreamBackup) filter(sender *node, q *backupQueue, need func(backupEntry) bool) {
	kept := q.live[:0]
	q.unsorted = false
	for _, e := range q.live {
		if !need(e.backupEntry) {
			u.drop(sender, e.backupEntry)
			continue
		}
		if n := len(kept); n > 0 && e.epoch < kept[n-1].epoch {
			q.unsorted = true
		}
		if len(kept) == 0 || e.rec.Time < q.minTime {
			q.minTime = e.rec.Time
		}
		kept = append(kept, e)
	}
	clear(q.live[len(kept):])
	q.live = kept
}
