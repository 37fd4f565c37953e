package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
)

// Source is a seeded, replayable event log, like one Kafka partition: the
// event at an offset is a pure function of the seed and the offset, so any
// position can be re-read after a failure and every run sees the same log.
type Source struct {
	spec   jobspec.Source
	salt   uint64
	start  int64    // event time of offset 0, Unix ms
	events []Record // a replayed file's events (replay)
	replay bool     // the log is a file's: bounded, possibly empty
	// firstOf maps the offset of each replayed event whose id an earlier
	// event has to that earlier event's offset; repeats lists those
	// offsets in order. Generated ids never repeat.
	firstOf map[int64]int64
	repeats []int64
	actions []string
	list    []string // compromised passwords, for a login source
}

// maxFileEvents bounds a replayed file so a huge file cannot exhaust memory.
const maxFileEvents = 10_000_000

// NewSource builds the log for a source spec and seed. A spec with a File
// replays that file (JSON Lines, as written by DumpSource).
func NewSource(spec jobspec.Source, seed int64) (*Source, error) {
	if spec.Rate <= 0 {
		return nil, badConfig("source rate must be positive, got %d", spec.Rate)
	}
	s := &Source{spec: spec, salt: mix(uint64(seed) ^ 0x5eed5eed5eed5eed), start: spec.Start.UnixMilli(), actions: spec.Actions}
	if len(s.actions) == 0 {
		s.actions = []string{"open", "close"}
	}
	if spec.Passwords {
		s.list = compromised()
	}
	if spec.File != "" {
		events, err := readEvents(spec.File)
		if err != nil {
			return nil, err
		}
		s.events, s.replay = events, true
		first := map[uint64]int64{}
		for off, e := range events {
			if f, ok := first[e.ID]; ok {
				if s.firstOf == nil {
					s.firstOf = map[int64]int64{}
				}
				s.firstOf[int64(off)] = f
				s.repeats = append(s.repeats, int64(off))
			} else {
				first[e.ID] = int64(off)
			}
		}
	}
	return s, nil
}

// firstWithID is the offset of the first event with the id of the event at
// off: off itself unless a replayed file repeats an id. A table keyed by id
// holds one row for all of them, so the ledger counts them as one.
func (s *Source) firstWithID(off int64) int64 {
	if f, ok := s.firstOf[off]; ok {
		return f
	}
	return off
}

// RepeatedIDs counts the events among the first n whose id an earlier
// event has (a replayed file's; generated ids never repeat).
func (s *Source) RepeatedIDs(n int64) int64 {
	i, _ := slices.BinarySearch(s.repeats, n)
	return int64(i)
}

// Len is the number of events in a replayed file, or -1 for a generated,
// unbounded log. An empty file is an empty log, finished before it starts,
// not a cue to generate one.
func (s *Source) Len() int64 {
	if !s.replay {
		return -1
	}
	return int64(len(s.events))
}

// Arrival is when the event at off reaches the source, in virtual ms since
// the job started: the source delivers Rate events per virtual second.
func (s *Source) Arrival(off int64) int64 { return off * 1000 / int64(s.spec.Rate) }

// firstArrivingAtOrAfter is the smallest offset whose arrival is >= t.
func (s *Source) firstArrivingAtOrAfter(t int64) int64 {
	rate := int64(s.spec.Rate)
	off := t * rate / 1000
	for off > 0 && s.Arrival(off-1) >= t {
		off--
	}
	for s.Arrival(off) < t {
		off++
	}
	return off
}

// At returns the event at offset off.
func (s *Source) At(off int64) Record {
	if s.replay {
		return s.events[off]
	}
	id := mix(uint64(off) + s.salt) // a bijection of off: ids never collide
	h := mix(id ^ 0xd1b54a32d192ed03)
	action := s.actions[h%uint64(len(s.actions))]
	key := action
	if s.spec.Passwords {
		key = freshPassword(id)
		if unit(mix(h^0x70a55)) < s.spec.Compromised {
			key = s.list[mix(h^0x1ea4)%uint64(len(s.list))]
		}
	}
	devices := uint64(max(s.spec.Devices, 1))
	device := int32(mix(h) % devices)
	return Record{
		ID:     id,
		Offset: off,
		Time:   s.start + s.Arrival(off) - s.delay(id),
		Device: device,
		Action: action,
		Key:    key,
	}
}

// IsLate reports whether the event at off was generated with extra lateness
// (beyond the ordinary disorder).
func (s *Source) IsLate(off int64) bool {
	if s.replay {
		return false
	}
	return s.late(mix(uint64(off) + s.salt))
}

func (s *Source) late(id uint64) bool {
	return unit(mix(id^0x8cb92ba72f3d8dd7)) < s.spec.LateFraction
}

// delay is how far an event's time trails its arrival.
func (s *Source) delay(id uint64) int64 {
	disorder := s.spec.Disorder.Milliseconds()
	var d int64
	if disorder > 0 {
		d = int64(mix(id^0x2545f4914f6cdd1d) % uint64(disorder+1))
	}
	if lateBy := s.spec.LateBy.Milliseconds(); lateBy > 0 && s.late(id) {
		d += disorder + 1 + int64(mix(id^0x9e3779b97f4a7c15)%uint64(lateBy))
	}
	return d
}

// maxDelay is the most delay gives: the disorder, and for a late event
// the disorder again, one and its lateness.
func (s *Source) maxDelay() int64 {
	disorder := max(s.spec.Disorder.Milliseconds(), 0)
	if lateBy := s.spec.LateBy.Milliseconds(); lateBy > 0 {
		return 2*disorder + lateBy
	}
	return disorder
}

// mix is the SplitMix64 finalizer: a bijection on uint64 with good
// avalanche, so hashing (seed, offset) gives independent-looking fields.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// dumpedEvent is one line of a source dump (--dump-source, whose format the
// README gives).
type dumpedEvent struct {
	ID     uint64 `json:"id"`
	Time   int64  `json:"time"`
	Action string `json:"action"`
	Key    string `json:"key"`
	Offset int64  `json:"offset"`
	Device int32  `json:"device"`
}

// Dump writes events [0, n) as JSON Lines.
func (s *Source) Dump(w io.Writer, n int64) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for off := range n {
		r := s.At(off)
		if err := enc.Encode(dumpedEvent{r.ID, r.Time, r.Action, r.Key, r.Offset, r.Device}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// readEvents loads a JSON Lines event file. Offsets are reassigned by
// position; a missing key defaults to the action.
func readEvents(path string) ([]Record, error) {
	f, err := untrusted.OpenPath(path) // a regular file, not a link out of its directory
	if err != nil {
		return nil, badConfig("source file: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []Record
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if len(text) == 0 {
			continue
		}
		if len(out) >= maxFileEvents {
			return nil, poserr.New(ErrBadConfig, path, line, 0, fmt.Sprintf("more than %d events", maxFileEvents))
		}
		r, msg := decodeEvent(text)
		if msg != "" {
			return nil, poserr.New(ErrBadConfig, path, line, 0, msg)
		}
		r.Offset = int64(len(out))
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, poserr.New(ErrBadConfig, path, line+1, 0, err.Error())
	}
	return out, nil
}

// decodeEvent reads one line of an event file, or says what was wrong
// with it. A missing key defaults to the action.
func decodeEvent(text []byte) (Record, string) {
	var e struct {
		ID     *uint64 `json:"id"`
		Time   *int64  `json:"time"`
		Action string  `json:"action"`
		Key    string  `json:"key"`
		Offset int64   `json:"offset"`
		Device int32   `json:"device"`
	}
	if err := json.Unmarshal(text, &e); err != nil {
		return Record{}, fmt.Sprintf("expected a JSON event {\"id\":…,\"time\":…,\"action\":…}: %v", err)
	}
	if e.ID == nil || e.Time == nil || e.Action == "" {
		return Record{}, `an event needs "id", "time" (Unix ms) and "action"`
	}
	if t := *e.Time; t < jobspec.MinEventTime || t > jobspec.MaxEventTime {
		return Record{}, fmt.Sprintf("time %d is outside the event times a job can window: Unix ms from %d to %d (the years 1 to 9999)",
			t, jobspec.MinEventTime, jobspec.MaxEventTime)
	}
	key := e.Key
	if key == "" {
		key = e.Action
	}
	return Record{ID: *e.ID, Time: *e.Time, Device: e.Device, Action: e.Action, Key: key}, ""
}

// admissions are what a run has let into the source: records up to limit,
// virtual time up to clock, and where each admission ended. Every cursor
// over the same log shares them.
type admissions struct {
	limit  int64   // records admitted so far
	clock  int64   // virtual ms: the end of the last admission
	runEnd int64   // time triggers due at or before this have come
	bounds []bound // one per admission, in order
}

// bound is where an admission ended: after the record before off, once the
// time triggers due by runEnd have come, an end-of-admission trigger closes
// the micro-batch (and, with checkpoints, a barrier lets it commit).
type bound struct{ off, runEnd int64 }

// admitRecords lets n more records in; virtual time moves to the last one.
func (a *admissions) admitRecords(src *Source, n int64) int64 {
	if l := src.Len(); l >= 0 {
		n = min(n, l-a.limit)
	}
	if n > 0 {
		a.limit += n
		a.runEnd = src.Arrival(a.limit - 1)
		a.clock = a.runEnd + 1
	}
	a.bounds = append(a.bounds, bound{a.limit, a.runEnd})
	return n
}

// admitFor moves virtual time on by d, letting in what arrives meanwhile.
func (a *admissions) admitFor(src *Source, d time.Duration) int64 {
	a.clock += d.Milliseconds()
	a.runEnd = a.clock - 1
	limit := src.firstArrivingAtOrAfter(a.clock)
	if l := src.Len(); l >= 0 {
		limit = min(limit, l)
	}
	n := max(limit-a.limit, 0)
	a.limit = max(a.limit, limit)
	a.bounds = append(a.bounds, bound{a.limit, a.runEnd})
	return n
}

// cursor walks the source log for one consumer, interleaving records with
// watermarks and markers at positions fixed by the log and the admissions
// alone, never by the wall clock or by when the cursor gets to run: the
// source node and the failure-free reference both use one, and see the
// same stream; a source rewound to a checkpoint sees it again.
type cursor struct {
	src *Source
	*admissions
	pos             // where the cursor reads; a checkpoint saves this
	trigger   int64 // trigger interval, ms
	watermark int64 // bounded out-of-orderness, ms; <0 means no watermark
	every     int64 // the checkpoint interval in records (0: none)
	barrierAt int64 // offset before which the last barrier went out
	ckpt      int64 // checkpoint ids handed out
	seq       int64 // marker sequence numbers handed out
	triggers  int64 // triggers handed out (a trigger's id), rewinds or not
	// rewinds says, from each rewind on, how far trigger ids run ahead of
	// their place in the stream (see place).
	rewinds    []triggerShift
	wmSent     bool // the watermark before a pending trigger went out
	endBarrier bool // a barrier owed after an end-of-admission trigger
	sendEnd    bool // send kindEnd once everything admitted is out (concurrent runs)
}

// pos is the part of a cursor that a checkpoint saves and a recovery
// rewinds to: the offset and what the watermark and triggers depend on.
type pos struct {
	off         int64 // next offset to emit
	nextTrigger int64
	maxTime     int64
	seen        bool
	bound       int // the next admission bound to close
	// fired counts the triggers before this position: a trigger's place
	// in the stream, the same when a rewind emits it again.
	fired int64
}

// triggerShift is how far trigger ids run ahead of their place from id
// from on: the triggers emitted again since the rewinds so far.
type triggerShift struct{ from, by int64 }

func newCursor(src *Source, adm *admissions, trigger, watermark time.Duration) *cursor {
	t := max(trigger.Milliseconds(), 1)
	wm := watermark.Milliseconds()
	if watermark < 0 {
		wm = -1
	}
	return &cursor{src: src, admissions: adm, trigger: t, pos: pos{nextTrigger: t}, watermark: wm, barrierAt: -1}
}

// rewind moves the cursor back to a saved position: the records after it
// will be emitted again (a checkpoint restore, a replay from the log).
func (c *cursor) rewind(p pos) {
	c.rewinds = append(c.rewinds, triggerShift{from: c.triggers + 1, by: c.triggers - p.fired})
	c.pos = p
	c.barrierAt = p.off
	c.wmSent = false
}

// now is the virtual time of the source: when the next record arrives, or
// the end of the admitted time when there is none.
func (c *cursor) now() int64 {
	if c.off < c.limit {
		return c.src.Arrival(c.off)
	}
	return c.clock
}

// pending reports whether next has something to emit.
func (c *cursor) pending() bool {
	return c.off < c.limit || c.bound < len(c.bounds) || c.endBarrier || c.sendEnd
}

func (c *cursor) marker(k kind) element {
	c.seq++
	e := element{kind: k, value: c.seq, at: c.now()}
	switch k {
	case kindBarrier:
		c.ckpt++
		e.id = c.ckpt
	case kindTrigger:
		c.triggers++
		c.fired++
		e.id = c.triggers
	}
	return e
}

// place is the place in the stream of the trigger with id id: the id
// itself until a rewind, then less the triggers emitted again. The
// failure-free run, which never rewinds, commits its batch for a place
// when the real sink commits any trigger of that place.
func (c *cursor) place(id int64) int64 {
	for i := len(c.rewinds) - 1; i >= 0; i-- {
		if s := c.rewinds[i]; id >= s.from {
			return id - s.by
		}
	}
	return id
}

// next returns the next element of the stream, if any.
func (c *cursor) next() (element, bool) {
	switch {
	case c.endBarrier:
		// A run ends with a checkpoint, so that what it wrote commits: a
		// transactional sink shows nothing until a checkpoint completes.
		c.endBarrier = false
		c.barrierAt = c.off
		return c.marker(kindBarrier), true
	case c.bound < len(c.bounds) && c.bounds[c.bound].off <= c.off:
		if e, ok := c.watermarkFirst(); ok {
			return e, true
		}
		if c.nextTrigger <= c.bounds[c.bound].runEnd {
			c.nextTrigger += c.trigger
			return c.marker(kindTrigger), true
		}
		c.bound++
		c.endBarrier = c.every > 0
		return c.marker(kindTrigger), true
	case c.off < c.limit && c.every > 0 && c.off > 0 && c.off%c.every == 0 && c.barrierAt != c.off:
		c.barrierAt = c.off
		return c.marker(kindBarrier), true
	case c.off < c.limit && c.src.Arrival(c.off) < c.nextTrigger:
		r := c.src.At(c.off)
		c.off++
		if !c.seen || r.Time > c.maxTime {
			c.maxTime, c.seen = r.Time, true
		}
		return element{kind: kindRecord, rec: r}, true
	case c.off < c.limit:
		if e, ok := c.watermarkFirst(); ok {
			return e, true
		}
		c.nextTrigger += c.trigger
		return c.marker(kindTrigger), true
	case c.sendEnd:
		c.sendEnd = false
		return c.marker(kindEnd), true
	}
	return element{}, false
}

// watermarkFirst emits the watermark that precedes each trigger, once.
func (c *cursor) watermarkFirst() (element, bool) {
	if c.wmSent || c.watermark < 0 || !c.seen {
		c.wmSent = false
		return element{}, false
	}
	c.wmSent = true
	return element{kind: kindWatermark, value: c.maxTime - c.watermark}, true
}
