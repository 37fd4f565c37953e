package filter

import (
	"encoding/binary"
	"fmt"
	"math"
)

// KindRotating is a time-bounded Bloom filter: two generations of Bloom
// filters, each sized for N ids at rate P. New ids go into the newer; once
// it has taken N, the older generation is dropped and an empty one starts.
// A Bloom filter cannot delete, so it only grows until every answer is
// "seen"; rotating whole filters forgets old ids instead, and keeps the
// memory at two filters however long the stream runs. The price is a
// horizon: an id is remembered for at least N and at most 2·N new ids after
// it, and a duplicate that comes later is taken for new. Time here is
// counted in new ids, not in wall time, so a run is the same under any
// schedule.
const KindRotating = "rotating"

// Generations is how many Bloom filters a rotating filter holds at most.
const Generations = 2

const kindByteRotating = 'r'

type rotatingFilter struct {
	spec      Spec
	gens      []*bloomFilter // oldest first; the last takes new ids
	inserted  int64
	probes    int64
	rotations int64
}

// genSpec is the spec of one generation.
func (s Spec) genSpec() Spec { return Spec{Kind: KindBloom, N: s.N, P: s.P} }

func newRotating(s Spec) *rotatingFilter {
	return &rotatingFilter{spec: s, gens: []*bloomFilter{newBloom(s.genSpec())}}
}

func (f *rotatingFilter) Test(id uint64) bool {
	for _, g := range f.gens {
		if g.Test(id) {
			return true
		}
	}
	return false
}

func (f *rotatingFilter) TestAndAdd(id uint64) bool {
	f.probes++
	if f.Test(id) {
		return true
	}
	cur := f.gens[len(f.gens)-1]
	cur.TestAndAdd(id)
	f.inserted++
	if cur.inserted >= int64(f.spec.N) {
		if len(f.gens) == Generations {
			f.gens = append(f.gens[:0], f.gens[1:]...)
		}
		f.gens = append(f.gens, newBloom(f.spec.genSpec()))
		f.rotations++
	}
	return false
}

func (f *rotatingFilter) Spec() Spec { return f.spec }

func (f *rotatingFilter) RateNow() float64 {
	miss := 1.0
	for _, g := range f.gens {
		miss *= 1 - g.RateNow()
	}
	return 1 - miss
}

// Stats sums the generations held now: M is their bits together, BitsSet
// theirs, ApproxSize the ids they seem to hold (what is remembered), and
// EstimatedFP the chance that a new id matches any of them. ExactBytes is
// what an exact set of every id ever inserted would hold, for comparison:
// it grows with the stream, while Bytes stops at G filters.
func (f *rotatingFilter) Stats() Stats {
	s := Stats{Kind: KindRotating, Inserted: f.inserted, Probes: f.probes, ExactBytes: ExactSetBytes(f.inserted)}
	miss := 1.0
	for _, g := range f.gens {
		gs := g.Stats()
		s.M += gs.M
		s.K = gs.K
		s.BitsSet += gs.BitsSet
		s.ApproxSize += gs.ApproxSize
		s.Bytes += gs.Bytes
		miss *= 1 - gs.EstimatedFP
	}
	s.EstimatedFP = 1 - miss
	s.FillRatio = float64(s.BitsSet) / float64(s.M)
	s.BitsPerElement = ratio(float64(s.Bytes)*8, float64(s.Inserted))
	s.ExactBitsPerElement = ratio(float64(s.ExactBytes)*8, float64(s.Inserted))
	return s
}

// Rotations returns how many generations a rotating filter holds now and
// how many times it has rotated, or 0, 0 for other filters.
func Rotations(f Filter) (held int, rotations int64) {
	r, ok := f.(*rotatingFilter)
	if !ok || r == nil {
		return 0, 0
	}
	return len(r.gens), r.rotations
}

// MarshalBinary writes the header, the rotations and the number of
// generations, then each generation's own checkpoint (bloomFilter's),
// oldest first, each after its length.
func (f *rotatingFilter) MarshalBinary() ([]byte, error) {
	out := appendHeader(nil, kindByteRotating, f.inserted, f.probes)
	out = binary.LittleEndian.AppendUint64(out, uint64(f.rotations))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(f.gens)))
	for _, g := range f.gens {
		b, err := g.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = binary.LittleEndian.AppendUint64(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out, nil
}

func (f *rotatingFilter) UnmarshalBinary(data []byte) error {
	inserted, probes, body, err := readHeader(data, kindByteRotating)
	if err != nil {
		return err
	}
	if len(body) < 16 {
		return fmt.Errorf("%w: rotating filter truncated", ErrEncoding)
	}
	rotations, n := binary.LittleEndian.Uint64(body), binary.LittleEndian.Uint64(body[8:])
	body = body[16:]
	if n == 0 || n > Generations || rotations > math.MaxInt64 {
		return fmt.Errorf("%w: %d generations, expected 1 to %d", ErrEncoding, n, Generations)
	}
	gens := make([]*bloomFilter, 0, n)
	var held int64
	for i := range n {
		if len(body) < 8 {
			return fmt.Errorf("%w: generation %d truncated", ErrEncoding, i)
		}
		l := binary.LittleEndian.Uint64(body)
		body = body[8:]
		if l > uint64(len(body)) {
			return fmt.Errorf("%w: generation %d of %d bytes, %d left", ErrEncoding, i, l, len(body))
		}
		g := newBloom(f.spec.genSpec())
		if err := g.UnmarshalBinary(body[:l]); err != nil {
			return err
		}
		if g.inserted > int64(f.spec.N) || (i+1 < n && g.inserted != int64(f.spec.N)) {
			return fmt.Errorf("%w: generation %d holds %d ids, expected %d", ErrEncoding, i, g.inserted, f.spec.N)
		}
		held += g.inserted
		body = body[l:]
		gens = append(gens, g)
	}
	if len(body) != 0 || held > inserted {
		return fmt.Errorf("%w: %d bytes after the generations, or more ids held (%d) than inserted (%d)", ErrEncoding, len(body), held, inserted)
	}
	f.gens, f.inserted, f.probes, f.rotations = gens, inserted, probes, int64(rotations)
	return nil
}
