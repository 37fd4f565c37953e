package cli

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// runHeapFloor is the least soft memory limit a headless run sets: below
// half of it the collector's own pace (GOGC=100, a heap twice the live
// one) decides, and the limit costs nothing. With the binary's own pages
// (17 MB resident) it keeps a run under 90 MB while the live heap is
// under 38 MB.
const runHeapFloor = 64 << 20

// runHeapLimit is the soft memory limit for a live heap of live bytes:
// the floor, or five thirds of the live heap once that is more, so that
// the collector always has two thirds of the live heap to fill between
// two collections and never runs without pause (a fixed limit under a
// growing live heap would).
func runHeapLimit(live int64) int64 { return max(runHeapFloor, live*5/3) }

// limitRunHeap keeps `streamlab run`'s memory near what the run holds
// live, a soft limit (debug.SetMemoryLimit) moved with the live heap every
// half second, until stop. A long run's live heap is a few tens of MB (a
// thousand windows a record with 1 ms slides: 30 to 45 MB), and the
// collector's own pace would let its heap grow to twice that. GOMEMLIMIT,
// when the user sets it, wins. serve does not do this: one process holds
// every student's lab, so a process-wide limit would bound no lab.
func limitRunHeap() (stop func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	set := func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(runHeapLimit(int64(min(sample[0].Value.Uint64(), math.MaxInt64/2))))
		}
	}
	set()
	done, stopped := make(chan struct{}), make(chan struct{})
	tick := time.NewTicker(500 * time.Millisecond)
	go func() {
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				set()
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		tick.Stop()
		debug.SetMemoryLimit(math.MaxInt64) // no limit: Go's default
	}
}
