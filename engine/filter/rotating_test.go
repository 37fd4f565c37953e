package filter_test

import (
	"errors"
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
)

var rotatingSpec = filter.Spec{Kind: filter.KindRotating, N: 1000, P: 0.01}

// A rotating filter remembers an id for at least n and at most 2·n new ids
// after it, then forgets it; its memory stops at two Bloom filters while an
// exact set of the same ids keeps growing.
func TestRotatingFilterForgets(t *testing.T) {
	f := mustNew(t, rotatingSpec)
	if f.TestAndAdd(genID(0)) {
		t.Fatal("the first id answered seen")
	}
	// Within the horizon nothing inserted is forgotten: no false negatives.
	fresh := int64(1)
	for i := uint64(1); i < 1000; i++ {
		if !f.TestAndAdd(genID(i)) {
			fresh++
		}
	}
	for i := uint64(0); i < 1000; i++ {
		if !f.Test(genID(i)) {
			t.Fatalf("id %d forgotten within n new ids", i)
		}
	}
	one := f.Stats().Bytes
	// 2·n more new ids push the first generation out.
	for i := uint64(1000); i < 3000; i++ {
		if !f.TestAndAdd(genID(i)) {
			fresh++
		}
	}
	if held, rot := filter.Rotations(f); held != 2 || rot < 2 {
		t.Fatalf("held %d generations after %d rotations", held, rot)
	}
	forgotten := 0
	for i := uint64(0); i < 1000; i++ {
		if !f.Test(genID(i)) {
			forgotten++
		}
	}
	// A few old ids still answer seen: false positives of the newer filters.
	if forgotten < 950 {
		t.Fatalf("only %d of the first 1000 ids forgotten after 2000 more", forgotten)
	}
	st := f.Stats()
	m, k := rotatingSpec.BloomParams()
	if st.Kind != filter.KindRotating || st.M > 2*uint64(m) || st.K != uint64(k) || st.Bytes > 2*one {
		t.Fatalf("stats %+v: expected at most two filters of m=%d", st, m)
	}
	if st.ExactBytes <= st.Bytes || st.Inserted != fresh {
		t.Fatalf("bytes %d, exact %d, inserted %d", st.Bytes, st.ExactBytes, st.Inserted)
	}
	if st.EstimatedFP <= 0 || st.EstimatedFP > 0.03 {
		t.Fatalf("estimated fp %v for two filters at 1%%", st.EstimatedFP)
	}
}

// A checkpoint restores what was remembered, generation by generation, and
// refuses another filter's bytes.
func TestRotatingFilterCheckpoint(t *testing.T) {
	f := mustNew(t, rotatingSpec)
	for i := uint64(0); i < 2500; i++ {
		f.TestAndAdd(genID(i))
	}
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	g := mustNew(t, rotatingSpec)
	if err := g.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if f.Stats() != g.Stats() {
		t.Fatalf("restored %+v, want %+v", g.Stats(), f.Stats())
	}
	for i := uint64(0); i < 4000; i++ {
		if f.Test(genID(i)) != g.Test(genID(i)) {
			t.Fatalf("id %d answers differently after restore", i)
		}
	}
	b2, _ := g.MarshalBinary()
	if string(b) != string(b2) {
		t.Fatal("the same contents gave different checkpoints")
	}
	other := mustNew(t, filter.Spec{Kind: filter.KindRotating, N: 500, P: 0.01})
	for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte{}, b...), 0), b[:30]} {
		if err := g.UnmarshalBinary(bad); !errors.Is(err, filter.ErrEncoding) {
			t.Errorf("%d bytes: %v", len(bad), err)
		}
	}
	if err := other.UnmarshalBinary(b); !errors.Is(err, filter.ErrEncoding) {
		t.Errorf("another size: %v", err)
	}
	bl := mustNew(t, bloomNP(1000, 0.01))
	if err := bl.UnmarshalBinary(b); !errors.Is(err, filter.ErrEncoding) {
		t.Errorf("into a bloom filter: %v", err)
	}
}

func TestRotatingSpec(t *testing.T) {
	s, err := filter.ParseSpec([]string{"rotating"}, map[string]string{"n": "1000", "p": "0.01"})
	if err != nil || s != rotatingSpec || s.String() != "rotating n=1000 p=0.01" {
		t.Fatalf("%+v %q %v", s, s.String(), err)
	}
	for _, params := range []map[string]string{
		{"n": "1000"}, {"p": "0.01"}, {"n": "0", "p": "0.01"}, {"n": "1000", "p": "1"},
		{"n": "1000", "p": "0.01", "m": "5"}, {"n": "1000000000000", "p": "0.000001"},
	} {
		if _, err := filter.ParseSpec([]string{"rotating"}, params); !errors.Is(err, filter.ErrSpec) {
			t.Errorf("%v: %v", params, err)
		}
	}
	if err := (filter.Spec{Kind: filter.KindRotating, M: 5, K: 2}).Validate(); !errors.Is(err, filter.ErrSpec) {
		t.Errorf("rotating by size: %v", err)
	}
}
