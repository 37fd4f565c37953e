package engine

import (
	"math/rand/v2"
	"testing"
)

// Folding final windows changes no count: a ledger that folds and one that
// keeps every cell agree after every batch, with windows lost, counted
// twice, written before and after the failure-free run closes them,
// written again long after they were folded, and with late records.
func TestLedgerFoldingWindowsIsExact(t *testing.T) {
	for _, mode := range []Mode{ModeUpdate, ModeAppend} {
		t.Run(string(mode), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			const slide = 10
			keys := []string{"a", "b", "c"}
			final := func(s int64, key string) int64 { // the failure-free count, 0 for some
				return int64(mix(uint64(s)^uint64(len(key))<<40)%7) - 1
			}
			var below int64 // where the failure-free run's windows are final
			folding, whole := newLedger(false, mode, SinkLog), newLedger(false, mode, SinkLog)
			folding.finalBelow, folding.slide = func() int64 { return below }, slide
			var frontier int64 // the latest start the failure-free run has counted into
			for frontier < 100_000 {
				next := frontier + slide*int64(1+rng.IntN(40))
				nextBelow := next - 50*slide
				var batch []Record
				for s := max(below, 0); s < next; s += slide {
					for _, k := range keys {
						v := max(final(s, k), 0)
						if s >= nextBelow {
							v /= 2 // still open: a partial count
						}
						if v > 0 && (mode == ModeUpdate || s < nextBelow) {
							batch = append(batch, Record{Offset: -1, Key: k, WindowStart: s, Value: v})
						}
					}
				}
				frontier, below = next, max(nextBelow, 0)
				folding.apply(batch, false)
				whole.apply(batch, false)
				folding.foldAt = 0 // fold at every batch, the hardest case
				folding.settle(0)
				// The real sink: mostly in step, sometimes wrong, sometimes
				// far back (a replay, a replacement without a watermark).
				var real []Record
				for range rng.IntN(60) {
					s := frontier - slide*int64(1+rng.IntN(80))
					if rng.IntN(10) == 0 {
						s = slide * int64(rng.IntN(int(frontier/slide)+1))
					}
					k := keys[rng.IntN(len(keys))]
					v := max(final(s, k), 0)
					if rng.IntN(4) == 0 {
						v = int64(rng.IntN(5))
					}
					real = append(real, Record{Offset: -1, Key: k, WindowStart: s, Value: v})
				}
				folding.apply(real, true)
				whole.apply(real, true)
				if rng.IntN(3) == 0 {
					k, s := keys[rng.IntN(len(keys))], slide*int64(rng.IntN(int(frontier/slide)+1))
					hi := s + slide*int64(rng.IntN(30))
					folding.addLate(k, s, hi)
					whole.addLate(k, s, hi)
				}
				if a, b := folding.Totals(), whole.Totals(); a != b {
					t.Fatalf("at %d: folding %+v, keeping every cell %+v", frontier, a, b)
				}
			}
			for k, c := range whole.cells {
				if exp, got, _ := folding.windowEffect(k); exp != c.exp || got != c.got {
					t.Fatalf("%v: folding has exp %d got %d, keeping every cell %d and %d", k, exp, got, c.exp, c.got)
				}
			}
			// Of the folded windows only those that differ keep a cell, and
			// those the real sink wrote since the last fold.
			agreeing := 0
			for k, c := range folding.cells {
				if k.start < folding.foldedBelow && c.got == c.exp {
					agreeing++
				}
			}
			if agreeing > 60 || folding.foldedBelow < frontier-60*slide {
				t.Fatalf("%d folded windows that agree keep a cell; folded below %d of %d", agreeing, folding.foldedBelow, frontier)
			}
			t.Logf("%d cells kept of %d", len(folding.cells), len(whole.cells))
		})
	}
}
