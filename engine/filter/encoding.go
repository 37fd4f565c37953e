package filter

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/bits-and-blooms/bitset"
	"github.com/bits-and-blooms/bloom/v3"
)

// A checkpoint is a fixed header followed by the filter's own contents:
//
//	"SLF" version(1)  kind('b'|'e')  inserted(uint64 LE)  probes(uint64 LE)
//	bloom: the library's MarshalBinary: m, k (uint64 BE), the bitset
//	       (length, then ⌈m/64⌉ words, in bitset.BinaryOrder, BE by default)
//	exact: count (uint64 LE), then count ids (uint64 LE), increasing
//
// The header carries the counters of Stats, which the library's encoding
// does not hold, so that a restored filter reports what the original did.
// The ids of an exact set are sorted so that the same contents always give
// the same bytes, whatever the map's iteration order.
const (
	magic         = "SLF"
	version       = 1
	kindByteBloom = 'b'
	kindByteExact = 'e'
	headerBytes   = len(magic) + 1 + 1 + 8 + 8
)

func appendHeader(dst []byte, kind byte, inserted, probes int64) []byte {
	dst = append(dst, magic...)
	dst = append(dst, version, kind)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(inserted))
	return binary.LittleEndian.AppendUint64(dst, uint64(probes))
}

// readHeader checks the header and returns the counters and the payload.
func readHeader(data []byte, kind byte) (inserted, probes int64, payload []byte, err error) {
	if len(data) < headerBytes || string(data[:len(magic)]) != magic {
		return 0, 0, nil, fmt.Errorf("%w: not a filter checkpoint", ErrEncoding)
	}
	if v := data[len(magic)]; v != version {
		return 0, 0, nil, fmt.Errorf("%w: version %d, expected %d", ErrEncoding, v, version)
	}
	if k := data[len(magic)+1]; k != kind {
		return 0, 0, nil, fmt.Errorf("%w: a checkpoint of kind %q restored into a filter of kind %q", ErrEncoding, k, kind)
	}
	ins := binary.LittleEndian.Uint64(data[len(magic)+2:])
	prb := binary.LittleEndian.Uint64(data[len(magic)+10:])
	if ins > math.MaxInt64 || prb > math.MaxInt64 || ins > prb {
		return 0, 0, nil, fmt.Errorf("%w: counters inserted=%d probes=%d, expected inserted ≤ probes", ErrEncoding, ins, prb)
	}
	return int64(ins), int64(prb), data[headerBytes:], nil
}

func (f *bloomFilter) MarshalBinary() ([]byte, error) {
	body, err := f.bf.MarshalBinary()
	if err != nil {
		return nil, err
	}
	out := appendHeader(make([]byte, 0, headerBytes+len(body)), kindByteBloom, f.inserted, f.probes)
	return append(out, body...), nil
}

// UnmarshalBinary checks the payload against this filter's m and k before
// the library reads it, so that a corrupt length can never make the library
// allocate, and a checkpoint of a differently sized filter is refused.
func (f *bloomFilter) UnmarshalBinary(data []byte) error {
	inserted, probes, body, err := readHeader(data, kindByteBloom)
	if err != nil {
		return err
	}
	m, k := uint64(f.bf.Cap()), uint64(f.bf.K())
	words := (m + 63) / 64
	if want := 8 + 8 + 8 + 8*words; uint64(len(body)) != want {
		return fmt.Errorf("%w: %d bytes of Bloom filter, expected %d for m=%d", ErrEncoding, len(body), want, m)
	}
	gotM, gotK := binary.BigEndian.Uint64(body), binary.BigEndian.Uint64(body[8:])
	if gotM != m || gotK != k {
		return fmt.Errorf("%w: checkpoint of bloom m=%d k=%d, filter is bloom m=%d k=%d", ErrEncoding, gotM, gotK, m, k)
	}
	order := bitset.BinaryOrder()
	if l := order.Uint64(body[16:]); l != m {
		return fmt.Errorf("%w: bitset of %d bits, expected %d", ErrEncoding, l, m)
	}
	if r := m % 64; r != 0 && order.Uint64(body[len(body)-8:])>>r != 0 {
		return fmt.Errorf("%w: bits set beyond m=%d", ErrEncoding, m)
	}
	bf := new(bloom.BloomFilter)
	if err := bf.UnmarshalBinary(body); err != nil {
		return fmt.Errorf("%w: %v", ErrEncoding, err)
	}
	// Every insertion sets at least one new bit and at most k.
	set := uint64(bf.BitSet().Count())
	if (set == 0) != (inserted == 0) || set > uint64(inserted)*k {
		return fmt.Errorf("%w: %d bits set for inserted=%d, k=%d", ErrEncoding, set, inserted, k)
	}
	f.bf, f.inserted, f.probes = bf, inserted, probes
	return nil
}

func (f *exactSet) MarshalBinary() ([]byte, error) {
	ids := make([]uint64, 0, len(f.ids))
	for id := range f.ids {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := appendHeader(make([]byte, 0, headerBytes+8+8*len(ids)), kindByteExact, int64(len(ids)), f.probes)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(ids)))
	for _, id := range ids {
		out = binary.LittleEndian.AppendUint64(out, id)
	}
	return out, nil
}

func (f *exactSet) UnmarshalBinary(data []byte) error {
	inserted, probes, body, err := readHeader(data, kindByteExact)
	if err != nil {
		return err
	}
	if len(body) < 8 {
		return fmt.Errorf("%w: exact set truncated", ErrEncoding)
	}
	n := binary.LittleEndian.Uint64(body)
	body = body[8:]
	if n != uint64(inserted) || uint64(len(body))%8 != 0 || uint64(len(body))/8 != n {
		return fmt.Errorf("%w: %d ids in %d bytes for inserted=%d", ErrEncoding, n, len(body), inserted)
	}
	// No size hint: the restored map grows as the original did, so it
	// holds what ExactSetBytes says.
	ids := make(map[uint64]struct{})
	var prev uint64
	for i := range int(n) {
		id := binary.LittleEndian.Uint64(body[8*i:])
		if i > 0 && id <= prev {
			return fmt.Errorf("%w: ids not in increasing order at %d", ErrEncoding, i)
		}
		ids[id], prev = struct{}{}, id
	}
	f.ids, f.probes = ids, probes
	return nil
}
