package output

import "github.com/streamlab/streamlab/engine"

// newRows returns the rows of cur that were not in prev. A snapshot holds
// only the sink's latest rows (a ring), so consecutive snapshots overlap:
// the new rows are what follows the longest suffix of prev that starts
// cur. When nothing overlaps, every row of cur is new (the UI fell more
// than a ring behind, and the rows in between are simply not shown).
func newRows(prev, cur []engine.Record) []engine.Record {
	if len(prev) == 0 {
		return cur
	}
	for shift := 0; shift < len(prev); shift++ {
		tail := prev[shift:]
		if len(tail) > len(cur) {
			continue
		}
		if equal(tail, cur[:len(tail)]) {
			return cur[len(tail):]
		}
	}
	return cur
}

func equal(a, b []engine.Record) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
