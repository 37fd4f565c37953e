package filter_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
)

// heapBytesOf returns the live heap that build's result holds, from
// runtime.ReadMemStats with a GC before each reading, so garbage (the old
// tables of a growing map) is not counted. Other goroutines allocating at
// the same time would be counted; the tests of this package run serially.
func heapBytesOf[T any](build func() T) int64 {
	var before, after runtime.MemStats
	// Two collections: sync.Pool caches survive one (as victims), and
	// what they free would otherwise be taken off the measurement.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// buildMaps builds reps maps of n generated ids each, as a dedup stage
// would: one insertion at a time into an empty map.
func buildMaps(reps, n int) []map[uint64]struct{} {
	maps := make([]map[uint64]struct{}, reps)
	for r := range maps {
		m := make(map[uint64]struct{})
		for i := range n {
			m[genID(uint64(r*n+i))] = struct{}{}
		}
		maps[r] = m
	}
	return maps
}

// TestExactSetBytesMeasured checks the model of ExactSetBytes against real
// maps. Small maps are built many at a time so that the heap statistics
// resolve them.
func TestExactSetBytesMeasured(t *testing.T) {
	cases := []struct{ n, reps int }{
		{5, 400},       // one group, no table
		{100, 200},     // one table of 128 slots
		{2_000, 20},    // a few full-size tables
		{1_000_000, 1}, // REFERENCES.md: 37.7 MB, 302 bits an id
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		held := heapBytesOf(func() []map[uint64]struct{} { return buildMaps(c.reps, c.n) })
		// The slice holds a pointer to each map: 8 bytes that are not the map's.
		got := float64(held)/float64(c.reps) - 8
		want := float64(filter.ExactSetBytes(int64(c.n)))
		t.Logf("n=%d: measured %.0f bytes (%.1f bits an id), ExactSetBytes %.0f (%.1f bits an id), measured/model %.4f",
			c.n, got, got*8/float64(c.n), want, want*8/float64(c.n), got/want)
		if math.Abs(got-want) > 0.15*want {
			t.Errorf("n=%d: measured %.0f bytes, ExactSetBytes %.0f: more than 15%% apart", c.n, got, want)
		}
	}
}

// TestExactSetBytesShape checks the model where it steps: one group up to
// 8 ids, a doubling table up to 896, then tables of 1 024 slots that split.
func TestExactSetBytesShape(t *testing.T) {
	const table1024 = 18432 + 32 // 128 groups of 136 bytes in their size class, and the header
	for _, c := range []struct {
		n    int64
		want int64
	}{
		{0, 48},
		{1, 48 + 144},
		{8, 48 + 144},
		{9, 48 + 8 + 32 + 288},       // 16 slots
		{14, 48 + 8 + 32 + 288},      // 16 slots, 7/8 full
		{15, 48 + 8 + 32 + 576},      // 32 slots
		{896, 48 + 8 + 32 + 18432},   // 1 024 slots, 7/8 full
		{897, 48 + 16 + 2*table1024}, // split in two
	} {
		if got := filter.ExactSetBytes(c.n); got != c.want {
			t.Errorf("ExactSetBytes(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	// Past a few thousand ids the cost swings between about 165 bits an
	// id (tables 7/8 full) and about 330 (just split), never below.
	for n := int64(2_000); n < 50_000_000; n = n * 9 / 7 {
		b := float64(filter.ExactSetBytes(n)) * 8 / float64(n)
		if b < 160 || b > 340 {
			t.Errorf("ExactSetBytes(%d): %.1f bits an id", n, b)
		}
	}
}
