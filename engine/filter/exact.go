package filter

// exactSet remembers every id in a Go map: it is never wrong and its memory
// grows with every distinct id (see ExactSetBytes).
type exactSet struct {
	spec   Spec
	ids    map[uint64]struct{}
	probes int64
}

func newExact(s Spec) *exactSet {
	return &exactSet{spec: s, ids: make(map[uint64]struct{})}
}

func (f *exactSet) TestAndAdd(id uint64) bool {
	f.probes++
	if _, seen := f.ids[id]; seen {
		return true
	}
	f.ids[id] = struct{}{}
	return false
}

func (f *exactSet) Test(id uint64) bool {
	_, seen := f.ids[id]
	return seen
}

func (f *exactSet) Spec() Spec { return f.spec }

func (f *exactSet) RateNow() float64 { return 0 }

func (f *exactSet) Stats() Stats {
	n := int64(len(f.ids))
	bytes := ExactSetBytes(n)
	return Stats{
		Kind:                KindExact,
		Inserted:            n,
		Probes:              f.probes,
		ApproxSize:          float64(n),
		Bytes:               bytes,
		ExactBytes:          bytes,
		BitsPerElement:      ratio(float64(bytes)*8, float64(n)),
		ExactBitsPerElement: ratio(float64(bytes)*8, float64(n)),
	}
}
