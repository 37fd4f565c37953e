package engine

import "encoding/binary"

// heldQueue is what a node holds back on one input while it waits for its
// other inputs' marker (see node.receive), oldest first. Behind a window
// count's trigger come thousands of rows, and an input can run tens of
// triggers ahead of another, so the elements are kept encoded: varints,
// times as distances from the element before, strings once a chunk,
// about 20 bytes a row rather than the 120 of an element.
type heldQueue struct {
	chunks []heldChunk // oldest first; elements are added to the last
	n      int
	// barriers counts the checkpoint barriers among them, for the lab's
	// picture of the job, which must not decode them all every frame.
	barriers int
}

// heldChunk is a run of encoded elements and the strings they name.
type heldChunk struct {
	data []byte
	strs []string
	read int // where the oldest element not yet taken begins
	// prev is the last element written (w) and read (r): the next is
	// encoded as distances from it.
	w, r element
}

// heldChunkBytes is how much a chunk holds before the next one begins:
// a chunk is given back once read to its end.
const heldChunkBytes = 32 << 10

func (q *heldQueue) len() int { return q.n }

// push adds e at the end.
func (q *heldQueue) push(e element) {
	if len(q.chunks) == 0 || len(q.chunks[len(q.chunks)-1].data) >= heldChunkBytes {
		q.chunks = append(q.chunks, heldChunk{})
	}
	q.chunks[len(q.chunks)-1].encode(e)
	q.n++
	if e.kind == kindBarrier {
		q.barriers++
	}
}

// pop takes the oldest element; q must not be empty.
func (q *heldQueue) pop() element {
	c := &q.chunks[0]
	e := c.decode()
	q.n--
	if e.kind == kindBarrier {
		q.barriers--
	}
	if c.read == len(c.data) {
		if len(q.chunks) > 1 {
			q.chunks[0] = heldChunk{}
			q.chunks = q.chunks[1:]
		} else {
			q.chunks = q.chunks[:0] // empty: the next push starts afresh
		}
	}
	return e
}

// each calls f with every element held, oldest first, taking none.
func (q *heldQueue) each(f func(element)) {
	for _, c := range q.chunks {
		for c.read < len(c.data) {
			f(c.decode())
		}
	}
}

// reset forgets everything held.
func (q *heldQueue) reset() { *q = heldQueue{} }

// encode appends e: its kind, then each field as a varint, the times as
// distances from those of the element before, the strings as indexes.
func (c *heldChunk) encode(e element) {
	p, r := &c.w, e.rec
	b := append(c.data, byte(e.kind))
	b = binary.AppendVarint(b, e.value-p.value)
	b = binary.AppendVarint(b, e.id-p.id)
	b = binary.AppendVarint(b, e.at-p.at)
	b = binary.AppendUvarint(b, r.ID-p.rec.ID)
	b = binary.AppendVarint(b, r.Offset-p.rec.Offset)
	b = binary.AppendVarint(b, r.Time-p.rec.Time)
	b = binary.AppendVarint(b, int64(r.Device))
	b = binary.AppendVarint(b, int64(r.senderRestarts))
	b = binary.AppendUvarint(b, c.str(r.Action))
	b = binary.AppendUvarint(b, c.str(r.Key))
	b = binary.AppendVarint(b, r.WindowStart-r.Time)
	b = binary.AppendVarint(b, r.WindowEnd-r.WindowStart)
	b = binary.AppendVarint(b, r.Value)
	c.data, c.w = b, e
}

// str is the index of s among the chunk's strings, added if it is not
// one of the last few (keys and actions repeat).
func (c *heldChunk) str(s string) uint64 {
	for i := len(c.strs) - 1; i >= 0 && i >= len(c.strs)-8; i-- {
		if c.strs[i] == s {
			return uint64(i)
		}
	}
	c.strs = append(c.strs, s)
	return uint64(len(c.strs) - 1)
}

// decode reads the element at read, as encode wrote it.
func (c *heldChunk) decode() element {
	b, p := c.data[c.read:], &c.r
	next := func() int64 {
		v, n := binary.Varint(b)
		b = b[n:]
		return v
	}
	nextU := func() uint64 {
		v, n := binary.Uvarint(b)
		b = b[n:]
		return v
	}
	var e element
	e.kind, b = kind(b[0]), b[1:]
	e.value = p.value + next()
	e.id = p.id + next()
	e.at = p.at + next()
	r := &e.rec
	r.ID = p.rec.ID + nextU()
	r.Offset = p.rec.Offset + next()
	r.Time = p.rec.Time + next()
	r.Device = int32(next())
	r.senderRestarts = int32(next())
	r.Action = c.strs[nextU()]
	r.Key = c.strs[nextU()]
	r.WindowStart = r.Time + next()
	r.WindowEnd = r.WindowStart + next()
	r.Value = next()
	c.read = len(c.data) - len(b)
	c.r = e
	return e
}
