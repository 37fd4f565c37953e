package filter_test

import (
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
)

func TestDensity(t *testing.T) {
	f, _ := filter.New(filter.Spec{Kind: filter.KindBloom, M: 1024, K: 3})
	if d := filter.Density(f, 8); len(d) != 8 || d[0] != 0 {
		t.Fatalf("an empty filter has density %v", d)
	}
	for id := range uint64(200) {
		f.TestAndAdd(id)
	}
	d := filter.Density(f, 16)
	var sum float64
	for _, x := range d {
		if x < 0 || x > 1 {
			t.Fatalf("density %v out of range", d)
		}
		sum += x
	}
	if got, want := sum/16, f.Stats().FillRatio; got < want-1e-9 || got > want+1e-9 {
		t.Fatalf("mean density %g, fill ratio %g", got, want)
	}
	ex, _ := filter.New(filter.Spec{Kind: filter.KindExact})
	if filter.Density(ex, 8) != nil {
		t.Fatal("an exact set has no bits")
	}
}
