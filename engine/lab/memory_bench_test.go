package lab_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
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

// memoryJobs are the sessions BenchmarkMemoryPerRecord measures: the two
// built-in jobs, clicks with sliding windows a thousand to a record, and
// passthrough through a Bloom dedup stage.
var memoryJobs = []struct{ name, setup string }{
	{"passthrough", "job passthrough"},
	{"clicks", "job clicks"},
	{"sliding-1ms", "job clicks\nset window 1s\nset window.slide 1ms"},
	{"bloom", "job passthrough\nset filter bloom n=10000000 p=0.01"},
}

// BenchmarkMemoryPerRecord measures the live heap each job's session adds
// per record at 1 million and at 10 million records, in one session, over
// a baseline taken in the same run: the session's heap after its first
// record (the job and its Bloom filter's bits are there already). It prints the heap
// at 10 M over the heap at 1 M: about 1 when memory follows the job's
// state, 10 when it grows with the input. sliding-1ms updates a thousand
// windows a record and takes hours; pick jobs with BENCH, e.g.
//
//	make bench BENCH=MemoryPerRecord/passthrough
func BenchmarkMemoryPerRecord(b *testing.B) {
	var lines []string
	for _, job := range memoryJobs {
		b.Run(job.name, func(b *testing.B) {
			for range b.N {
				base, at1, at10 := sessionHeap(b, job.setup, 1_000_000, 10_000_000)
				per1, per10 := float64(at1-base)/1e6, float64(at10-base)/1e7
				b.ReportMetric(per1, "B/record@1M")
				b.ReportMetric(per10, "B/record@10M")
				lines = append(lines, fmt.Sprintf("  %-12s %8.1f B/record at 1 M, %8.1f at 10 M; heap %6.1f MB at 10 M, %5.2f× the heap at 1 M",
					job.name, per1, per10, float64(at10-base)/(1<<20), float64(at10-base)/float64(max(at1-base, 1))))
			}
		})
	}
	if len(lines) > 0 {
		fmt.Printf("live heap per record over the session's heap after its first record, same run (1× from 1 M to 10 M: bounded by state; 10×: grows with the input):\n%s\n", strings.Join(lines, "\n"))
	}
}

// sessionHeap runs setup, then records up to small and up to large, and
// returns the live heap after the first record, at small and at large.
func sessionHeap(b *testing.B, setup string, small, large int64) (base, atSmall, atLarge int64) {
	s := lab.NewSession("mem.lab", lab.Options{})
	defer s.Close()
	ctx := context.Background()
	line := 0
	exec := func(text string) {
		line++
		c, err := script.ParseLine("mem.lab", line, text)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Exec(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	for _, l := range strings.Split(setup, "\n") {
		exec(l)
	}
	exec("run 1") // the job starts with its first run
	base = int64(heapInUse())
	exec(fmt.Sprintf("run %d", small-1))
	atSmall = int64(heapInUse())
	exec(fmt.Sprintf("run %d", large-small))
	atLarge = int64(heapInUse())
	if rep, err := s.Report(); err != nil || rep.Source.Records != large {
		b.Fatalf("report: %v records, %v", rep.Source.Records, err)
	}
	return base, atSmall, atLarge
}
