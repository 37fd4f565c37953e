package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bits-and-blooms/bloom/v3"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// benchJobs are the built-in jobs the pipeline benchmarks run.
var benchJobs = []string{"passthrough", "clicks"}

// runLoop is the plain-loop baseline: the same operators as direct function
// calls, no channels, no scheduler.
func runLoop(b *testing.B, spec jobspec.Spec, n int) {
	src, err := NewSource(spec.Source, 1)
	if err != nil {
		b.Fatal(err)
	}
	cur := newCursor(src, &admissions{runEnd: -1}, spec.Source.Trigger, spec.Source.Watermark)
	c := newChain(spec, func(op jobspec.Operator) (operator, error) { return newOperator(op, ModeUpdate), nil }, cur, &sinkOp{writer: &logSink{}, events: !aggregates(spec)})
	cur.admitRecords(src, int64(n))
	c.drain()
}

// chanEmitter sends every record on its own channel send.
type chanEmitter struct{ ch chan<- element }

func (c chanEmitter) emit(r Record) { c.ch <- element{kind: kindRecord, rec: r} }

// runChan is the naive Go baseline: a goroutine per operator and one
// record per buffered channel send.
func runChan(b *testing.B, spec jobspec.Spec, n int) {
	src, err := NewSource(spec.Source, 1)
	if err != nil {
		b.Fatal(err)
	}
	cur := newCursor(src, &admissions{runEnd: -1}, spec.Source.Trigger, spec.Source.Watermark)
	cur.admitRecords(src, int64(n))
	sink := &sinkOp{writer: &logSink{}, events: !aggregates(spec)}
	chans := make([]chan element, len(spec.Operators)+1)
	for i := range chans {
		chans[i] = make(chan element, 1024)
	}
	var wg sync.WaitGroup
	for i, o := range spec.Operators {
		op, in, out := newOperator(o, ModeUpdate), chans[i], chans[i+1]
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(out)
			em := chanEmitter{out}
			for e := range in {
				switch e.kind {
				case kindRecord:
					op.record(e.rec, em)
				case kindWatermark:
					op.watermark(e.value, em)
					out <- e
				case kindTrigger:
					op.trigger(em)
					out <- e
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for e := range chans[len(chans)-1] {
			switch e.kind {
			case kindRecord:
				sink.record(e.rec, nil)
			case kindTrigger:
				sink.trigger(nil)
			}
		}
	}()
	for {
		e, ok := cur.next()
		if !ok {
			break
		}
		chans[0] <- e
	}
	close(chans[0])
	wg.Wait()
}

func runEngine(b *testing.B, spec jobspec.Spec, executor Executor, ledger bool, n int) {
	cfg := DefaultConfig()
	cfg.Executor, cfg.NoLedger = executor, !ledger
	rt, err := New(spec, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(int64(n))
	if err := rt.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// throughput records what each sub-benchmark reached, for the ratios.
type throughput map[string]float64

func (t throughput) measure(b *testing.B, name string, f func(n int)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		f(b.N)
		rate := float64(b.N) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "records/s")
		t[b.Name()] = rate
	})
}

// report prints each measurement as a ratio to its baseline.
func (t throughput) report(title string, pairs [][3]string) {
	var lines []string
	for _, p := range pairs {
		x, base := t[p[0]], t[p[1]]
		if x == 0 || base == 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("  %-48s %8.3f× %s", p[0], x/base, p[2]))
	}
	sort.Strings(lines)
	if len(lines) > 0 {
		fmt.Fprintf(os.Stdout, "%s\n%s\n", title, strings.Join(lines, "\n"))
	}
}

// BenchmarkPipeline runs each built-in job under both executors and the two
// baselines in the same run, with the ledger off, and prints ratios: the
// concurrent executor against the plain loop (the limit) and against one
// record per channel send (what naive Go engines do), the deterministic
// executor against the plain loop.
func BenchmarkPipeline(b *testing.B) {
	t := throughput{}
	var pairs [][3]string
	for _, job := range benchJobs {
		spec, _ := jobspec.Builtin(job)
		t.measure(b, job+"/loop", func(n int) { runLoop(b, spec, n) })
		t.measure(b, job+"/chan", func(n int) { runChan(b, spec, n) })
		t.measure(b, job+"/deterministic", func(n int) { runEngine(b, spec, ExecDeterministic, false, n) })
		t.measure(b, job+"/concurrent", func(n int) { runEngine(b, spec, ExecConcurrent, false, n) })
		p := "BenchmarkPipeline/" + job + "/"
		pairs = append(pairs,
			[3]string{p + "concurrent", p + "loop", "of the plain loop (goal ≥ 0.25 on passthrough)"},
			[3]string{p + "concurrent", p + "chan", "of one record per channel send (goal ≥ 5)"},
			[3]string{p + "deterministic", p + "loop", "of the plain loop (goal ≥ 0.033)"},
			[3]string{p + "chan", p + "loop", "of the plain loop"},
		)
	}
	t.report("throughput ratios (records/s over records/s, same run):", pairs)
}

// BenchmarkLedger measures what the failure-free comparison costs: the same
// job and executor with the ledger off and on.
func BenchmarkLedger(b *testing.B) {
	t := throughput{}
	var pairs [][3]string
	for _, job := range benchJobs {
		spec, _ := jobspec.Builtin(job)
		for _, ex := range []Executor{ExecDeterministic, ExecConcurrent} {
			t.measure(b, job+"/"+string(ex)+"/off", func(n int) { runEngine(b, spec, ex, false, n) })
			t.measure(b, job+"/"+string(ex)+"/on", func(n int) { runEngine(b, spec, ex, true, n) })
			p := "BenchmarkLedger/" + job + "/" + string(ex) + "/"
			pairs = append(pairs, [3]string{p + "on", p + "off", "of the throughput without the ledger (goal ≥ 0.5)"})
		}
	}
	t.report("ledger cost (records/s with the ledger over without, same run):", pairs)
}

// BenchmarkRecovery prices fault tolerance while nothing fails: checkpoints
// every 100, 1 000 and 10 000 records, upstream backup's output queues, and
// active standby's replicas, each as a ratio to the same job without them,
// measured in the same run (deterministic executor, ledger off).
func BenchmarkRecovery(b *testing.B) {
	t := throughput{}
	var pairs [][3]string
	for _, job := range benchJobs {
		spec, _ := jobspec.Builtin(job)
		run := func(semantics Semantics, ha HAScheme, interval int64) func(int) {
			return func(n int) {
				cfg := DefaultConfig()
				cfg.NoLedger, cfg.Semantics, cfg.HA, cfg.CheckpointInterval = true, semantics, ha, interval
				rt, err := New(spec, cfg)
				if err != nil {
					b.Fatal(err)
				}
				defer rt.Close()
				rt.Admit(int64(n))
				if err := rt.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		}
		p := "BenchmarkRecovery/" + job + "/"
		t.measure(b, job+"/none", run(AtMostOnce, HANone, 0))
		for _, interval := range []int64{100, 1000, 10000} {
			name := fmt.Sprintf("checkpoint-%d", interval)
			t.measure(b, job+"/"+name, run(AtLeastOnce, HAPassiveStandby, interval))
			goal := ""
			if interval == 1000 {
				goal = " (goal ≥ 0.91: under 10% cost)"
			}
			pairs = append(pairs, [3]string{p + name, p + "none", "of the job without checkpoints" + goal})
		}
		t.measure(b, job+"/upstream-backup", run(AtLeastOnce, HAUpstreamBackup, 0))
		t.measure(b, job+"/active-standby", run(AtLeastOnce, HAActiveStandby, 0))
		pairs = append(pairs,
			[3]string{p + "upstream-backup", p + "none", "of the job without output queues"},
			[3]string{p + "active-standby", p + "none", "of the job without replicas"})
	}
	t.report("fault-tolerance cost while nothing fails (records/s over records/s, same run):", pairs)
}

// discard counts what a stage emits.
type discard struct{ n int }

func (d *discard) emit(Record) { d.n++ }

// BenchmarkDedupStage prices the dedup stage per record — the filter, the
// truth kept to count false drops, the record handling — against the bare
// library call bloom.TestAndAdd on the same ids, in the same run.
func BenchmarkDedupStage(b *testing.B) {
	t := throughput{}
	spec := filter.Spec{Kind: filter.KindBloom, N: 1 << 20, P: 0.01}
	ids := make([]uint64, 1<<16)
	for i := range ids {
		ids[i] = mix(uint64(i)) // a duplicate every 65 536 records
	}
	t.measure(b, "raw-testandadd", func(n int) {
		bf := bloom.NewWithEstimates(spec.N, spec.P)
		var key [8]byte
		for i := range n {
			binary.LittleEndian.PutUint64(key[:], ids[i%len(ids)])
			bf.TestAndAdd(key[:])
		}
	})
	for _, f := range []filter.Spec{spec, {Kind: filter.KindExact}} {
		t.measure(b, "stage-"+f.Kind, func(n int) {
			d, err := newDedup(f)
			if err != nil {
				b.Fatal(err)
			}
			out := &discard{}
			for i := range n {
				d.record(Record{ID: ids[i%len(ids)], Offset: int64(i)}, out)
			}
		})
	}
	// Records per second of the bare call over the stage's: the stage's cost
	// per record in units of one TestAndAdd.
	raw := t["BenchmarkDedupStage/raw-testandadd"]
	for _, kind := range []string{"bloom", "exact"} {
		if s := t["BenchmarkDedupStage/stage-"+kind]; s > 0 {
			fmt.Printf("dedup stage (%s) costs %.2f× a raw TestAndAdd per record\n", kind, raw/s)
		}
	}
}

// BenchmarkUpstreamBackup runs the clicks job under upstream backup at 125 k
// to 1 M records, with every node up and with count[1] killed first and
// left down (a standalone deployment waits for a manual restart): its
// output queues then keep everything sent its way, and every
// acknowledgement round must trim the rest without walking what it keeps.
// It prints each size's throughput as a ratio to the 125 k run's and the
// left-down run's against the all-up run of the same size, all measured in
// the same run: about 1 is linear, a quadratic trim halves it with each
// doubling.
func BenchmarkUpstreamBackup(b *testing.B) {
	spec, _ := jobspec.Builtin("clicks")
	t := throughput{}
	sizes := []int{125_000, 250_000, 500_000, 1_000_000}
	for _, down := range []string{"all-up", "count1-down"} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%d", down, size), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					cfg := DefaultConfig()
					cfg.NoLedger, cfg.Semantics, cfg.HA, cfg.Deployment = true, AtLeastOnce, HAUpstreamBackup, DeployStandalone
					rt, err := New(spec, cfg)
					if err != nil {
						b.Fatal(err)
					}
					if down != "all-up" {
						if err := rt.Kill("count[1]"); err != nil {
							b.Fatal(err)
						}
					}
					rt.Admit(int64(size))
					if err := rt.Run(context.Background()); err != nil {
						b.Fatal(err)
					}
					rt.Close()
				}
				rate := float64(size) * float64(b.N) / b.Elapsed().Seconds()
				b.ReportMetric(rate, "records/s")
				t[b.Name()] = rate
			})
		}
	}
	var pairs [][3]string
	for _, down := range []string{"all-up", "count1-down"} {
		p := "BenchmarkUpstreamBackup/" + down + "/"
		for _, size := range sizes[1:] {
			pairs = append(pairs, [3]string{fmt.Sprintf("%s%d", p, size), fmt.Sprintf("%s%d", p, sizes[0]),
				fmt.Sprintf("of the records/s at %d (linear is 1; a trim that walks what it keeps, 1/%d)", sizes[0], size/sizes[0])})
		}
	}
	for _, size := range sizes {
		pairs = append(pairs, [3]string{fmt.Sprintf("BenchmarkUpstreamBackup/count1-down/%d", size), fmt.Sprintf("BenchmarkUpstreamBackup/all-up/%d", size),
			"of the records/s with every node up"})
	}
	t.report("upstream backup by size (records/s over records/s, same run):", pairs)
}
