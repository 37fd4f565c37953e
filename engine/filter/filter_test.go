package filter_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/streamlab/streamlab/engine/filter"
)

// TestLibrarySizing pins how NewWithEstimates rounds m and k up
// (REFERENCES.md, "Bloom filters"): the lessons quote these numbers.
func TestLibrarySizing(t *testing.T) {
	for _, c := range []struct {
		n    uint
		p    float64
		m, k uint64
	}{
		{1_000, 0.01, 9_586, 7},
		{10_000, 0.01, 95_851, 7},
		{100, 0.05, 624, 5},
		{1_000_000, 0.01, 9_585_059, 7},
	} {
		s := bloomNP(c.n, c.p)
		st := mustNew(t, s).Stats()
		if st.M != c.m || st.K != c.k {
			t.Errorf("%v: m=%d k=%d, want m=%d k=%d", s, st.M, st.K, c.m, c.k)
		}
		if m, k := s.BloomParams(); uint64(m) != c.m || uint64(k) != c.k {
			t.Errorf("%v.BloomParams() = %d, %d, want %d, %d", s, m, k, c.m, c.k)
		}
		// The library rounds the formula up.
		if bits := filter.BitsFor(int64(c.n), c.p); uint64(math.Ceil(bits)) != c.m {
			t.Errorf("BitsFor(%d, %g) = %.1f, want ⌈⌉ = %d", c.n, c.p, bits, c.m)
		}
		if k := filter.OptimalK(c.m, int64(c.n)); uint64(math.Ceil(k)) != c.k {
			t.Errorf("OptimalK(%d, %d) = %.2f, want ⌈⌉ = %d", c.m, c.n, k, c.k)
		}
	}
	// m=…, k=… is taken as given.
	if st := mustNew(t, bloomMK(512, 3)).Stats(); st.M != 512 || st.K != 3 {
		t.Errorf("bloom m=512 k=3: m=%d k=%d", st.M, st.K)
	}
}

// TestReferenceMemory pins REFERENCES.md: 1 000 000 ids at 1% take 1.20 MB
// (9.6 bits an id) in a Bloom filter and 37.7 MB (302 bits an id) in a Go
// map[uint64]struct{}.
func TestReferenceMemory(t *testing.T) {
	const n = 1_000_000
	st := mustNew(t, bloomNP(n, 0.01)).Stats()
	bitset := float64((st.M+63)/64*8) / 1e6
	if math.Round(bitset*100)/100 != 1.20 {
		t.Errorf("bitset of 10^6 ids at 1%%: %.3f MB, want 1.20", bitset)
	}
	if b := float64(st.M) / n; math.Round(b*10)/10 != 9.6 {
		t.Errorf("bits per id: %.2f, want 9.6", b)
	}
	exact := filter.ExactSetBytes(n)
	if mb := float64(exact) / 1e6; math.Round(mb*10)/10 != 37.7 {
		t.Errorf("ExactSetBytes(10^6) = %d (%.2f MB), want 37.7 MB", exact, mb)
	}
	if b := float64(exact) * 8 / n; math.Round(b) != 302 {
		t.Errorf("ExactSetBytes(10^6): %.1f bits per id, want 302", b)
	}
}

// fpRun inserts n generated ids into a Bloom filter sized for n at 1% and
// probes 200 000 ids never inserted.
func fpRun(t *testing.T, n int) (fp int, st filter.Stats) {
	const probes = 200_000
	f := mustNew(t, bloomNP(uint(n), 0.01))
	for i := range uint64(n) {
		f.TestAndAdd(genID(i))
	}
	for i := range uint64(probes) {
		if f.Test(genID(uint64(n) + i)) {
			fp++
		}
	}
	return fp, f.Stats()
}

// TestMeasuredFalsePositives checks the library against the formula, and
// pins the counts: they depend only on the ids, their 8-byte encoding and
// the library's murmur hash, so a change here means checkpoints and lessons
// would change too.
func TestMeasuredFalsePositives(t *testing.T) {
	for _, c := range []struct {
		n      int
		wantFP int // pinned
	}{
		{10_000, 1_996},
		{100_000, 2_039},
	} {
		fp, st := fpRun(t, c.n)
		rate := float64(fp) / 200_000
		theory := filter.TheoreticalFP(st.M, st.K, int64(c.n))
		t.Logf("n=%d m=%d k=%d: %d false positives in 200000 probes = %.4f%%, theory %.4f%%, estimated (n=Inserted=%d) %.4f%%",
			c.n, st.M, st.K, fp, 100*rate, 100*theory, st.Inserted, 100*st.EstimatedFP)
		if math.Abs(rate-theory) > 0.2*theory {
			t.Errorf("n=%d: measured FP %.5f, want within ±20%% of %.5f", c.n, rate, theory)
		}
		if fp2, _ := fpRun(t, c.n); fp2 != fp {
			t.Errorf("n=%d: second run %d false positives, first %d", c.n, fp2, fp)
		}
		if fp != c.wantFP {
			t.Errorf("n=%d: %d false positives, pinned %d", c.n, fp, c.wantFP)
		}
		// False positives while inserting make Inserted fall short of n.
		if st.Inserted > int64(c.n) || st.Probes != int64(c.n) {
			t.Errorf("n=%d: Inserted=%d Probes=%d", c.n, st.Inserted, st.Probes)
		}
	}
}

func TestBloomStats(t *testing.T) {
	s := bloomNP(1_000, 0.01)
	f := mustNew(t, s)
	raw := bloom.NewWithEstimates(1_000, 0.01)
	for i := range uint64(1_000) {
		id := genID(i)
		if got, want := f.TestAndAdd(id), raw.TestAndAdd(filter.Key(id)); got != want {
			t.Fatalf("id %d: TestAndAdd = %v, library %v", id, got, want)
		}
	}
	f.TestAndAdd(genID(0)) // a repeat: a probe, not an insertion
	st := f.Stats()
	if st.Kind != filter.KindBloom || st.M != 9_586 || st.K != 7 || st.Probes != 1_001 {
		t.Errorf("stats %+v", st)
	}
	if st.BitsSet != uint64(raw.BitSet().Count()) {
		t.Errorf("BitsSet = %d, library %d", st.BitsSet, raw.BitSet().Count())
	}
	if st.FillRatio != float64(st.BitsSet)/float64(st.M) {
		t.Errorf("FillRatio = %v", st.FillRatio)
	}
	if math.Round(st.ApproxSize) != float64(raw.ApproximatedSize()) {
		t.Errorf("ApproxSize = %.2f, library %d", st.ApproxSize, raw.ApproximatedSize())
	}
	if st.EstimatedFP != filter.TheoreticalFP(st.M, st.K, st.Inserted) {
		t.Errorf("EstimatedFP = %v", st.EstimatedFP)
	}
	words := int64((st.M + 63) / 64 * 8)
	if st.Bytes < words || st.Bytes > words+256 {
		t.Errorf("Bytes = %d, want the %d bytes of bitset words and a few struct bytes", st.Bytes, words)
	}
	if st.ExactBytes != filter.ExactSetBytes(st.Inserted) {
		t.Errorf("ExactBytes = %d, want ExactSetBytes(%d) = %d", st.ExactBytes, st.Inserted, filter.ExactSetBytes(st.Inserted))
	}
	if st.BitsPerElement != float64(st.Bytes)*8/float64(st.Inserted) ||
		st.ExactBitsPerElement != float64(st.ExactBytes)*8/float64(st.Inserted) {
		t.Errorf("bits per element %v, %v", st.BitsPerElement, st.ExactBitsPerElement)
	}
	if f.Spec() != s {
		t.Errorf("Spec() = %v, want %v", f.Spec(), s)
	}

	// A saturated filter cannot estimate its size.
	full := mustNew(t, bloomMK(8, 2))
	for i := range uint64(100) {
		full.TestAndAdd(i)
	}
	if st := full.Stats(); st.BitsSet != 8 || !math.IsInf(st.ApproxSize, 1) || st.FillRatio != 1 {
		t.Errorf("saturated: %+v", st)
	}
}

func TestExactStats(t *testing.T) {
	f := mustNew(t, exactSpec)
	if st := f.Stats(); st != (filter.Stats{Kind: filter.KindExact, Bytes: filter.ExactSetBytes(0), ExactBytes: filter.ExactSetBytes(0)}) {
		t.Errorf("empty: %+v", st)
	}
	for _, id := range []uint64{5, 9, 5, 0, 9, 9} {
		f.TestAndAdd(id)
	}
	st := f.Stats()
	want := filter.Stats{
		Kind: filter.KindExact, Inserted: 3, Probes: 6, ApproxSize: 3,
		Bytes: filter.ExactSetBytes(3), ExactBytes: filter.ExactSetBytes(3),
		BitsPerElement:      float64(filter.ExactSetBytes(3)) * 8 / 3,
		ExactBitsPerElement: float64(filter.ExactSetBytes(3)) * 8 / 3,
	}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
	if !f.Test(9) || f.Test(1) {
		t.Error("Test")
	}
	if f.Stats().Probes != 6 {
		t.Error("Test counted as a probe")
	}
}

func TestNewNone(t *testing.T) {
	for _, s := range []filter.Spec{{}, {Kind: filter.KindNone}} {
		f, err := filter.New(s)
		if f != nil || err != nil {
			t.Errorf("New(%#v) = %v, %v; want nil, nil", s, f, err)
		}
		if got := filter.Locations(f, 1); got != nil {
			t.Errorf("Locations(nil) = %v", got)
		}
	}
	if _, err := filter.New(filter.Spec{Kind: "bloom", N: 10}); !errors.Is(err, filter.ErrSpec) {
		t.Errorf("New(bloom n=10 without p) err = %v, want ErrSpec", err)
	}
}

func TestLocations(t *testing.T) {
	for _, s := range []filter.Spec{bloomNP(1_000, 0.01), bloomMK(512, 3), bloomMK(100, 13)} {
		f := mustNew(t, s)
		m, k := s.BloomParams()
		for i := range uint64(200) {
			f.TestAndAdd(genID(i))
		}
		for i := range uint64(400) {
			id := genID(i)
			probes := filter.Locations(f, id)
			lib := bloom.Locations(filter.Key(id), k)
			if len(probes) != int(k) {
				t.Fatalf("%v: %d probes, want k=%d", s, len(probes), k)
			}
			allSet := true
			for j, p := range probes {
				if p.Bit != lib[j]%uint64(m) {
					t.Fatalf("%v id %d probe %d: bit %d, library %d mod m = %d", s, id, j, p.Bit, lib[j], lib[j]%uint64(m))
				}
				allSet = allSet && p.Set
			}
			if i < 200 && !allSet {
				t.Errorf("%v: inserted id %d has a clear bit: %v", s, id, probes)
			}
			if allSet != f.Test(id) {
				t.Errorf("%v: id %d: all probes set = %v, Test = %v", s, id, allSet, f.Test(id))
			}
		}
	}
	if got := filter.Locations(mustNew(t, exactSpec), 1); got != nil {
		t.Errorf("Locations(exact) = %v", got)
	}
}

func TestKey(t *testing.T) {
	if got, want := filter.Key(0x0102030405060708), []byte{8, 7, 6, 5, 4, 3, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("Key = %v, want little-endian %v", got, want)
	}
}

func TestTheory(t *testing.T) {
	// n = 10 000 at m = 95 851, k = 7 (REFERENCES.md): about 1%.
	if p := filter.TheoreticalFP(95_851, 7, 10_000); math.Abs(p-0.01) > 0.0005 {
		t.Errorf("TheoreticalFP(95851, 7, 10000) = %v, want ≈ 0.01", p)
	}
	if p := filter.TheoreticalFP(100, 3, 0); p != 0 {
		t.Errorf("empty filter: %v", p)
	}
	// At the best k about half the bits are set, so p = 2^-k.
	n := int64(10_000)
	m := uint64(math.Round(7 * float64(n) / math.Ln2)) // so that the best k is 7
	if k := filter.OptimalK(m, n); math.Abs(k-7) > 1e-3 {
		t.Errorf("OptimalK(%d, %d) = %v, want 7", m, n, k)
	}
	if p := filter.TheoreticalFP(m, 7, n); math.Abs(p-1.0/128)*128 > 1e-3 {
		t.Errorf("p at the best k=7: %v, want 2^-7", p)
	}
	if b := filter.BitsFor(1, 0.01) / math.Log2(math.E); math.Abs(b-math.Log2(100)) > 1e-9 {
		t.Errorf("BitsFor(1, 0.01) = %v bits, want log2(e)·log2(1/p)", filter.BitsFor(1, 0.01))
	}
}
