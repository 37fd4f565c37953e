package engine

import (
	"fmt"
	"maps"
	"slices"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// dedupName names the dedup stage `set filter` places before the sink.
const dedupName = "dedup"

// dedupOp is a dedup stage: it asks its membership filter whether a record
// was seen and drops it when the answer is yes. Beside the filter it keeps
// the truth — the ids it really has seen — only to tell a duplicate from a
// false positive (a first sighting the filter wrongly calls seen), which
// the lab reports as a false drop.
//
// An exact filter is its own truth: it keeps no second set, which would
// double the memory that grows with the ids seen and the cost of every
// checkpoint's copy. For source events the truth is one bit per source
// offset (seenOffsets): an event's id names one offset, the first with
// that id (canon), so a set of ids, some 40 bytes an id, says no more.
type dedupOp struct {
	passive
	f     filter.Filter
	truth map[uint64]struct{} // result rows' ids; nil for an exact filter
	// seenOffsets has the bit of each canonical offset whose event has
	// come; canon maps an offset to the first with its id (nil: itself).
	seenOffsets []uint64
	canon       func(off int64) int64
	firsts      int64 // first sightings
	drops       int64 // records dropped
	falseDrops  int64 // first sightings dropped
	// expected sums, over the first sightings, the formula's rate at the
	// fill each one met: the false drops theory predicts, the same
	// quantity falseDrops measures.
	expected float64
	// curve is the same counts by n, the distinct ids offered before
	// each first sighting: the measured rate at each fill.
	curve filter.Curve
	// m and k shape a Bloom filter (0 for other kinds).
	m, k uint64
	// falseRows are the result rows dropped by mistake, per window and
	// key: a row carries a count, not one record, so the ledger needs
	// their values to say in its own unit what the mistakes cost
	// (Ledger.filterLost). Events need no such list: one is one record.
	falseRows map[windowKey]droppedRows
	// falseOffsets are the first events dropped by mistake, for the
	// lineage (lineage_explain.go); at most maxFalseOffsets are kept.
	falseOffsets []int64
}

// maxFalseOffsets bounds dedupOp.falseOffsets.
const maxFalseOffsets = 4096

// orderSensitive is an operator whose output depends on the order its
// records arrive in, not only on which records they are. A node running
// one behind a merge of parallel nodes sorts each epoch's records (see
// node.sorted and graph.fixedOrder): the records between two markers are
// the same under either executor and in any interleaving, their order is
// not.
type orderSensitive interface{ orderSensitive() }

// orderSensitive: of two records with the same id the first passes, with
// its own offset; a Bloom filter's false positives depend on which ids it
// took before.
func (*dedupOp) orderSensitive() {}

// droppedRows sums up the rows of one window and key a filter dropped by
// mistake: the largest value (what an update would have shown) and the
// sum (what appended rows would have added).
type droppedRows struct{ max, sum int64 }

func newDedup(spec filter.Spec) (*dedupOp, error) {
	f, err := filter.New(spec)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, badConfig("a dedup stage needs a filter: set filter exact or bloom")
	}
	d := &dedupOp{f: f}
	if spec.Kind != filter.KindExact {
		d.truth = map[uint64]struct{}{}
	}
	if st := f.Stats(); st.Kind == filter.KindBloom {
		d.m, d.k = st.M, st.K
	}
	return d, nil
}

// rateForNext is the formula's chance that the next new id is taken for
// seen. For a Bloom filter n is every distinct id offered so far, the
// falsely dropped ones too: their bits were set already, so the filter is
// in the state of one that took them all. (Counting only the ids it took
// for new would predict too few: those are the ids whose bits were not all
// set, which fill it faster than n random ids would.)
func (d *dedupOp) rateForNext() float64 {
	if d.m > 0 {
		return filter.TheoreticalFP(d.m, d.k, d.firsts)
	}
	return d.f.RateNow()
}

// DedupID is the id a dedup stage filters on: a source event's id, or, for
// a result row, a fingerprint of its window, key and value, so that a row
// emitted again unchanged is a duplicate and an updated row is not.
func DedupID(r Record) uint64 {
	if !r.IsResult() {
		return r.ID
	}
	return mix(uint64(r.WindowStart) ^ mix(uint64(hashKey(r.Key))<<32^uint64(r.Value)))
}

func (d *dedupOp) record(r Record, out emitter) {
	id := DedupID(r)
	if d.truth == nil { // exact: the filter's answer is the truth
		if d.f.TestAndAdd(id) {
			d.drops++
			return
		}
		d.firsts++
		out.emit(r)
		return
	}
	seen := d.sawBefore(r, id)
	rate := 0.0
	if !seen {
		rate = d.rateForNext()
		d.expected += rate
		d.firsts++
	}
	dropped := d.f.TestAndAdd(id)
	if !seen {
		d.curve.Add(dropped, rate)
	}
	if dropped {
		d.drops++
		if !seen {
			d.falseDrops++
			if r.IsResult() {
				d.dropRow(r)
			} else if len(d.falseOffsets) < maxFalseOffsets {
				d.falseOffsets = append(d.falseOffsets, r.Offset)
			}
		}
		return
	}
	out.emit(r)
}

// sawBefore reports whether the id of r came before, and notes that it
// has come now: by its canonical offset for a source event, by id for a
// result row.
func (d *dedupOp) sawBefore(r Record, id uint64) bool {
	if r.IsResult() || r.Offset < 0 {
		_, seen := d.truth[id]
		d.truth[id] = struct{}{}
		return seen
	}
	o := r.Offset
	if d.canon != nil {
		o = d.canon(o)
	}
	w, bit := o/64, uint64(1)<<(o%64)
	for int64(len(d.seenOffsets)) <= w {
		d.seenOffsets = append(d.seenOffsets, 0)
	}
	seen := d.seenOffsets[w]&bit != 0
	d.seenOffsets[w] |= bit
	return seen
}

// dropRow notes a result row dropped by mistake.
func (d *dedupOp) dropRow(r Record) {
	if d.falseRows == nil {
		d.falseRows = map[windowKey]droppedRows{}
	}
	k := windowKey{r.WindowStart, r.Key}
	dr := d.falseRows[k]
	dr.max, dr.sum = max(dr.max, r.Value), dr.sum+r.Value
	d.falseRows[k] = dr
}

// dedupState is a dedup stage's checkpoint: the filter in the library's
// binary encoding, and the counters.
type dedupState struct {
	filter                    []byte
	truth                     map[uint64]struct{}
	seenOffsets               []uint64
	firsts, drops, falseDrops int64
	expected                  float64
	curve                     filter.Curve
	falseRows                 map[windowKey]droppedRows
}

func (d *dedupOp) snapshot() any {
	b, err := d.f.MarshalBinary()
	if err != nil {
		panic(fmt.Sprintf("dedup: encoding the filter: %v", err)) // a filter always encodes
	}
	return &dedupState{filter: b, truth: maps.Clone(d.truth), seenOffsets: slices.Clone(d.seenOffsets), firsts: d.firsts, drops: d.drops, falseDrops: d.falseDrops, expected: d.expected, curve: d.curve,
		falseRows: maps.Clone(d.falseRows)}
}

func (d *dedupOp) restore(state any) {
	s := state.(*dedupState)
	if err := d.f.UnmarshalBinary(s.filter); err != nil {
		panic(fmt.Sprintf("dedup: restoring the filter: %v", err)) // written by the same spec
	}
	d.truth = maps.Clone(s.truth)
	d.seenOffsets = slices.Clone(s.seenOffsets)
	d.firsts, d.drops, d.falseDrops, d.expected, d.curve = s.firsts, s.drops, s.falseDrops, s.expected, s.curve
	d.falseRows = maps.Clone(s.falseRows)
}

func (d *dedupOp) stateBytes() int64 { return d.f.Stats().Bytes }

// FilterStats describes a dedup stage's filter for snapshots and reports.
type FilterStats struct {
	filter.Stats
	Spec       string
	FalseDrops int64
	Drops      int64
	Firsts     int64
	// MeasuredFP is false drops over first sightings.
	MeasuredFP float64
	// ExpectedFalseDrops is what the formula predicts for FalseDrops: its
	// rate at the fill each first sighting met, summed.
	ExpectedFalseDrops float64
	// Curve is the first sightings and false drops by n, the distinct
	// ids offered before each: the measured rate at each fill, to set
	// beside the formula's. Zero for an exact set and the breach check.
	Curve filter.Curve
}

func (d *dedupOp) stats() FilterStats {
	s := FilterStats{Stats: d.f.Stats(), Spec: d.f.Spec().String(), FalseDrops: d.falseDrops, Drops: d.drops, Firsts: d.firsts, ExpectedFalseDrops: d.expected, Curve: d.curve}
	if d.firsts > 0 {
		s.MeasuredFP = float64(d.falseDrops) / float64(d.firsts)
	}
	if d.m > 0 {
		s.EstimatedFP = d.rateForNext() // n: every distinct id offered, as above
	}
	return s
}

// withDedup places a dedup stage before the sink, unless the job places
// one itself.
func withDedup(spec jobspec.Spec, f filter.Spec) jobspec.Spec {
	if f.Kind == "" || f.Kind == filter.KindNone {
		return spec
	}
	for _, op := range spec.Operators {
		if op.Kind == jobspec.KindDedup {
			return spec
		}
	}
	spec.Operators = append(append([]jobspec.Operator{}, spec.Operators...),
		jobspec.Operator{Name: dedupName, Kind: jobspec.KindDedup, Parallelism: 1, Partition: jobspec.PartitionRebalance})
	return spec
}

// dedupNode returns the dedup stage's logic, if the job has one.
func (r *Runtime) dedup() *dedupOp {
	for _, n := range r.g.nodes {
		if d, ok := n.op.(*dedupOp); ok {
			return d
		}
	}
	return nil
}

// statsOp is an operator that reports on a membership filter.
type statsOp interface{ stats() FilterStats }

// FilterStats describes the dedup stage's filter; ok is false without one.
func (r *Runtime) FilterStats() (FilterStats, bool) {
	for _, n := range r.g.nodes {
		if s, ok := n.op.(statsOp); ok {
			return s.stats(), true
		}
	}
	return FilterStats{}, false
}

// FilterProbe returns a record id's k bit positions in the dedup stage's
// Bloom filter and whether each is set: why a test answers "maybe".
func (r *Runtime) FilterProbe(id uint64) []filter.Probe {
	if d := r.dedup(); d != nil {
		return filter.Locations(d.f, id)
	}
	return nil
}
