package engine

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// growingWindows is the clicks job counting per device in 1 s windows
// sliding by 10 ms with no watermark: no window ever closes, and each
// record opens a hundred windows of its device, so the state grows with
// every record.
func growingWindows(t testing.TB) *Runtime { return growingWindowsWith(t, DefaultConfig()) }

// growingWindowsWith is growingWindows under cfg.
func growingWindowsWith(t testing.TB, cfg Config) *Runtime {
	spec, _ := jobspec.Builtin("clicks")
	spec.Operators = append([]jobspec.Operator(nil), spec.Operators...)
	for i := range spec.Operators {
		if spec.Operators[i].Kind == jobspec.KindWindowCount {
			spec.Operators[i].Window, spec.Operators[i].Slide = time.Second, 10*time.Millisecond
			spec.Operators[i].Key = jobspec.KeyDevice
		}
	}
	spec.Source.Watermark = -1
	spec.Source.Devices = 100_000
	rt, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

// runMore admits n more records and runs them.
func runMore(t testing.TB, rt *Runtime, n int64) {
	rt.Admit(n)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestHoldsFollowsTheHeap checks Holds against an oracle it does not
// compute: the heap the run's growth takes. As the windows pile up, what
// Holds says the run took is about what the heap grew by.
func TestHoldsFollowsTheHeap(t *testing.T) {
	rt := growingWindows(t)
	runMore(t, rt, 1000)
	heap0, holds0, timers0 := liveHeap(), rt.Snapshot().Holds, rt.Timers()
	runMore(t, rt, 4000)
	heap1, holds1, timers1 := liveHeap(), rt.Snapshot().Holds, rt.Timers()
	grew, said := heap1-heap0, holds1-holds0
	t.Logf("windows %d → %d; heap grew %d bytes, Holds by %d (%.2f)", timers0, timers1, grew, said, float64(said)/float64(grew))
	if timers1-timers0 < 100_000 {
		t.Fatalf("the windows grew by %d only; the test needs a growing state", timers1-timers0)
	}
	if float64(said) < 0.6*float64(grew) || float64(said) > 1.5*float64(grew) {
		t.Errorf("the heap grew by %d bytes, Holds by %d: not about the same", grew, said)
	}
	runtime.KeepAlive(rt)
}

// BenchmarkSnapshotHolds measures a frame's snapshot, Holds included, of
// a run holding 100 times the windows of the baseline's, in the same run:
// the ratio stays near 1 because Holds reads its containers' sizes and
// never walks them.
func BenchmarkSnapshotHolds(b *testing.B) {
	small, large := growingWindows(b), growingWindows(b)
	runMore(b, small, 50)
	runMore(b, large, 5000)
	if s, l := small.Timers(), large.Timers(); l < 50*s {
		b.Fatalf("the large run holds %d windows, the small %d: not far enough apart", l, s)
	}
	per := func(rt *Runtime) float64 {
		start := time.Now()
		for range b.N {
			_ = rt.Snapshot()
		}
		return float64(time.Since(start).Nanoseconds()) / float64(b.N)
	}
	b.ResetTimer()
	baseline, big := per(small), per(large)
	b.ReportMetric(baseline, "ns/small-snapshot")
	b.ReportMetric(big, "ns/large-snapshot")
	b.ReportMetric(big/baseline, "large/small")
}
