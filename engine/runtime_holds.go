package engine

import "unsafe"

// Holds is the memory, in bytes, that the run's state holds now beyond
// what Snapshot shows record by record (queues, alignment, upstream
// backup, the sink's latest rows) and the filter (FilterStats.Bytes): the
// open windows of every node, its active standby and the failure-free
// run, the ledger's cells and folded windows, the rows' lineage, the
// checkpoints kept and in progress, and the sink's batch being gathered.
//
// It is an estimate from the sizes of those containers (entries times
// what an entry takes, map slots included), never a walk over them: a
// lab reads it in every frame, whatever the state has grown to. A
// window's key is shared with the records it came from and is not
// counted again.
func (r *Runtime) Holds() int64 {
	var n int64
	for _, x := range r.g.nodes {
		n += operatorHolds(x.op) + operatorHolds(x.rep)
	}
	n += r.sink.holds()
	if r.ref != nil {
		for _, op := range r.ref.ops {
			n += operatorHolds(op)
		}
		n += r.ref.sink.holds()
	}
	if r.ledger != nil {
		n += r.ledger.holds()
	}
	if r.lin != nil {
		n += r.lin.holds()
	}
	if r.recovery != nil && r.recovery.ckpt != nil {
		n += r.recovery.ckpt.holds()
	}
	return n
}

// mapEntry is what one entry of a map from K to V takes: its slot (key
// and value, aligned), its control byte, and the room a map keeps free.
// A growing map holds between 1.6 and 2.5 slots an entry (its tables
// split as they fill), 2 on the whole.
func mapEntry[K comparable, V any]() int64 {
	var slot struct {
		k K
		v V
	}
	return (int64(unsafe.Sizeof(slot)) + 1) * 2
}

// Sizes of the entries Holds counts.
var (
	chunkEntryBytes = mapEntry[chunkID, int32]()
	truthEntryBytes = mapEntry[uint64, struct{}]()
	ledgerCellBytes = mapEntry[windowKey, *cell]() + int64(unsafe.Sizeof(cell{}))
	oddCellBytes    = mapEntry[int64, *cell]() + int64(unsafe.Sizeof(cell{}))
	overEntryBytes  = mapEntry[windowKey, *cell]()
	lineageRowBytes = mapEntry[rowKey, *rowLineage]() + int64(unsafe.Sizeof(rowLineage{}))
	rowCopyBytes    = int64(unsafe.Sizeof(rowCopy{}))
)

// operatorHolds is the memory op's state holds: a window count's store
// of open windows (and which changed since the last trigger), and a
// dedup stage's record of the ids it has really seen; nothing for
// stateless operators. A filter's bits are not in it (FilterStats).
func operatorHolds(op operator) int64 {
	switch o := op.(type) {
	case *windowCount:
		return o.windows.holds()
	case *dedupOp:
		return int64(len(o.truth))*truthEntryBytes + int64(cap(o.seenOffsets))*8
	}
	return 0
}

// holds is the batch the sink gathers until the next trigger.
func (s *sinkOp) holds() int64 {
	return int64(cap(s.buf))*recordBytes + int64(cap(s.origins))*int64(unsafe.Sizeof(rowOrigin{}))
}

// holds is the ledger's cells, kept and folded, and its late records.
func (l *Ledger) holds() int64 {
	return int64(cap(l.dense))*int64(unsafe.Sizeof(cell{})) + int64(cap(l.expBits))*8 +
		int64(len(l.odd))*oddCellBytes + int64(len(l.cells))*ledgerCellBytes +
		int64(len(l.over))*overEntryBytes + l.foldedBytes + l.lateBytes
}

// holds is the lineage's rows, each with its first copy, and a row
// written again with room for keptCopies (a slice grown by doubling), and
// the ring that orders them. Each copy names its node in a string of its
// own.
func (l *lineage) holds() int64 {
	copyBytes := rowCopyBytes + 16
	return int64(len(l.rows))*(lineageRowBytes+copyBytes) + int64(l.pinned)*(pinnedCopies-1)*copyBytes +
		int64(cap(l.ring))*int64(unsafe.Sizeof(rowKey{}))
}

// pinnedCopies is the room a row written keptCopies times has for them.
const pinnedCopies = 8

// holds is the state the last completed checkpoint keeps and the pending
// ones have copied so far.
func (c *coordinator) holds() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	if c.last != nil {
		n += c.last.bytes
	}
	for _, cp := range c.pending {
		n += cp.bytes
	}
	return n
}
