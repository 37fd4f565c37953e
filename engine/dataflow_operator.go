package engine

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// emitter receives what an operator produces.
type emitter interface {
	emit(r Record)
}

// operator is the logic of one node. Operators are single-threaded: a node
// calls them from one goroutine at a time.
type operator interface {
	record(r Record, out emitter)
	// watermark is called when the node's watermark (the minimum over its
	// inputs) advances.
	watermark(wm int64, out emitter)
	// trigger is called when every input has delivered the same trigger.
	trigger(out emitter)
}

// passive is the default for operators without time or triggers.
type passive struct{}

func (passive) watermark(int64, emitter) {}
func (passive) trigger(emitter)          {}

// parseOp validates events and keys them by action, as the first step of the
// Structured Streaming example does with a raw JSON payload.
type parseOp struct {
	passive
	invalid int64
}

func (p *parseOp) record(r Record, out emitter) {
	if r.Action == "" {
		p.invalid++
		return
	}
	r.Key = r.Action
	out.emit(r)
}

// mapOp normalises the action to lower case: stateless, one in, one out.
type mapOp struct{ passive }

func (mapOp) record(r Record, out emitter) {
	if hasUpper(r.Action) {
		r.Action = strings.ToLower(r.Action)
	}
	out.emit(r)
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// filterOp drops records whose action is listed.
type filterOp struct {
	passive
	drop []string
}

func (f filterOp) record(r Record, out emitter) {
	if !slices.Contains(f.drop, r.Action) {
		out.emit(r)
	}
}

// windowKey names one window of one key.
type windowKey struct {
	start int64
	key   string
}

func compareWindowKeys(a, b windowKey) int {
	if c := cmp.Compare(a.start, b.start); c != 0 {
		return c
	}
	return strings.Compare(a.key, b.key)
}

// windowCount counts records per key in event-time windows, emitting at
// each trigger according to the output mode, as Spark does per micro-batch:
//
//   - update: the rows changed since the last trigger; a window's state is
//     dropped once the watermark passes its end, and a record arriving for a
//     dropped window is counted as dropped late;
//   - append: each window once, when the watermark passes its end (final);
//   - complete: every row every trigger; all state is kept, so the watermark
//     drops nothing (Spark cannot drop state that a complete table shows).
type windowCount struct {
	keyOf       func(Record) string // nil: the record's key
	size, slide int64
	mode        Mode
	windows     windowStore
	wm          int64
	hasWM       bool
	droppedLate int64
	// onLate, when set, is told of each record left out of windows
	// because they were final: its key and the first and last start of
	// those windows (the ledger's failure-free run).
	onLate func(key string, lo, hi int64)
	// firedWM is the watermark at the last trigger: a window that ended
	// by then has had its last row (see finalBelow).
	firedWM    int64
	firedWithW bool
	// rows is the trigger's scratch: the windows it emits.
	rows []windowRow
}

func newWindowCount(op jobspec.Operator, mode Mode) *windowCount {
	size := op.Window.Milliseconds()
	slide := op.Slide.Milliseconds()
	if slide <= 0 {
		slide = size
	}
	return &windowCount{keyOf: keySelector(op), size: size, slide: slide, mode: mode,
		windows: newWindowStore(windowsPerRecord(size, slide))}
}

// keySelector is what op counts per when it is not the record's own key
// (the action parse gives it): nil, or the device.
func keySelector(op jobspec.Operator) func(Record) string {
	if op.Kind == jobspec.KindWindowCount && op.Key == jobspec.KeyDevice {
		return func(r Record) string { return "device-" + strconv.Itoa(int(r.Device)) }
	}
	return nil
}

// windowStarts calls f with the start of every window containing t, oldest
// first. The loop counts windows rather than comparing starts: a start
// moved on by a slide past the largest int64 would wrap round and never
// pass the last, so an unchecked time would loop for ever inside one
// scheduler step, out of reach of any budget or signal. Event times are
// kept to jobspec's MinEventTime..MaxEventTime, where nothing wraps; the
// count keeps the loop finite whatever it is given.
func (w *windowCount) windowStarts(t int64, f func(start int64)) {
	first, n := w.windowRange(t)
	for i := int64(0); i < n; i++ {
		f((first + i) * w.slide)
	}
}

// windowRange is the windows containing t: the first's start in slides
// (k, starting at k·slide), and how many follow it one slide apart.
func (w *windowCount) windowRange(t int64) (first, n int64) {
	n = windowsPerRecord(w.size, w.slide)
	return floorDiv(t, w.slide) - n + 1, n
}

// windowsPerRecord is how many windows of size, one every slide, contain
// an instant: size/slide, as a job's window is a multiple of its slide.
func windowsPerRecord(size, slide int64) int64 {
	return (size-slide)/slide + 1
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// final reports whether the window starting at start can no longer change.
func (w *windowCount) final(start int64) bool {
	return w.mode != ModeComplete && w.hasWM && start+w.size <= w.wm
}

func (w *windowCount) record(r Record, _ emitter) {
	key := r.Key
	if w.keyOf != nil {
		key = w.keyOf(r)
	}
	// The windows final already are the oldest ones (the watermark
	// passed their ends): the record misses those and counts in the rest.
	first, n := w.windowRange(r.Time)
	missed := int64(0)
	for missed < n && w.final((first+missed)*w.slide) {
		missed++
	}
	if missed > 0 && w.onLate != nil {
		w.onLate(key, first*w.slide, (first+missed-1)*w.slide)
	}
	if missed == n {
		w.droppedLate++
		return
	}
	w.windows.add(key, first+missed, n-missed)
}

// openWindows is how many windows of a key have a count: one timer each.
func (w *windowCount) openWindows() int { return w.windows.open }

// lastWindowCount is the last window count among ops, or nil.
func lastWindowCount(ops []operator) *windowCount {
	for i := len(ops) - 1; i >= 0; i-- {
		if w, ok := ops[i].(*windowCount); ok {
			return w
		}
	}
	return nil
}

// finalBelow is the start before which every window is final and has had
// its last row: ended by the watermark of the last trigger. MinInt64 while
// nothing is final (complete mode keeps every window).
func (w *windowCount) finalBelow() int64 {
	if !w.firedWithW || w.mode == ModeComplete {
		return math.MinInt64
	}
	return w.firedWM - w.size + 1
}

func (w *windowCount) watermark(wm int64, _ emitter) {
	if !w.hasWM || wm > w.wm {
		w.wm, w.hasWM = wm, true
	}
}

func (w *windowCount) trigger(out emitter) {
	rows := w.rows[:0]
	switch w.mode {
	case ModeUpdate:
		rows = w.windows.changedWindows(rows, w.slide)
	case ModeAppend:
		rows = w.windows.windows(rows, w.slide, w.final)
	case ModeComplete:
		rows = w.windows.windows(rows, w.slide, nil)
	}
	slices.SortFunc(rows, func(a, b windowRow) int { return compareWindowKeys(a.k, b.k) })
	for _, row := range rows {
		k := row.k
		out.emit(Record{Offset: -1, Key: k.key, Action: k.key, Time: k.start,
			WindowStart: k.start, WindowEnd: k.start + w.size, Value: row.count})
	}
	w.rows = rows[:0]
	w.windows.clearChanged()
	w.firedWM, w.firedWithW = w.wm, w.hasWM
	if w.mode != ModeComplete && w.hasWM {
		w.windows.drop(w.slide, w.final)
	}
}

// copyMap is m in a map of its own size.
func copyMap[K comparable, V any](m map[K]V) map[K]V {
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// newOperator builds the logic for one node of op.
func newOperator(op jobspec.Operator, mode Mode) operator {
	switch op.Kind {
	case jobspec.KindParse:
		return &parseOp{}
	case jobspec.KindMap:
		return mapOp{}
	case jobspec.KindFilter:
		return filterOp{drop: op.Drop}
	case jobspec.KindWindowCount:
		return newWindowCount(op, mode)
	}
	return nil
}
