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
