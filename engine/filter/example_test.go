package filter_test

import (
	"fmt"

	"github.com/streamlab/streamlab/engine/filter"
)

// A dedup stage asks its filter about every record id. A Bloom filter sized
// for 1 000 ids at 1% takes about 1.2 KB where an exact set of the same
// ids takes 36 KB; the price is that a few new ids answer "seen" and would
// be dropped as duplicates.
func ExampleNew() {
	spec, err := filter.ParseSpec([]string{"bloom"}, map[string]string{"n": "1000", "p": "0.01"})
	if err != nil {
		panic(err)
	}
	f, _ := filter.New(spec)
	for id := uint64(1); id <= 1000; id++ {
		f.TestAndAdd(id) // 1 000 distinct ids
	}
	fmt.Println("repeat of 42 seen:", f.TestAndAdd(42)) // never a false negative

	st := f.Stats()
	fmt.Printf("%v: m=%d k=%d\n", spec, st.M, st.K)
	fmt.Printf("inserted %d, probes %d\n", st.Inserted, st.Probes)
	fmt.Printf("fill %.3f, size from fill %.0f, estimated FP %.2f%%\n", st.FillRatio, st.ApproxSize, 100*st.EstimatedFP)

	falsePositives := 0
	for id := uint64(1001); id <= 11000; id++ { // 10 000 ids never added
		if f.Test(id) {
			falsePositives++
		}
	}
	fmt.Printf("new ids that answer seen: %d of 10000\n", falsePositives)
	fmt.Printf("bloom %d bytes (%.1f bits an id), exact set %d bytes (%.0f bits an id)\n",
		st.Bytes, st.BitsPerElement, st.ExactBytes, st.ExactBitsPerElement)
	// Output:
	// repeat of 42 seen: true
	// bloom n=1000 p=0.01: m=9586 k=7
	// inserted 1000, probes 1001
	// fill 0.518, size from fill 1000, estimated FP 1.00%
	// new ids that answer seen: 76 of 10000
	// bloom 1336 bytes (10.7 bits an id), exact set 36992 bytes (296 bits an id)
}

// Locations shows why a Bloom filter answers "maybe": all k bits of the id
// are set, whoever set them.
func ExampleLocations() {
	f, _ := filter.New(filter.Spec{Kind: filter.KindBloom, M: 32, K: 3})
	for id := uint64(1); id <= 4; id++ {
		f.TestAndAdd(id)
	}
	fmt.Println("added 2:", filter.Locations(f, 2))
	fmt.Println("new 5:  ", filter.Locations(f, 5))
	for id := uint64(5); ; id++ {
		if f.Test(id) {
			fmt.Printf("new %d:   %v: a false positive\n", id, filter.Locations(f, id))
			break
		}
	}
	// Output:
	// added 2: [{8 true} {25 true} {16 true}]
	// new 5:   [{27 true} {0 false} {15 false}]
	// new 7:   [{18 true} {1 true} {10 true}]: a false positive
}

func ExampleSpec_String() {
	for _, s := range []filter.Spec{
		{Kind: filter.KindExact},
		{Kind: filter.KindBloom, N: 10000, P: 0.01},
		{Kind: filter.KindBloom, M: 512, K: 3},
	} {
		m, k := s.BloomParams()
		fmt.Printf("%-22s m=%d k=%d\n", s, m, k)
	}
	// Output:
	// exact                  m=0 k=0
	// bloom n=10000 p=0.01   m=95851 k=7
	// bloom m=512 k=3        m=512 k=3
}
