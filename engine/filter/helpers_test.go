package filter_test

import "github.com/streamlab/streamlab/engine/filter"

// idSeed seeds the tests' id generator. Changing it changes every pinned
// false-positive count below.
const idSeed = 7

// genID is the tests' fixed seeded id generator: splitmix64 of
// idSeed + i·γ. Both steps are bijections of uint64, so distinct i give
// distinct ids: ids 0…n−1 can be inserted and ids n… probed, and a probe
// can never be an inserted id.
func genID(i uint64) uint64 {
	z := idSeed + i*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// tester is what mustNew needs of a *testing.T, *testing.B or *rapid.T.
type tester interface {
	Helper()
	Fatalf(format string, args ...any)
}

func mustNew(t tester, s filter.Spec) filter.Filter {
	t.Helper()
	f, err := filter.New(s)
	if err != nil {
		t.Fatalf("New(%v): %v", s, err)
	}
	if f == nil {
		t.Fatalf("New(%v) = nil", s)
	}
	return f
}

func bloomNP(n uint, p float64) filter.Spec {
	return filter.Spec{Kind: filter.KindBloom, N: n, P: p}
}

func bloomMK(m, k uint) filter.Spec {
	return filter.Spec{Kind: filter.KindBloom, M: m, K: k}
}

var exactSpec = filter.Spec{Kind: filter.KindExact}
