package filter

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/bits-and-blooms/bloom/v3"
)

// bloomFilter is a Bloom filter of the library, fed the fixed Key encoding
// of each id, plus the counters of Stats.
type bloomFilter struct {
	spec     Spec
	bf       *bloom.BloomFilter
	key      [KeyBytes]byte // Key(id), reused so a probe does not allocate
	inserted int64
	probes   int64
}

func newBloom(s Spec) *bloomFilter {
	f := &bloomFilter{spec: s}
	if s.N != 0 {
		// NewWithEstimates rounds m and k up: n=10 000, p=0.01 gives
		// m=95 851, k=7. The tests pin these numbers.
		f.bf = bloom.NewWithEstimates(s.N, s.P)
	} else {
		f.bf = bloom.New(s.M, s.K)
	}
	return f
}

func (f *bloomFilter) encode(id uint64) []byte {
	binary.LittleEndian.PutUint64(f.key[:], id)
	return f.key[:]
}

func (f *bloomFilter) TestAndAdd(id uint64) bool {
	f.probes++
	// TestAndAdd always sets the k bits; TestOrAdd would skip them on a
	// "seen" answer, which is the same set of bits, since a "seen" answer
	// means they are all set already.
	seen := f.bf.TestAndAdd(f.encode(id))
	if !seen {
		f.inserted++
	}
	return seen
}

func (f *bloomFilter) Test(id uint64) bool { return f.bf.Test(f.encode(id)) }

func (f *bloomFilter) RateNow() float64 {
	return TheoreticalFP(uint64(f.bf.Cap()), uint64(f.bf.K()), f.inserted)
}

func (f *bloomFilter) Spec() Spec { return f.spec }

// bloomStructBytes is the memory of a Bloom filter besides its bitset
// words: this struct, the library's BloomFilter and its bitset.BitSet header.
var bloomStructBytes = int64(unsafe.Sizeof(bloomFilter{}) + unsafe.Sizeof(bloom.BloomFilter{}) +
	unsafe.Sizeof(*bloom.New(1, 1).BitSet()))

func (f *bloomFilter) Stats() Stats {
	m, k := uint64(f.bf.Cap()), uint64(f.bf.K())
	set := uint64(f.bf.BitSet().Count())
	words := int64((m + 63) / 64)
	s := Stats{
		Kind:        KindBloom,
		M:           m,
		K:           k,
		Inserted:    f.inserted,
		Probes:      f.probes,
		BitsSet:     set,
		FillRatio:   float64(set) / float64(m),
		ApproxSize:  approxSize(m, k, set),
		EstimatedFP: TheoreticalFP(m, k, f.inserted),
		Bytes:       words*8 + bloomStructBytes,
		ExactBytes:  ExactSetBytes(f.inserted),
	}
	s.BitsPerElement = ratio(float64(s.Bytes)*8, float64(s.Inserted))
	s.ExactBitsPerElement = ratio(float64(s.ExactBytes)*8, float64(s.Inserted))
	return s
}

// approxSize is the library's ApproximatedSize formula, −(m/k)·ln(1 − X/m),
// without its rounding to uint32, which is meaningless once every bit is
// set (the estimate is then +Inf: the fill can no longer tell).
func approxSize(m, k, set uint64) float64 {
	if set >= m {
		return math.Inf(1)
	}
	return -float64(m) / float64(k) * math.Log1p(-float64(set)/float64(m))
}

func (f *bloomFilter) locations(id uint64) []Probe {
	m := uint64(f.bf.Cap())
	locs := bloom.Locations(Key(id), f.bf.K())
	probes := make([]Probe, len(locs))
	for i, l := range locs {
		bit := l % m // the library's Locations are before the modulo
		probes[i] = Probe{Bit: bit, Set: f.bf.BitSet().Test(uint(bit))}
	}
	return probes
}
