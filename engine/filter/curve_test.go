package filter

import (
	"math"
	"testing"
)

// The buckets always add up to what was recorded, hold it in order of n,
// and stay CurveBuckets however many first sightings there are.
func TestCurveKeepsEveryFirstSightingInFixedMemory(t *testing.T) {
	var c Curve
	var falses int64
	var expected float64
	for n := range int64(100_000) {
		drop := n%7 == 3
		if drop {
			falses++
		}
		rate := float64(n) / 1e6
		expected += rate
		c.Add(drop, rate)
		if n == 511 || n == 512 || n == 99_999 {
			used := c.Used()
			if len(used) > CurveBuckets {
				t.Fatalf("n=%d: %d buckets", n, len(used))
			}
			var got CurveBucket
			for i, b := range used {
				got.Firsts += b.Firsts
				got.FalseDrops += b.FalseDrops
				got.Expected += b.Expected
				if i < len(used)-1 && b.Firsts != c.Size {
					t.Fatalf("n=%d: bucket %d of size %d holds %d", n, i, c.Size, b.Firsts)
				}
			}
			if got.Firsts != n+1 || got.FalseDrops != falses || math.Abs(got.Expected-expected) > 1e-9*expected {
				t.Fatalf("n=%d: buckets add up to %+v, recorded %d, %d, %g", n, got, n+1, falses, expected)
			}
		}
	}
	if c.Size != 4096 {
		t.Errorf("100 000 first sightings in buckets of %d, want 4096 (32 × 4096 ≥ 100 000 > 32 × 2048)", c.Size)
	}
	// The rates are those of their range of n: the expected rate grows
	// with n as recorded.
	used := c.Used()
	if r := used[1].ExpectedRate(); math.Abs(r-(1.5*4096-0.5)/1e6) > 1e-12 {
		t.Errorf("bucket 1's expected rate %g", r)
	}
	if (Curve{}).Used() != nil || (CurveBucket{}).Rate() != 0 {
		t.Error("an empty curve has no buckets and no rate")
	}
}
