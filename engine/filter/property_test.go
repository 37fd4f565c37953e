package filter_test

import (
	"bytes"
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
	"pgregory.net/rapid"
)

// idsGen draws id sequences with many repeats: ids from a small range mixed
// with arbitrary ones.
var idsGen = rapid.SliceOfN(rapid.OneOf(rapid.Uint64Range(0, 40), rapid.Uint64()), 0, 300)

// specGen draws any exact or Bloom spec, small enough to fill up, so that
// saturated filters are tried as well.
var specGen = rapid.Custom(func(t *rapid.T) filter.Spec {
	switch rapid.IntRange(0, 2).Draw(t, "form") {
	case 0:
		return exactSpec
	case 1:
		return bloomMK(rapid.UintRange(1, 4096).Draw(t, "m"), rapid.UintRange(1, filter.MaxK).Draw(t, "k"))
	}
	return bloomNP(rapid.UintRange(1, 5000).Draw(t, "n"), rapid.Float64Range(0.001, 0.5).Draw(t, "p"))
})

// TestExactAnswers: an exact set answers false for every first sighting and
// true for every repeat.
func TestExactAnswers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := mustNew(t, exactSpec)
		seen := map[uint64]bool{}
		for _, id := range idsGen.Draw(t, "ids") {
			if f.Test(id) != seen[id] {
				t.Fatalf("Test(%d) = %v, seen %v", id, !seen[id], seen[id])
			}
			if got := f.TestAndAdd(id); got != seen[id] {
				t.Fatalf("TestAndAdd(%d) = %v, seen %v", id, got, seen[id])
			}
			seen[id] = true
		}
		if st := f.Stats(); st.Inserted != int64(len(seen)) {
			t.Fatalf("Inserted = %d, distinct ids %d", st.Inserted, len(seen))
		}
	})
}

// TestBloomNoFalseNegatives: whatever m, k and ids, a Bloom filter answers
// true for every repeat; and Inserted counts its false answers.
func TestBloomNoFalseNegatives(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.UintRange(1, 4096).Draw(t, "m")
		k := rapid.UintRange(1, filter.MaxK).Draw(t, "k")
		f := mustNew(t, bloomMK(m, k))
		seen := map[uint64]bool{}
		var falses int64
		for _, id := range idsGen.Draw(t, "ids") {
			got := f.TestAndAdd(id)
			if seen[id] && !got {
				t.Fatalf("m=%d k=%d: repeat of %d answered false", m, k, id)
			}
			if !got {
				falses++
			}
			seen[id] = true
		}
		for id := range seen {
			if !f.Test(id) {
				t.Fatalf("m=%d k=%d: Test(%d) = false after it was added", m, k, id)
			}
		}
		if st := f.Stats(); st.Inserted != falses || st.Inserted > int64(len(seen)) {
			t.Fatalf("Inserted = %d, false answers %d, distinct ids %d", st.Inserted, falses, len(seen))
		}
	})
}

// TestMarshalRoundTrip: a filter restored from its checkpoint reports the
// same Stats, answers every id the same way, goes on the same way, and
// writes the same checkpoint.
func TestMarshalRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := specGen.Draw(t, "spec")
		f := mustNew(t, s)
		for _, id := range idsGen.Draw(t, "ids") {
			f.TestAndAdd(id)
		}
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		g := mustNew(t, s)
		if err := g.UnmarshalBinary(data); err != nil {
			t.Fatalf("%v: UnmarshalBinary: %v", s, err)
		}
		if fs, gs := f.Stats(), g.Stats(); fs != gs {
			t.Fatalf("%v: stats\n%+v\nrestored\n%+v", s, fs, gs)
		}
		if again, _ := g.MarshalBinary(); !bytes.Equal(again, data) {
			t.Fatalf("%v: checkpoint of the restored filter differs", s)
		}
		for _, id := range idsGen.Draw(t, "probes") {
			if f.Test(id) != g.Test(id) {
				t.Fatalf("%v: Test(%d) differs after restore", s, id)
			}
			if f.TestAndAdd(id) != g.TestAndAdd(id) {
				t.Fatalf("%v: TestAndAdd(%d) differs after restore", s, id)
			}
		}
		if f.Stats() != g.Stats() {
			t.Fatalf("%v: stats diverge after restore", s)
		}
	})
}
