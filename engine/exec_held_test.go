package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A held queue gives back exactly what it was given, in order, whatever
// the fields hold (extremes wrap through the distances and back), across
// chunks, while pushes and pops interleave; each sees what pop would.
func TestHeldQueueGivesBackWhatItHeld(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	extremes := []int64{0, -1, 1, math.MinInt64, math.MaxInt64, 1767268994644}
	field := func() int64 {
		if rng.IntN(4) == 0 {
			return extremes[rng.IntN(len(extremes))]
		}
		return rng.Int64N(1<<42) - 1<<41
	}
	strs := []string{"", "click", "view", "device-7", "buy"}
	random := func() element {
		return element{kind: kind(rng.IntN(6)), value: field(), id: field(), at: field(), rec: Record{
			ID: rng.Uint64(), Offset: field(), Time: field(), Device: int32(rng.Uint32()), senderRestarts: int32(rng.Uint32()),
			Action: strs[rng.IntN(len(strs))], Key: strs[rng.IntN(len(strs))],
			WindowStart: field(), WindowEnd: field(), Value: field()}}
	}
	var q heldQueue
	var want []element
	for range 20000 {
		if rng.IntN(3) > 0 || len(want) == 0 {
			e := random()
			q.push(e)
			want = append(want, e)
		} else {
			if rng.IntN(50) == 0 {
				i, barriers := 0, 0
				q.each(func(e element) {
					if e != want[i] {
						t.Fatalf("each: element %d is %+v, want %+v", i, e, want[i])
					}
					if e.kind == kindBarrier {
						barriers++
					}
					i++
				})
				if i != len(want) || barriers != q.barriers {
					t.Fatalf("each saw %d elements and %d barriers; holds %d and counts %d", i, barriers, len(want), q.barriers)
				}
			}
			if got := q.pop(); got != want[0] {
				t.Fatalf("pop gave %+v, want %+v", got, want[0])
			}
			want = want[1:]
		}
		if q.len() != len(want) {
			t.Fatalf("len %d, want %d", q.len(), len(want))
		}
	}
	if len(q.chunks) < 2 {
		t.Fatalf("the elements fit in %d chunk(s): the test never crossed one", len(q.chunks))
	}
}

// A row behind a trigger, the common case, takes a small part of what an
// element takes in memory.
func TestHeldQueueRowsAreSmall(t *testing.T) {
	var q heldQueue
	const rows = 10000
	for i := range rows {
		start := 1767268994000 + int64(i%2000)
		q.push(element{kind: kindRecord, at: 1767268995000, rec: Record{Offset: -1, Key: "click", Action: "click",
			Time: start, WindowStart: start, WindowEnd: start + 1000, Value: int64(i % 300)}})
	}
	var bytes int
	for _, c := range q.chunks {
		bytes += len(c.data)
	}
	if per := float64(bytes) / rows; per > 24 {
		t.Errorf("a held row takes %.1f bytes; want at most 24 (an element takes 120)", per)
	}
}
