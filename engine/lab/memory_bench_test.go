package lab_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// BenchmarkMemoryPassthrough measures the heap a passthrough session holds
// after 1 million and after 30 million records, in one session: memory
// should be bounded by the job's state, not by its input (goal: the two
// within 2× of each other). It runs 30 million records, so run it once:
//
//	go test -run NONE -bench MemoryPassthrough -benchtime 1x ./engine/lab
func BenchmarkMemoryPassthrough(b *testing.B) {
	for range b.N {
		s := lab.NewSession("mem.lab", lab.Options{})
		ctx := context.Background()
		exec := func(line string) {
			c, err := script.ParseLine("mem.lab", 1, line)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Exec(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
		exec("job passthrough")
		exec("run 1000000")
		at1 := heapInUse()
		for range 29 {
			exec("run 1000000")
		}
		at30 := heapInUse()
		rep, err := s.Report()
		if err != nil || rep.Source.Records != 30_000_000 {
			b.Fatalf("report: %v records, %v", rep.Source.Records, err)
		}
		s.Close()
		b.ReportMetric(float64(at1)/(1<<20), "MB@1M")
		b.ReportMetric(float64(at30)/(1<<20), "MB@30M")
		b.ReportMetric(float64(at30)/float64(at1), "ratio(30M/1M)")
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestMemoryBoundedByState is the benchmark's claim at a size a test can
// afford: 900 000 more records of passthrough leave the live heap about
// where it was (the ledger used to keep 16 bytes a record: 14 MB here).
func TestMemoryBoundedByState(t *testing.T) {
	s := lab.NewSession("mem.lab", lab.Options{})
	defer s.Close()
	ctx := context.Background()
	for _, line := range []string{"job passthrough", "run 100000"} {
		c, err := script.ParseLine("mem.lab", 1, line)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Exec(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	before := heapInUse()
	c, _ := script.ParseLine("mem.lab", 3, "run 900000")
	if err := s.Exec(ctx, c); err != nil {
		t.Fatal(err)
	}
	after := heapInUse()
	if grew := int64(after) - int64(before); grew > 4<<20 {
		t.Errorf("the live heap grew by %d MiB over 900 000 records; want under 4", grew>>20)
	}
	t.Logf("heap %d KiB after 100 000 records, %d KiB after 1 000 000", before>>10, after>>10)
}
