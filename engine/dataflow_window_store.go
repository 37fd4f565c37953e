package engine

import (
	"math/bits"
	"slices"
	"unsafe"
)

// windowStore is a window count's state: a count per key and window, for
// the windows that have one. A record falls in up to a thousand
// consecutive windows of its key (1 s sliding by 1 ms), so the counts are
// kept in chunks of consecutive windows, one map lookup a chunk rather
// than one a window, each count 8 bytes rather than a map entry. A
// window is named by k, its start in slides (start = k·slide); a chunk
// holds the windows k of one key that share k >> shift.
//
// The chunks live side by side in slabs, a place each; a chunk whose
// windows have all been dropped gives its place back for the next one.
type windowStore struct {
	shift   uint              // log2 of the windows in a chunk
	places  map[chunkID]int32 // where each chunk lives
	ids     []chunkID         // per place: its chunk
	counts  []int64           // per place, a count per window of the chunk
	filled  []uint64          // per place, the windows with a count: a chunk is live while any is
	changed []uint64          // per place, the windows counted since the last trigger
	free    []int32           // places given back
	open    int               // windows with a count
	dropped int               // chunks removed from places since it was made afresh
}

// chunkID names a chunk: its key, and k >> shift of its windows.
type chunkID struct {
	key   string
	index int64
}

// newWindowStore sizes chunks for perRecord windows a record: the largest
// power of two not above it, at most 64 (a bit each in a mask), so that a
// record fills its chunks and a tumbling window wastes nothing.
func newWindowStore(perRecord int64) windowStore {
	width := min(max(perRecord, 1), 64)
	return windowStore{shift: uint(bits.Len64(uint64(width)) - 1), places: map[chunkID]int32{}}
}

func (s *windowStore) width() int64 { return 1 << s.shift }

// add counts one record in the n consecutive windows of key from k on.
func (s *windowStore) add(key string, k, n int64) {
	for n > 0 {
		index, slot := k>>s.shift, k&(s.width()-1)
		run := min(n, s.width()-slot)
		p := s.place(key, index)
		mask := runMask(slot, run)
		s.open += bits.OnesCount64(mask &^ s.filled[p])
		s.filled[p] |= mask
		s.changed[p] |= mask
		base := int64(p)<<s.shift + slot
		for i := range run {
			s.counts[base+i]++
		}
		k, n = k+run, n-run
	}
}

// runMask has the bits from slot for run windows.
func runMask(slot, run int64) uint64 {
	if run == 64 {
		return ^uint64(0)
	}
	return (1<<uint(run) - 1) << uint(slot)
}

// place is where the chunk of key and index lives, made if it is new.
func (s *windowStore) place(key string, index int64) int32 {
	id := chunkID{key, index}
	if p, ok := s.places[id]; ok {
		return p
	}
	var p int32
	if n := len(s.free); n > 0 {
		p, s.free = s.free[n-1], s.free[:n-1]
		s.ids[p] = id
	} else {
		p = int32(len(s.ids))
		s.ids = append(s.ids, id)
		s.filled = append(s.filled, 0)
		s.changed = append(s.changed, 0)
		s.counts = append(s.counts, make([]int64, s.width())...)
	}
	s.places[id] = p
	return p
}

// windowRow is one window's count, as a trigger emits it.
type windowRow struct {
	k     windowKey
	count int64
}

// appendWindows appends the windows with a count that pick selects by
// their chunk's masks (filled, changed), each with its start, the slide
// apart from the next; keep, when set, must also accept the start.
func (s *windowStore) appendWindows(rows []windowRow, slide int64, pick func(p int32) uint64, keep func(start int64) bool) []windowRow {
	for p := range s.ids {
		m := pick(int32(p))
		for m != 0 {
			slot := int64(bits.TrailingZeros64(m))
			m &= m - 1
			id := s.ids[p]
			start := (id.index<<s.shift + slot) * slide
			if keep == nil || keep(start) {
				rows = append(rows, windowRow{windowKey{start, id.key}, s.counts[int64(p)<<s.shift+slot]})
			}
		}
	}
	return rows
}

// changedWindows appends the windows counted since the last trigger.
func (s *windowStore) changedWindows(rows []windowRow, slide int64) []windowRow {
	return s.appendWindows(rows, slide, func(p int32) uint64 { return s.changed[p] }, nil)
}

// windows appends every window with a count that keep accepts (nil: all).
func (s *windowStore) windows(rows []windowRow, slide int64, keep func(start int64) bool) []windowRow {
	return s.appendWindows(rows, slide, func(p int32) uint64 { return s.filled[p] }, keep)
}

// clearChanged forgets what was counted since the last trigger.
func (s *windowStore) clearChanged() { clear(s.changed) }

// drop removes the windows whose start final accepts; final must hold for
// every start before one it holds for (a watermark), so that a chunk is
// dropped whole once its last window is final and kept whole while its
// first is not.
func (s *windowStore) drop(slide int64, final func(start int64) bool) {
	for p, id := range s.ids {
		if s.filled[p] == 0 {
			continue // a free place
		}
		first := id.index << s.shift
		if !final(first * slide) {
			continue
		}
		m := s.filled[p]
		if !final((first + s.width() - 1) * slide) {
			m = 0
			for slot := range s.width() {
				if final((first+slot)*slide) && s.filled[p]&(1<<uint(slot)) != 0 {
					m |= 1 << uint(slot)
				}
			}
		}
		s.clearWindows(int32(p), m)
	}
	s.compact()
}

// clearWindows removes the windows of mask from place p, and frees the
// place once none is left.
func (s *windowStore) clearWindows(p int32, mask uint64) {
	s.open -= bits.OnesCount64(mask)
	s.filled[p] &^= mask
	s.changed[p] &^= mask
	for m := mask; m != 0; m &= m - 1 {
		s.counts[int64(p)<<s.shift+int64(bits.TrailingZeros64(m))] = 0
	}
	if s.filled[p] == 0 {
		delete(s.places, s.ids[p])
		s.ids[p] = chunkID{}
		s.free = append(s.free, p)
		s.dropped++
	}
}

// compact makes the map and the slabs afresh once the chunks dropped since
// the last time outnumber those kept four to one: a Go map keeps the room
// of what was deleted, and the slabs the room of their most chunks.
func (s *windowStore) compact() {
	live := len(s.places)
	if s.dropped <= 4*live {
		return
	}
	fresh := windowStore{shift: s.shift, places: make(map[chunkID]int32, live), open: s.open,
		ids: make([]chunkID, 0, live), filled: make([]uint64, 0, live), changed: make([]uint64, 0, live),
		counts: make([]int64, 0, int64(live)<<s.shift)}
	for p, id := range s.ids {
		if s.filled[p] == 0 {
			continue
		}
		fresh.places[id] = int32(len(fresh.ids))
		fresh.ids = append(fresh.ids, id)
		fresh.filled = append(fresh.filled, s.filled[p])
		fresh.changed = append(fresh.changed, s.changed[p])
		fresh.counts = append(fresh.counts, s.counts[int64(p)<<s.shift:int64(p+1)<<s.shift]...)
	}
	*s = fresh
}

// clone is a copy that shares nothing with s (a checkpoint's).
func (s *windowStore) clone() windowStore {
	c := *s
	c.places = make(map[chunkID]int32, len(s.places))
	for id, p := range s.places {
		c.places[id] = p
	}
	c.ids, c.counts = slices.Clone(s.ids), slices.Clone(s.counts)
	c.filled, c.changed, c.free = slices.Clone(s.filled), slices.Clone(s.changed), slices.Clone(s.free)
	return c
}

// bytesWritten is what the windows take written out, each per written
// bytes of its key (see windowCount.stateBytes).
func (s *windowStore) bytesWritten(per func(key string) int64) int64 {
	var n int64
	for p, id := range s.ids {
		if c := bits.OnesCount64(s.filled[p]); c > 0 {
			n += int64(c) * per(id.key)
		}
	}
	return n
}

// holds is the memory the store takes, from its containers' sizes (a
// frame reads it, so it walks nothing): the map of chunks, and per place
// its id, its counts and its three masks.
func (s *windowStore) holds() int64 {
	return int64(len(s.places))*chunkEntryBytes + int64(cap(s.ids))*int64(unsafe.Sizeof(chunkID{})) +
		int64(cap(s.counts))*8 + int64(cap(s.filled)+cap(s.changed))*8 + int64(cap(s.free))*4
}
