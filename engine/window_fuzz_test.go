package engine

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// rowCollector keeps what an operator emits.
type rowCollector struct{ rows []Record }

func (c *rowCollector) emit(r Record) { c.rows = append(c.rows, r) }

// fuzzWindow maps two fuzzed numbers onto a window and slide a job may
// have: a slide of 1 ms to a day, a window a multiple of it, at most
// MaxWindowsPerRecord slides and a day long.
func fuzzWindow(window, slide int64) (size, step int64) {
	day := jobspec.MaxWindow.Milliseconds()
	step = 1 + int64(uint64(slide)%uint64(day))
	k := 1 + int64(uint64(window)%jobspec.MaxWindowsPerRecord)
	k = min(k, day/step)
	return step * k, step
}

// Event times, windows and slides: a replayed line is either refused with
// a message about its time, or accepted, and then every window it falls
// in is found, in order, each containing it, ending after it starts, and
// a watermark past it closes them all; the count of windows is the
// validated one, so no arithmetic wrapped. The seeds are the times that
// once looped for ever in window assignment.
func FuzzEventTimeWindows(f *testing.F) {
	f.Add(int64(math.MaxInt64), int64(0), int64(10_000))
	f.Add(int64(-9223372036854775000), int64(1), int64(5_000))
	f.Add(int64(math.MinInt64), int64(999), int64(1))
	f.Add(jobspec.MaxEventTime, int64(999), int64(86_400))
	f.Add(jobspec.MaxEventTime+1, int64(0), int64(86_400_000-1))
	f.Add(jobspec.MinEventTime, int64(3), int64(0))
	f.Add(jobspec.MinEventTime-1, int64(3), int64(0))
	f.Add(int64(1767268800000), int64(1), int64(4_999))
	f.Add(int64(-1), int64(0), int64(9_999))
	f.Fuzz(func(t *testing.T, tm, window, slide int64) {
		size, step := fuzzWindow(window, slide)
		op := jobspec.Operator{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 1, Partition: jobspec.PartitionHash,
			Window: time.Duration(size) * time.Millisecond, Slide: time.Duration(step) * time.Millisecond}
		spec := jobspec.Spec{Name: "fuzz", Source: jobspec.DefaultSource(), Operators: []jobspec.Operator{op}}
		if err := spec.Validate(); err != nil {
			t.Fatalf("window %d ms sliding by %d ms: %v", size, step, err)
		}
		r, msg := decodeEvent(fmt.Appendf(nil, `{"id":1,"time":%d,"action":"open"}`, tm))
		inRange := tm >= jobspec.MinEventTime && tm <= jobspec.MaxEventTime
		if !inRange {
			if msg == "" {
				t.Fatalf("time %d accepted, outside %d..%d", tm, jobspec.MinEventTime, jobspec.MaxEventTime)
			}
			return
		}
		if msg != "" {
			t.Fatalf("time %d refused: %s", tm, msg)
		}
		w := newWindowCount(op, ModeUpdate)
		var starts []int64
		w.windowStarts(r.Time, func(s int64) { starts = append(starts, s) })
		if int64(len(starts)) != size/step {
			t.Fatalf("time %d, window %d, slide %d: %d windows, want %d", tm, size, step, len(starts), size/step)
		}
		for i, s := range starts {
			if s%step != 0 || s > r.Time || s+size <= r.Time || s+size <= s {
				t.Fatalf("time %d: window [%d, %d) of size %d sliding by %d", tm, s, s+size, size, step)
			}
			if i > 0 && s != starts[i-1]+step {
				t.Fatalf("time %d: windows start at %d then %d, slide %d", tm, starts[i-1], s, step)
			}
		}
		var out rowCollector
		w.record(r, &out)
		w.trigger(&out)
		if int64(len(out.rows)) != size/step {
			t.Fatalf("time %d: %d rows from %d windows", tm, len(out.rows), size/step)
		}
		// A watermark as far behind as a job's delay can put it, then
		// past every window: nothing wraps, and all close.
		w.watermark(r.Time-int64(math.MaxInt64/int64(time.Millisecond)), &out)
		w.watermark(r.Time+size, &out)
		w.trigger(&out)
		if w.openWindows() != 0 {
			t.Fatalf("time %d: %d windows still open past the watermark %d", tm, w.openWindows(), r.Time+size)
		}
	})
}
