// Package refmodel is an independent reference model of what a streamlab job
// computes when nothing fails. Tests use it as their oracle: it reads the
// source as --dump-source writes it, takes the job spec and the admissions a
// run made, and computes the rows the sink must end with.
//
// It shares no code with the engine on purpose: it is written from the
// documented semantics (the README, the Structured Streaming programming guide's
// windows, watermarks and output modes) rather than from the engine's
// operators, so a bug in what an operator means shows up as a difference
// instead of being repeated on both sides. It only reads jobspec, which
// describes a job as data. The model is deliberately simple and slow: it
// recomputes from whole slices, with no incremental state.
package refmodel

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// Event is one source event, a line of a --dump-source file.
type Event struct {
	ID     uint64 `json:"id"`
	Time   int64  `json:"time"` // event time, Unix ms
	Action string `json:"action"`
	Key    string `json:"key"`
	Offset int64  `json:"offset"`
	Device int32  `json:"device"`
}

// ReadDump reads a --dump-source file (JSON Lines, one event a line).
func ReadDump(r io.Reader) ([]Event, error) {
	var out []Event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("dump line %d: %v", line, err)
		}
		if e.Key == "" {
			e.Key = e.Action
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Row is one row of the sink's `results` table: the count of a key's records
// in the event-time window [WindowStart, WindowEnd).
type Row struct {
	WindowStart, WindowEnd int64
	Key                    string
	Value                  int64
}

// Admissions mirrors what a lab script lets into the source: `run N`
// (Records) and `run 10s` (For). Each admission ends a micro-batch with a
// trigger (a run ends with a trigger, so its output commits).
type Admissions struct {
	rate   int64 // records per virtual second
	limit  int64 // records admitted
	clock  int64 // virtual ms at the end of the last admission
	Bounds []int64
}

// NewAdmissions starts an empty schedule for a source of rate records per
// second.
func NewAdmissions(rate int) *Admissions { return &Admissions{rate: int64(rate)} }

// arrival is when the record at off reaches the source, virtual ms: the
// source delivers rate records per second, the first at 0.
func arrival(rate, off int64) int64 { return off * 1000 / rate }

// Records admits n more records (`run N`): virtual time moves to just after
// the last one arrived.
func (a *Admissions) Records(n int64) {
	if n > 0 {
		a.limit += n
		a.clock = arrival(a.rate, a.limit-1) + 1
	}
	a.Bounds = append(a.Bounds, a.limit)
}

// For moves virtual time on by d (`run 10s`), admitting every record that
// arrives before the new time.
func (a *Admissions) For(d time.Duration) {
	a.clock += d.Milliseconds()
	for arrival(a.rate, a.limit) < a.clock {
		a.limit++
	}
	a.Bounds = append(a.Bounds, a.limit)
}

// Limit is how many records were admitted.
func (a *Admissions) Limit() int64 { return a.limit }

// Output is what the sink ends with after a failure-free run.
type Output struct {
	// Windowed says the job aggregates: Rows is the result table, else
	// Events are the rows of the events table, by offset (Device zero: the
	// table has no such column).
	Windowed bool
	Rows     []Row
	Events   []Event
	// DroppedLate counts records whose every window was already final when
	// they arrived.
	DroppedLate int64
	// Late counts, per window and key, the records left out of it because
	// it was final when they arrived (by the failure-free watermark). A
	// run whose watermark was held back while a sender was down may count
	// them: lateness is relative to the watermark, which failures delay.
	Late []Row
	// Watermark is the last watermark (Unix ms); HasWatermark says there was
	// one.
	Watermark    int64
	HasWatermark bool
	// WindowsPerRecord is how many windows each record falls in (size /
	// slide; 1 without windows).
	WindowsPerRecord int64
}

// Run computes the output of spec over the admitted prefix of events in
// output mode mode ("append", "update" or "complete"). bounds are where the
// admissions ended (Admissions.Bounds); events must cover every admitted
// offset.
//
// The semantics, from the Structured Streaming guide and the README:
//   - parse keys an event by its action (and drops one without); map lower-
//     cases the action; filter drops the listed actions.
//   - a window-count (the last operator) counts records per key (the one
//     parse gave, or "device-N" when it counts per device) in windows
//     of its size every slide: the window [s, s+size) for each multiple s of
//     slide with s <= t < s+size.
//   - the source's watermark is the largest event time it has read minus
//     the delay; it is sent before each trigger. Triggers come every trigger
//     interval of processing time (records arrive at rate per second) and at
//     the end of each admission.
//   - a window is final once the watermark reaches its end (end <= wm); a
//     record for a final window is not counted, and one that no open window
//     takes is dropped late. Complete mode keeps all state: nothing is final.
//   - update: every window that ever changed, with its last count; append:
//     the windows final at the last trigger, each once; complete: every
//     window. An events table holds each surviving event once.
func Run(spec jobspec.Spec, mode string, events []Event, bounds []int64) (Output, error) {
	out := Output{WindowsPerRecord: 1}
	limit := int64(0)
	if len(bounds) > 0 {
		limit = bounds[len(bounds)-1]
	}
	if int64(len(events)) < limit {
		return out, fmt.Errorf("the dump has %d events, the run admitted %d", len(events), limit)
	}
	for i, e := range events[:limit] {
		if e.Offset != int64(i) {
			return out, fmt.Errorf("event %d has offset %d", i, e.Offset)
		}
	}
	var win *jobspec.Operator
	for i, op := range spec.Operators {
		if op.Kind == jobspec.KindWindowCount {
			if i != len(spec.Operators)-1 {
				return out, fmt.Errorf("the model needs the window-count last")
			}
			win = &spec.Operators[i]
		}
	}
	// The watermark in force after each trigger point p (a trigger that
	// fires once records [0, p) are read).
	delay := spec.Source.Watermark.Milliseconds()
	hasWM := spec.Source.Watermark >= 0
	trigger := max(spec.Source.Trigger.Milliseconds(), 1)
	rate := int64(spec.Source.Rate)
	maxBefore := make([]int64, limit+1) // max event time of [0, p)
	for p := int64(1); p <= limit; p++ {
		maxBefore[p] = events[p-1].Time
		if p > 1 {
			maxBefore[p] = max(maxBefore[p], maxBefore[p-1])
		}
	}
	// wmAt is the watermark a record at offset off is judged by: the one
	// sent before the last trigger that fired before it.
	wmAt := func(off int64) (int64, bool) {
		p := int64(0)
		for _, b := range bounds {
			if b <= off {
				p = max(p, b)
			}
		}
		if last := arrival(rate, off) / trigger * trigger; last >= trigger {
			// The trigger at last fires before the first record arriving
			// at or after it: offset ceil(last·rate/1000).
			p = max(p, (last*rate+999)/1000)
		}
		if !hasWM || p == 0 {
			return 0, false
		}
		return maxBefore[p] - delay, true
	}
	if hasWM && limit > 0 {
		out.Watermark, out.HasWatermark = maxBefore[limit]-delay, true
	}

	var kept []Event
	for _, e := range events[:limit] {
		ok := true
		for _, op := range spec.Operators {
			switch op.Kind {
			case jobspec.KindParse:
				if e.Action == "" {
					ok = false
				}
				e.Key = e.Action
			case jobspec.KindMap:
				e.Action = strings.ToLower(e.Action)
			case jobspec.KindFilter:
				if slices.Contains(op.Drop, e.Action) {
					ok = false
				}
			case jobspec.KindWindowCount:
			default:
				return out, fmt.Errorf("the model does not know operator kind %q", op.Kind)
			}
			if !ok {
				break
			}
		}
		if ok {
			kept = append(kept, e)
		}
	}
	if win == nil {
		for i := range kept {
			kept[i].Device = 0 // the events table holds no device
		}
		out.Events = kept
		return out, nil
	}
	out.Windowed = true
	size, slide := win.Window.Milliseconds(), win.Slide.Milliseconds()
	if slide <= 0 {
		slide = size
	}
	out.WindowsPerRecord = (size + slide - 1) / slide
	type wk struct {
		start int64
		key   string
	}
	counts, late := map[wk]int64{}, map[wk]int64{}
	for _, e := range kept {
		key := e.Key
		if win.Key == jobspec.KeyDevice {
			key = fmt.Sprintf("device-%d", e.Device)
		}
		wm, seen := wmAt(e.Offset)
		counted := false
		// Window starts are the multiples of slide in (t-size, t].
		first := e.Time - size + 1
		s := first - mod(first, slide)
		if s < first {
			s += slide
		}
		for ; s <= e.Time; s += slide {
			if mode != "complete" && seen && s+size <= wm {
				late[wk{s, key}]++
				continue // final: its state is gone
			}
			counts[wk{s, key}]++
			counted = true
		}
		if !counted {
			out.DroppedLate++
		}
	}
	for k, v := range counts {
		if mode == "append" && !(out.HasWatermark && k.start+size <= out.Watermark) {
			continue
		}
		out.Rows = append(out.Rows, Row{k.start, k.start + size, k.key, v})
	}
	for k, v := range late {
		out.Late = append(out.Late, Row{k.start, k.start + size, k.key, v})
	}
	slices.SortFunc(out.Rows, compareRows)
	slices.SortFunc(out.Late, compareRows)
	return out, nil
}

// compareRows orders rows by window start, then key.
func compareRows(a, b Row) int {
	if a.WindowStart != b.WindowStart {
		if a.WindowStart < b.WindowStart {
			return -1
		}
		return 1
	}
	return strings.Compare(a.Key, b.Key)
}

// mod is the non-negative remainder of a by b > 0.
func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
