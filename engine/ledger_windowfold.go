package engine

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"unsafe"
)

// The ledger's windows, folded. An aggregation's ledger has one cell per
// window and key; with sliding windows a record falls in size/slide of
// them (a thousand with 1 ms slides), so cells kept for ever grow with the
// output, not the state. Once the failure-free run's watermark has passed
// a window's end and its last row has been committed, that window's exp
// is final: foldWindows moves such cells out of the map into foldedKey,
// a compact step function of exp over window starts per key, and keeps in
// the map only the cells whose got differs (a window lost or counted twice
// so far). A folded cell the real sink writes again is made again from
// the step function (got == exp), so the counts are exactly those of
// keeping every cell. The step function changes at most twice per record
// counted (where a window starts or stops holding it), mostly by one and
// a few slides after the change before: one byte each then, a few
// otherwise; records the failure-free run left out as late are kept as
// ranges of starts (lateRanges), one per late record.

// foldPointsPerBlock is how many change points a block of a foldedKey
// holds: a lookup decodes one block.
const foldPointsPerBlock = 256

// foldedKey is exp over the folded window starts of one key: a step
// function stored as change points (start, value) in varint blocks. A
// start after last has no folded cell: exp 0.
type foldedKey struct {
	blocks   []foldBlock
	last     int64 // the latest start folded
	lastVal  int64 // the value at last
	prev     int64 // the latest change point's start
	anything bool  // a start has been folded
	data     int64 // bytes the blocks' data take (see bytes)
	// sealed lists the blocks filled since the ledger last took them
	// (see dropOldBlocks): only a full block is ever dropped.
	sealed []int
}

// bytes is the memory f takes: its blocks and their data.
func (f *foldedKey) bytes() int64 {
	return int64(unsafe.Sizeof(*f)) + int64(cap(f.blocks))*int64(unsafe.Sizeof(foldBlock{})) + f.data
}

// foldBlock holds up to foldPointsPerBlock change points from first on,
// each as its distance from the one before and its change of value (from
// 0 at the block's first): one byte, 1 and the sign and the distance,
// when the change is ±1 and the distance 1 to foldShortMax (most of
// them), else a 0 byte, the uvarint distance and the varint change.
type foldBlock struct {
	first int64
	n     int
	data  []byte
	// dropped: its points were given up (see dropOldBlocks) and are
	// made again from the source when asked.
	dropped bool
}

// foldShortMax is the longest distance a one-byte change point holds.
const foldShortMax = 63

// appendCell folds the cell of start s (after every start folded before)
// with value v; slide is the distance between two windows' starts, so
// that a start skipped is known to hold 0.
func (f *foldedKey) appendCell(s, v, slide int64) {
	if f.anything && f.lastVal != 0 && s != f.last+slide {
		f.point(f.last+slide, 0)
	}
	if !f.anything && v != 0 || f.anything && v != f.lastVal {
		f.point(s, v)
	}
	f.last, f.lastVal, f.anything = s, v, true
}

// point adds a change point: from s on, the value is v.
func (f *foldedKey) point(s, v int64) {
	n := len(f.blocks)
	if n == 0 || f.blocks[n-1].n == foldPointsPerBlock {
		if n > 0 {
			last := &f.blocks[n-1]
			f.data -= int64(cap(last.data))
			last.data = slices.Clip(last.data)
			f.data += int64(cap(last.data))
			f.sealed = append(f.sealed, n-1)
		}
		f.blocks = append(f.blocks, foldBlock{first: s})
		f.prev = s
		n++
	}
	b := &f.blocks[n-1]
	from := f.lastVal
	if b.n == 0 {
		from = 0
	}
	f.data -= int64(cap(b.data))
	b.data = appendFoldPoint(b.data, s-f.prev, v-from)
	f.data += int64(cap(b.data))
	b.n++
	f.prev, f.lastVal = s, v
}

// appendFoldPoint appends a change point: distance d from the one before,
// value changed by dv.
func appendFoldPoint(data []byte, d, dv int64) []byte {
	if 1 <= d && d <= foldShortMax && (dv == 1 || dv == -1) {
		b := 0x80 | byte(d)
		if dv < 0 {
			b |= 0x40
		}
		return append(data, b)
	}
	data = append(data, 0)
	data = binary.AppendUvarint(data, uint64(d))
	return binary.AppendVarint(data, dv)
}

// readFoldPoint reads the change point at the start of data and returns
// its distance, its change of value and what follows it.
func readFoldPoint(data []byte) (d, dv int64, rest []byte) {
	if b := data[0]; b&0x80 != 0 {
		d, dv = int64(b&foldShortMax), 1
		if b&0x40 != 0 {
			dv = -1
		}
		return d, dv, data[1:]
	}
	u, n := binary.Uvarint(data[1:])
	x, m := binary.Varint(data[1+n:])
	return int64(u), x, data[1+n+m:]
}

// at is exp of the folded window starting at s, when its block is
// there; ok is false when the block was dropped.
func (f *foldedKey) at(s int64) (exp int64, block int, ok bool) {
	if f == nil || !f.anything || s > f.last {
		return 0, -1, true
	}
	i := sort.Search(len(f.blocks), func(i int) bool { return f.blocks[i].first > s }) - 1
	if i < 0 {
		return 0, -1, true
	}
	if f.blocks[i].dropped {
		return 0, i, false
	}
	return f.blocks[i].at(s), i, true
}

// at is the value at s, a start at or after the block's first.
func (b *foldBlock) at(s int64) int64 {
	start, v, data := b.first, int64(0), b.data
	for range b.n {
		d, dv, rest := readFoldPoint(data)
		if start+d > s {
			break
		}
		start, v, data = start+d, v+dv, rest
	}
	return v
}

// lateRanges holds, for one key, the starts of the windows each late
// record was left out of: record i missed every window from los[i] to
// his[i]; both kept sorted, so that the late count of a window is two
// binary searches.
type lateRanges struct{ los, his []int64 }

// bytes is the memory lr's starts take.
func (lr *lateRanges) bytes() int64 { return int64(cap(lr.los)+cap(lr.his)) * 8 }

// What a key's entry in the folded windows (besides its foldedKey) and
// in the late records (besides the starts) takes (see Ledger.holds).
var (
	foldedKeyBytes = mapEntry[string, *foldedKey]()
	lateKeyBytes   = mapEntry[string, *lateRanges]() + int64(unsafe.Sizeof(lateRanges{}))
)

func (lr *lateRanges) add(lo, hi int64) {
	i, _ := slices.BinarySearch(lr.los, lo+1)
	lr.los = slices.Insert(lr.los, i, lo)
	j, _ := slices.BinarySearch(lr.his, hi+1)
	lr.his = slices.Insert(lr.his, j, hi)
}

// at counts the late records the window starting at s left out.
func (lr *lateRanges) at(s int64) int64 {
	if lr == nil {
		return 0
	}
	started, _ := slices.BinarySearch(lr.los, s+1) // lo ≤ s
	ended, _ := slices.BinarySearch(lr.his, s)     // hi < s
	return int64(started - ended)
}

// addLate notes a record of key the failure-free run left out of the
// windows starting from lo to hi, as late.
func (l *Ledger) addLate(key string, lo, hi int64) {
	if l.late == nil {
		l.late = map[string]*lateRanges{}
	}
	lr := l.late[key]
	if lr == nil {
		lr = &lateRanges{}
		l.late[key] = lr
		l.lateBytes += lateKeyBytes
	}
	l.lateBytes -= lr.bytes()
	lr.add(lo, hi)
	l.lateBytes += lr.bytes()
}

// lateAt counts the late records the failure-free run left out of k.
func (l *Ledger) lateAt(k windowKey) int64 { return l.late[k.key].at(k.start) }

// windowCell is the cell of window k, made again from its folded exp when
// it had none of its own.
func (l *Ledger) windowCell(k windowKey) *cell {
	c := l.cells[k]
	if c == nil {
		c = &cell{}
		if k.start < l.foldedBelow {
			e := l.foldedExp(k.key, k.start)
			c.exp, c.got = e, e
		}
		l.cells[k] = c
	}
	return c
}

// windowEffect reads window k's exp and got without making it a cell.
func (l *Ledger) windowEffect(k windowKey) (exp, got int64, ok bool) {
	if c := l.cells[k]; c != nil {
		return c.exp, c.got, true
	}
	if k.start < l.foldedBelow {
		if e := l.foldedExp(k.key, k.start); e != 0 {
			return e, e, true
		}
	}
	return 0, 0, false
}

// noteOver keeps over, the cells whose got exceeds exp, current: the
// only ones late records can make up part of (Totals).
func (l *Ledger) noteOver(k windowKey, c *cell) {
	if c.got > c.exp {
		if l.over == nil {
			l.over = map[windowKey]*cell{}
		}
		l.over[k] = c
	} else if l.over[k] != nil {
		delete(l.over, k)
		if len(l.over) == 0 {
			l.over = nil // a map keeps its largest size: let it go
		}
	}
}

// foldWindows folds the cells of windows whose exp is final: those
// starting before finalBelow. It runs once the map has doubled since the
// last fold, so that walking the map costs a constant per cell.
func (l *Ledger) foldWindows() {
	if l.events || l.mode == ModeComplete || l.finalBelow == nil || len(l.cells) < l.foldAt {
		return
	}
	below := l.finalBelow()
	if below <= l.foldedBelow {
		return
	}
	type foldCell struct {
		k   windowKey
		exp int64
	}
	var fold []foldCell
	for k, c := range l.cells {
		switch {
		case k.start >= below:
		case k.start >= l.foldedBelow:
			fold = append(fold, foldCell{k, c.exp})
			if c.got == c.exp {
				delete(l.cells, k)
				l.unfolded++
			}
		case c.got == c.exp && c.exp == l.foldedExp(k.key, k.start):
			delete(l.cells, k) // folded before, written again, agrees again
			l.unfolded++
		}
	}
	slices.SortFunc(fold, func(a, b foldCell) int {
		return cmp.Or(cmp.Compare(a.k.key, b.k.key), cmp.Compare(a.k.start, b.k.start))
	})
	if l.folded == nil {
		l.folded = map[string]*foldedKey{}
	}
	for _, c := range fold {
		f := l.folded[c.k.key]
		if f == nil {
			f = &foldedKey{}
			l.folded[c.k.key] = f
			l.foldedBytes += foldedKeyBytes + f.bytes()
		}
		l.foldedBytes -= f.bytes()
		f.appendCell(c.k.start, c.exp, max(l.slide, 1))
		l.foldedBytes += f.bytes()
		if len(f.sealed) > 0 {
			for _, i := range f.sealed {
				l.kept = append(l.kept, foldRef{c.k.key, i})
				l.foldBytes += len(f.blocks[i].data)
			}
			f.sealed = f.sealed[:0]
		}
	}
	l.dropOldBlocks()
	l.foldedBelow = below
	l.foldAt = max(2*len(l.cells), foldChunk)
	if l.unfolded > 4*len(l.cells) {
		// A map keeps the room of what was deleted; a fresh one gives
		// the folded cells' memory back.
		l.cells, l.unfolded = copyMap(l.cells), 0
	}
}

// foldedStarts lists the folded windows of key with a row (exp > 0) that
// start at start, or, by clock, at that time of day on any day the folded
// windows span; `why` finds a window by either.
func (l *Ledger) foldedStarts(key string, start, clock int64, byClock bool) []int64 {
	f := l.folded[key]
	if f == nil || len(f.blocks) == 0 {
		return nil
	}
	var out []int64
	try := func(s int64) {
		if s < l.foldedBelow && l.foldedExp(key, s) > 0 {
			out = append(out, s)
		}
	}
	if !byClock {
		try(start)
		return out
	}
	for day := floorDiv(f.blocks[0].first, dayMS); day <= floorDiv(f.last, dayMS); day++ {
		try(day*dayMS + clock)
	}
	return out
}

// foldBudget is how many bytes of change points the fold keeps in full
// blocks: past it the oldest give theirs up, and a block is made again
// from the source when a window in it is asked for (a row the real sink
// writes long after its window closed, or `why` of an old window). With
// 1 ms slides the points take about 2.3 bytes a record, 23 MB at 10 M
// records; the budget keeps the latest 450 000 records' or so.
const foldBudget = 1 << 20

// foldRef names a full block of the fold: its key's, by index.
type foldRef struct {
	key   string
	block int
}

// dropOldBlocks gives up the points of the oldest full blocks until the
// fold is within foldBudget, when the ledger can make them again.
func (l *Ledger) dropOldBlocks() {
	if l.windowTimes == nil {
		return
	}
	for l.foldBytes > l.foldBudget && l.keptHead < len(l.kept) {
		ref := l.kept[l.keptHead]
		l.kept[l.keptHead] = foldRef{}
		l.keptHead++
		f := l.folded[ref.key]
		b := &f.blocks[ref.block]
		l.foldBytes -= len(b.data)
		f.data -= int64(cap(b.data))
		l.foldedBytes -= int64(cap(b.data))
		b.data, b.n, b.dropped = nil, 0, true
	}
	if l.keptHead > 1024 && 2*l.keptHead > len(l.kept) {
		n := copy(l.kept, l.kept[l.keptHead:])
		clear(l.kept[n:])
		l.kept, l.keptHead = l.kept[:n], 0
	}
}

// foldedExp is exp of key's folded window starting at s, its block made
// again first if it was dropped.
func (l *Ledger) foldedExp(key string, s int64) int64 {
	f := l.folded[key]
	e, i, ok := f.at(s)
	if !ok {
		l.remakeBlock(key, f, i)
		e, _, _ = f.at(s)
	}
	return e
}

// remakeBlock makes dropped block i of key's fold again from the records
// the failure-free run's window count took: a window's exp is the records
// of key in it, less those that came after it was final (late). The
// change points are where a record's first window starts, after its last
// one, and where a late record's missed windows begin and end.
func (l *Ledger) remakeBlock(key string, f *foldedKey, i int) {
	b := &f.blocks[i]
	from, to := b.first, f.blocks[i+1].first // a full block has one after it
	slide := max(l.slide, 1)
	n := windowsPerRecord(l.size, slide)
	var ins, outs, marks []int64
	l.windowTimes(key, from, to-slide+l.size, func(t int64) {
		last := floorDiv(t, slide)
		in, out := (last-n+1)*slide, (last+1)*slide
		ins, outs, marks = append(ins, in), append(outs, out), append(marks, in, out)
	})
	lr := l.late[key]
	if lr != nil {
		marks = append(marks, lr.los...)
		for _, hi := range lr.his {
			marks = append(marks, hi+slide)
		}
	}
	marks = append(marks, from)
	slices.Sort(ins)
	slices.Sort(outs)
	slices.Sort(marks)
	var data []byte
	points, prevS, prevV := 0, from, int64(0)
	for _, s := range slices.Compact(marks) {
		if s < from || s >= to {
			continue
		}
		entered, _ := slices.BinarySearch(ins, s+1)
		left, _ := slices.BinarySearch(outs, s+1)
		v := int64(entered-left) - lr.at(s)
		if points == 0 || v != prevV {
			data = appendFoldPoint(data, s-prevS, v-prevV)
			points, prevS, prevV = points+1, s, v
		}
	}
	b.data, b.n, b.dropped = data, points, false
	f.data += int64(cap(data))
	l.foldedBytes += int64(cap(data))
	l.kept = append(l.kept, foldRef{key, i})
	l.foldBytes += len(data)
}
