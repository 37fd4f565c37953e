package filter

import "math"

// TheoreticalFP returns the false-positive rate of a Bloom filter of m bits
// and k hash functions after n insertions, (1 − e^(−k·n/m))^k (Bloom 1970;
// Broder & Mitzenmacher 2004): each bit is still clear with probability
// about e^(−kn/m), and a new id is a false positive when all k of its bits
// are set. It is the formula, not the library's EstimateFalsePositiveRate,
// which measures a fresh filter. It returns 0 when m or n is 0 and 1 when
// k is 0 (a filter that hashes nothing always answers "seen").
func TheoreticalFP(m, k uint64, n int64) float64 {
	if m == 0 || n <= 0 {
		return 0
	}
	return math.Pow(-math.Expm1(-float64(k)*float64(n)/float64(m)), float64(k))
}

// OptimalK returns the number of hash functions that minimises the
// false-positive rate of m bits holding n ids, (m/n)·ln 2: the k at which
// about half the bits end up set. It is not rounded. It returns 0 when n ≤ 0.
func OptimalK(m uint64, n int64) float64 {
	if n <= 0 {
		return 0
	}
	return float64(m) / float64(n) * math.Ln2
}

// BitsFor returns the bits m a Bloom filter needs for n ids at
// false-positive rate p with the best k, −n·ln p/(ln 2)²: about 9.6 bits an
// id at 1%, whatever the ids are — unlike an exact set, which must store
// them. It is not rounded (the library rounds it up). It returns 0 when
// n ≤ 0 or p is not in (0, 1).
func BitsFor(n int64, p float64) float64 {
	if n <= 0 || !(p > 0 && p < 1) {
		return 0
	}
	return -float64(n) * math.Log(p) / (math.Ln2 * math.Ln2)
}
