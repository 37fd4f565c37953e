package engine

import (
	"math/rand/v2"
	"testing"
)

// Folding settled cells changes no count: a ledger that folds and one that
// keeps every cell agree after every batch, with records lost, duplicated,
// delivered before and after the failure-free run reads them, and written
// again long after they were folded.
func TestLedgerFoldingIsExact(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sink  SinkKind
		mode  Mode
		probe bool
	}{
		{"log/bits", SinkLog, ModeAppend, false},
		{"log/probe", SinkLog, ModeAppend, true},
		{"keyed-table/bits", SinkTable, ModeUpdate, false},
		{"keyed-table/probe", SinkTable, ModeUpdate, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			exp := func(o int64) int64 { // the failure-free run drops every fifth record
				if o%5 == 0 {
					return 0
				}
				return 1
			}
			folding, whole := newLedger(true, tc.mode, tc.sink), newLedger(true, tc.mode, tc.sink)
			if tc.probe {
				folding.expOf = exp
			}
			const n = 40_000
			var ref int64 // the failure-free run's read position
			for ref < n {
				// The failure-free run commits the next batch.
				var batch []Record
				end := min(ref+int64(rng.IntN(300)), n)
				for o := ref; o < end; o++ {
					if exp(o) == 1 {
						batch = append(batch, Record{Offset: o})
					}
				}
				ref = end
				folding.apply(batch, false)
				whole.apply(batch, false)
				folding.settle(ref)
				// The real sink: mostly in step, sometimes behind (lost for
				// now), sometimes far back (a replay: duplicates).
				var real []Record
				for range rng.IntN(300) {
					o := ref - 1 - int64(rng.IntN(600))
					if rng.IntN(20) == 0 {
						o = int64(rng.IntN(int(ref) + 1))
					}
					if o >= 0 && exp(o) == 1 {
						real = append(real, Record{Offset: o})
					}
				}
				folding.apply(real, true)
				whole.apply(real, true)
				if a, b := folding.Totals(), whole.Totals(); a != b {
					t.Fatalf("at %d: folding %+v, keeping every cell %+v", ref, a, b)
				}
			}
			if folding.base == 0 || len(folding.dense) > 2*foldChunk+300 {
				t.Fatalf("nothing was folded: base %d, %d cells kept", folding.base, len(folding.dense))
			}
			t.Logf("%d offsets folded, %d odd cells, %d dense", folding.base, len(folding.odd), len(folding.dense))
		})
	}
}
