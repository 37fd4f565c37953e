package filter

import (
	"math"
	"slices"
)

// ExactSetBytes estimates the heap bytes a Go map[uint64]struct{} holds
// after n distinct ids were inserted one by one into an empty map (no size
// hint), on a 64-bit platform with Go 1.24 or later, whose maps are Swiss
// tables (internal/runtime/maps). It is the expected value: where the map
// splits depends on its random hash seed.
//
// The derivation, from the runtime's source:
//
//   - A slot is struct{key uint64; elem struct{}}: 16 bytes, not 8, since
//     a struct ending in a zero-size field is padded so a pointer to that
//     field cannot point past the struct.
//   - A group is a control word and 8 slots: 8 + 8·16 = 136 bytes.
//   - A table holds a power-of-two number of slots, at most 1024 (128 groups,
//     17 408 bytes, which the allocator rounds to its 18 432-byte size
//     class), and is full at a load factor of 7/8: 896 ids. A full table
//     below 1024 slots doubles; a full table of 1024 slots splits into two
//     tables of 1024 slots (extendible hashing, on the top bits of the
//     hash). Each table also has a 32-byte header.
//   - The map itself is a 48-byte header; up to 8 ids live in one group
//     without a table; beyond, a directory of 2^depth table pointers
//     points at the tables.
//
// So up to 896 ids the map is one table of the smallest power-of-two
// capacity c ≥ 16 with n ≤ 7c/8. Beyond, the tables are the leaves of a
// binary trie over the hash bits: a prefix holding 897 ids or more has
// split. With a uniform hash a prefix of depth d holds Binomial(n, 2^−d)
// ids, so the expected number of tables is
//
//	T(n) = 1 + Σ_d 2^d · P[Binomial(n, 2^−d) ≥ 897]
//
// and the map holds about 48 + directory + T·(18 432 + 32) bytes. The
// memory per id therefore swings with n: just after a generation of splits
// the tables are under half full (up to 41 bytes, 330 bits, an id; at
// n = 1 000 000 nearly all 1 024 tables of depth 10 have just split, so
// T ≈ 2 043 and the map holds 37.7 MB, 302 bits an id), just before the
// next generation they are 7/8 full (about 21 bytes, 165 bits, an id). A
// Bloom filter at 1% needs 9.6 bits an id whatever n is.
//
// The model agrees with runtime.ReadMemStats within 1% from 1 to 1.8
// million ids (see the tests); it does not hold for maps made with a size
// hint, which allocate their tables up front.
func ExactSetBytes(n int64) int64 {
	switch {
	case n <= 0:
		return mapHeaderBytes
	case n <= slotsPerGroup:
		return mapHeaderBytes + allocBytes(groupBytes, false)
	case n <= tableFull:
		c := int64(2 * slotsPerGroup)
		for n > c*loadNum/loadDen {
			c *= 2
		}
		return mapHeaderBytes + allocBytes(ptrBytes, true) + allocBytes(tableBytes, true) +
			allocBytes(c/slotsPerGroup*groupBytes, false)
	}
	tables, depth := expectedTables(n)
	perTable := float64(allocBytes(tableBytes, true) + allocBytes(maxTableCapacity/slotsPerGroup*groupBytes, false))
	dir := allocBytes(ptrBytes<<depth, true)
	return mapHeaderBytes + dir + int64(math.Round(tables*perTable))
}

// The Swiss-table layout of map[uint64]struct{} (internal/runtime/maps).
const (
	ptrBytes         = 8
	mapHeaderBytes   = 48 // maps.Map: used, seed, dirPtr, dirLen, 4 small fields, clearSeq
	tableBytes       = 32 // maps.table: 3×uint16, uint8, index int, groups{data, lengthMask}
	slotsPerGroup    = 8  // abi.MapGroupSlots
	slotBytes        = 16 // uint64 key + struct{} elem, padded
	groupBytes       = 8 + slotsPerGroup*slotBytes
	maxTableCapacity = 1024 // slots; a full table this big splits
	loadNum, loadDen = 7, 8 // maxAvgGroupLoad/abi.MapGroupSlots
	tableFull        = maxTableCapacity * loadNum / loadDen
)

// expectedTables returns the expected number of tables of a map of n > 896
// ids, and the directory depth: one more than the deepest level at which
// half a split or more is expected.
func expectedTables(n int64) (tables float64, depth int) {
	tables = 1
	for d := 0; d < 63; d++ {
		splits := math.Ldexp(atLeast(n, d, tableFull+1), d) // expected prefixes of depth d holding ≥ 897 ids
		tables += splits
		if splits >= 0.5 {
			depth = d + 1
		}
		if mean := math.Ldexp(float64(n), -d); mean < tableFull && splits < 1e-9 {
			break
		}
	}
	return tables, depth
}

// atLeast returns P[X ≥ k] for X ~ Binomial(n, 2^−d): the chance that a
// given hash prefix of d bits holds at least k of n ids. Terms more than 13
// standard deviations from the mean are below 1e-37 and are left out.
func atLeast(n int64, d, k int) float64 {
	if d == 0 {
		if n >= int64(k) {
			return 1
		}
		return 0
	}
	q := math.Ldexp(1, -d)
	nf := float64(n)
	mean := nf * q
	sd := math.Sqrt(mean * (1 - q))
	switch {
	case float64(k) <= mean-13*sd:
		return 1
	case float64(k) >= mean+13*sd:
		return 0
	}
	lo := max(0, int64(math.Floor(mean-13*sd)))
	hi := min(n, int64(math.Ceil(mean+13*sd)))
	// Sum the smaller side: the lower tail when the mean is above k.
	if float64(k) <= mean {
		return 1 - binomialSum(nf, q, lo, int64(k)-1)
	}
	return binomialSum(nf, q, int64(k), hi)
}

// binomialSum returns P[a ≤ X ≤ b] for X ~ Binomial(n, q): the first term
// from log-gamma, the others by the ratio of successive terms, which keeps
// it to one Lgamma call per depth. Past 10^9 ids, where q is tiny at the
// depths that matter and lgamma(n) loses precision, it uses the Poisson
// limit. The terms are at least e^−85 of the peak, far from underflow.
func binomialSum(n, q float64, a, b int64) float64 {
	if a > b {
		return 0
	}
	fa := float64(a)
	la, _ := math.Lgamma(fa + 1)
	poisson := n > 1e9
	var logTerm float64
	if poisson {
		lambda := n * q
		logTerm = fa*math.Log(lambda) - lambda - la
	} else {
		ln, _ := math.Lgamma(n + 1)
		lr, _ := math.Lgamma(n - fa + 1)
		logTerm = ln - la - lr + fa*math.Log(q) + (n-fa)*math.Log1p(-q)
	}
	term, sum := math.Exp(logTerm), 0.0
	odds := q / (1 - q)
	for i := a; ; i++ {
		sum += term
		if i == b {
			return sum
		}
		fi := float64(i)
		if poisson {
			term *= n * q / (fi + 1)
		} else {
			term *= (n - fi) / (fi + 1) * odds
		}
	}
}

// allocBytes returns the heap bytes the Go allocator (Go 1.22+, 64-bit)
// uses for an object of size bytes: small objects take the next size class
// (runtime sizeclasses.go); pointerful ones over 512 bytes carry an 8-byte
// malloc header first; objects over 32 KiB take whole 8 KiB pages.
func allocBytes(size int64, pointers bool) int64 {
	const maxSmall, headerMin, header, page = 32768, 512, 8, 8192
	if pointers && size > headerMin && size <= maxSmall-header {
		size += header
	}
	if size > maxSmall {
		return (size + page - 1) / page * page
	}
	i, _ := slices.BinarySearch(sizeClasses, size)
	return sizeClasses[i]
}

// sizeClasses are the Go allocator's object sizes up to 32 KiB
// (internal/runtime/gc/sizeclasses.go, unchanged since Go 1.21).
var sizeClasses = []int64{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224,
	240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280,
	1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784,
	6912, 8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760,
	24576, 27264, 28672, 32768}
