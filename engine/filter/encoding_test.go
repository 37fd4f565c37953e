package filter_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/streamlab/streamlab/engine/filter"
)

func checkpoint(t testing.TB, s filter.Spec, ids ...uint64) []byte {
	t.Helper()
	f := mustNew(t, s)
	for _, id := range ids {
		f.TestAndAdd(id)
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestMarshalBloomIsLibraryEncoding: after the header, a Bloom checkpoint is
// the library's own MarshalBinary, so any tool with the library can read it.
func TestMarshalBloomIsLibraryEncoding(t *testing.T) {
	const headerBytes = 21
	data := checkpoint(t, bloomMK(1000, 4), 1, 2, 3)
	raw := bloom.New(1000, 4)
	for _, id := range []uint64{1, 2, 3} {
		raw.Add(filter.Key(id))
	}
	want, _ := raw.MarshalBinary()
	if !bytes.Equal(data[headerBytes:], want) {
		t.Fatalf("payload is not the library's encoding")
	}
	var back bloom.BloomFilter
	if err := back.UnmarshalBinary(data[headerBytes:]); err != nil || !back.Equal(raw) {
		t.Fatalf("library cannot read the payload: %v", err)
	}
}

// TestUnmarshalRefuses: a checkpoint of another kind or size, or a damaged
// one, is refused with ErrEncoding and leaves the filter as it was.
func TestUnmarshalRefuses(t *testing.T) {
	bloomCP := checkpoint(t, bloomMK(1000, 4), 1, 2, 3)
	exactCP := checkpoint(t, exactSpec, 1, 2, 3)
	flip := func(b []byte, i int) []byte {
		b = bytes.Clone(b)
		b[i] ^= 0xff
		return b
	}
	swapLast := func(b []byte) []byte { // the last two ids of an exact checkpoint
		b = bytes.Clone(b)
		n := len(b)
		a := bytes.Clone(b[n-16 : n-8])
		copy(b[n-16:], b[n-8:])
		copy(b[n-8:], a)
		return b
	}
	for _, c := range []struct {
		name string
		into filter.Spec
		data []byte
	}{
		{"empty", exactSpec, nil},
		{"not a checkpoint", exactSpec, []byte("hello, world, this is not it")},
		{"exact into bloom", bloomMK(1000, 4), exactCP},
		{"bloom into exact", exactSpec, bloomCP},
		{"other m", bloomMK(1024, 4), bloomCP},
		{"other k", bloomMK(1000, 3), bloomCP},
		{"bloom truncated", bloomMK(1000, 4), bloomCP[:len(bloomCP)-1]},
		{"bloom too long", bloomMK(1000, 4), append(bytes.Clone(bloomCP), 0)},
		{"exact truncated", exactSpec, exactCP[:len(exactCP)-3]},
		{"version", exactSpec, flip(exactCP, 3)},
		{"inserted > probes", exactSpec, flip(exactCP, 5)},
		{"ids out of order", exactSpec, swapLast(exactCP)},
		{"bit beyond m", bloomMK(1000, 4), flip(bloomCP, len(bloomCP)-8)}, // the top byte of the last word, BE,
	} {
		f := mustNew(t, c.into)
		f.TestAndAdd(42)
		before := f.Stats()
		err := f.UnmarshalBinary(c.data)
		if !errors.Is(err, filter.ErrEncoding) {
			t.Errorf("%s: err = %v, want ErrEncoding", c.name, err)
		}
		if f.Stats() != before || !f.Test(42) {
			t.Errorf("%s: filter changed by a refused checkpoint", c.name)
		}
	}
}

// FuzzUnmarshalBinary: no bytes make UnmarshalBinary panic or allocate
// without bound, and what it accepts it writes back byte for byte.
func FuzzUnmarshalBinary(f *testing.F) {
	f.Add(checkpoint(f, exactSpec), false)
	f.Add(checkpoint(f, exactSpec, 3, 1, 2, 3), false)
	f.Add(checkpoint(f, bloomMK(100, 3)), true)
	f.Add(checkpoint(f, bloomMK(100, 3), 7, 8, 9), true)
	f.Fuzz(func(t *testing.T, data []byte, isBloom bool) {
		s := exactSpec
		if isBloom {
			s = bloomMK(100, 3)
		}
		g := mustNew(t, s)
		if err := g.UnmarshalBinary(data); err != nil {
			return
		}
		if again, _ := g.MarshalBinary(); !bytes.Equal(again, data) {
			t.Fatalf("accepted %x, writes back %x", data, again)
		}
	})
}
