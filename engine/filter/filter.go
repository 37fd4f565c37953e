// Package filter provides the membership filters of streamlab's dedup stage:
// an exact set and a Bloom filter (github.com/bits-and-blooms/bloom/v3).
//
// After an at-least-once recovery the sink sees some records twice. A dedup
// stage asks its filter "has this record id been seen?" and drops the record
// when the answer is yes. An exact set never errs but holds every id; a Bloom
// filter holds a few bits per id but sometimes answers "seen" for a new id
// (a false positive), and the dedup stage then drops a record that was not a
// duplicate: a lost record. [Stats] puts both sides of that trade next to
// each other — the false-positive rate a Bloom filter should have and the
// memory each kind holds — so the lab can show them side by side.
//
// The package depends on nothing else in the engine, so lessons, tests and
// benchmarks can use it on its own.
package filter

import (
	"encoding/binary"
	"errors"
)

// Kinds of filter, as written in a lab script (`set filter bloom n=… p=…`).
const (
	KindNone  = "none"  // no dedup stage
	KindExact = "exact" // a Go map of ids: never wrong, about 20–40 bytes an id
	KindBloom = "bloom" // a Bloom filter: about 1.2 bytes an id at 1%, false positives
)

// Filter answers "has this record id been seen?" and remembers it.
//
// A Filter is not safe for concurrent use: the engine confines each filter
// to the one node that owns it, which also keeps its answers deterministic.
type Filter interface {
	// TestAndAdd reports whether id was (maybe) seen before, and records
	// it either way. For a Bloom filter true may be a false positive; false
	// is always right.
	TestAndAdd(id uint64) bool
	// Test reports whether id was (maybe) seen before, without recording it.
	Test(id uint64) bool
	// Stats describes the filter's contents, accuracy and memory now.
	Stats() Stats
	// RateNow is Stats().EstimatedFP without counting bits: the formula's
	// chance that the next new id is taken for seen, cheap enough to ask
	// at every first sighting.
	RateNow() float64
	// MarshalBinary encodes the filter for a checkpoint: a small header
	// with the counters of Stats, then, for a Bloom filter, the library's
	// own binary encoding (bloom.BloomFilter.MarshalBinary), or, for an
	// exact set, its ids in increasing order. The bytes depend only on what
	// was added, so the same run gives the same checkpoint.
	MarshalBinary() ([]byte, error)
	// UnmarshalBinary restores a checkpoint written by MarshalBinary of a
	// filter of the same Spec. On error the filter is left unchanged and
	// the error wraps ErrEncoding.
	UnmarshalBinary(data []byte) error
	// Spec returns the spec the filter was made from.
	Spec() Spec
}

// Stats describes a filter at one moment: what it holds, how often it
// should be wrong, and what it costs, next to what an exact set would cost.
type Stats struct {
	Kind string // KindExact or KindBloom

	M, K uint64 // Bloom only: bits and hash functions

	// Inserted counts the TestAndAdd calls that answered false: the ids
	// the filter took for new. On a Bloom filter it falls behind the true
	// number of distinct ids by the false positives.
	Inserted int64
	// Probes counts TestAndAdd calls.
	Probes int64

	BitsSet   uint64  // Bloom only: set bits, BitSet().Count()
	FillRatio float64 // Bloom only: BitsSet/M
	// ApproxSize is the number of ids the filter seems to hold. For a
	// Bloom filter it is estimated from the fill alone, n ≈ −(m/k)·ln(1 − X/m)
	// (the formula of the library's ApproximatedSize, not rounded, and +Inf
	// once every bit is set); for an exact set it is the exact count.
	ApproxSize float64
	// EstimatedFP is the false-positive rate the formula predicts,
	// (1 − e^(−k·n/m))^k with n = Inserted; 0 for an exact set.
	EstimatedFP float64

	// Bytes is the memory the filter holds: for a Bloom filter its bitset
	// words (⌈m/64⌉·8 bytes) and the structs around them; for an exact set
	// ExactSetBytes(Inserted).
	Bytes int64
	// ExactBytes is what an exact set of the Inserted ids would hold:
	// ExactSetBytes(Inserted), equal to Bytes for an exact set.
	ExactBytes int64
	// BitsPerElement is Bytes·8/Inserted, ExactBitsPerElement
	// ExactBytes·8/Inserted; both 0 while nothing is inserted.
	BitsPerElement, ExactBitsPerElement float64
}

// Probe is one of the k bit positions of an id in a Bloom filter.
type Probe struct {
	Bit uint64 // position in the bitset, 0 ≤ Bit < m
	Set bool   // whether that bit is set now
}

// ErrEncoding is wrapped by the errors of UnmarshalBinary: the data is not a
// checkpoint of a filter of the same kind and parameters.
var ErrEncoding = errors.New("filter: bad checkpoint")

// New makes an empty filter from a spec. It returns a nil Filter and no
// error for KindNone (and the zero Spec): there is no dedup stage.
func New(s Spec) (Filter, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch s.Kind {
	case KindExact:
		return newExact(s), nil
	case KindBloom:
		return newBloom(s), nil
	case KindRotating:
		return newRotating(s), nil
	}
	return nil, nil
}

// KeyBytes is the length of Key's encoding.
const KeyBytes = 8

// Key returns the bytes a Bloom filter hashes for id: its 8 bytes in
// little-endian order. The encoding is fixed so that which ids collide, and
// so every false positive, is the same on every machine and every run, and
// so that a checkpoint stays valid across builds.
func Key(id uint64) []byte {
	return binary.LittleEndian.AppendUint64(make([]byte, 0, KeyBytes), id)
}

// Locations returns the k bit positions of id in a Bloom filter made by New
// and whether each is set, so a view can show why a test answers "maybe":
// every probe of an inserted id is set, and a new id answers "seen" exactly
// when all of its probes happen to be set by others. It returns nil for an
// exact set, a nil Filter and filters from other packages.
func Locations(f Filter, id uint64) []Probe {
	b, ok := f.(*bloomFilter)
	if !ok || b == nil {
		return nil
	}
	return b.locations(id)
}

// ratio returns a/b, and 0 when b is 0, so Stats never holds a NaN.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Density divides a Bloom filter's m bits into buckets equal ranges and
// returns the fraction of set bits in each: a map of the bit array a
// terminal can draw. It returns nil for an exact set or no filter.
func Density(f Filter, buckets int) []float64 {
	b, ok := f.(*bloomFilter)
	if !ok || b == nil || buckets <= 0 {
		return nil
	}
	bits := b.bf.BitSet()
	m := uint64(b.bf.Cap())
	out := make([]float64, buckets)
	for i := range out {
		lo, hi := m*uint64(i)/uint64(buckets), m*uint64(i+1)/uint64(buckets)
		if hi == lo {
			continue
		}
		set := 0
		for j, ok := bits.NextSet(uint(lo)); ok && uint64(j) < hi; j, ok = bits.NextSet(j + 1) {
			set++
		}
		out[i] = float64(set) / float64(hi-lo)
	}
	return out
}
