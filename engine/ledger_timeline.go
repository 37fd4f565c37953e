package engine

import (
	"strings"
	"sync"
)

// Bounds of a Timeline: it keeps at most TimelineSamples samples (merging
// pairs of them, at twice the interval, when full) and TimelineMarks marks
// (counting those beyond); timelineEvents is the bus buffer it reads the
// marks from between two samples.
const (
	TimelineSamples = 240
	TimelineMarks   = 256
	timelineFirstMS = 250 // the first interval between samples
	timelineEvents  = 1 << 14
)

// MarkKind says what a timeline mark stands for.
type MarkKind string

// Kinds of mark: the moments that explain a change in the ledger.
const (
	MarkKilled     MarkKind = "killed"     // a node (or the job manager) died
	MarkRestarted  MarkKind = "restarted"  // a replacement took over
	MarkCheckpoint MarkKind = "checkpoint" // a checkpoint completed
)

// TimelineSample is the ledger at one moment of virtual time: the last
// committed batch's counts up to TimeMS.
type TimelineSample struct {
	TimeMS int64
	LedgerTotals
}

// TimelineMark is a kill, a restart or a completed checkpoint, when it
// happened and to which node.
type TimelineMark struct {
	TimeMS int64
	Kind   MarkKind
	Node   string
}

// Timeline is the ledger over virtual time and the moments that explain
// it, for charts: in the lab and in `streamlab run --charts`, the same
// numbers. Its memory is bounded: samples are taken at most one an
// interval (the last in an interval wins; counts are running totals), and
// when TimelineSamples are held the interval doubles and neighbours merge.
type Timeline struct {
	// StepMS is the interval between samples now.
	StepMS  int64
	Samples []TimelineSample
	Marks   []TimelineMark
	// MoreMarks counts marks beyond TimelineMarks, not kept (and events
	// the bus dropped before the timeline read them).
	MoreMarks int64
}

// timeline records a Timeline for a runtime. It reads its marks from a
// bus subscription (drain), whichever goroutine publishes; it has a lock
// of its own.
type timeline struct {
	mu    sync.Mutex
	t     Timeline
	drain func(mark func(ms int64, kind, node, text string)) int64
}

// markKind says which mark, if any, an event of kind (with text) stands
// for: a node killed, one restarted or a standby job manager elected, a
// checkpoint completed. Aborts and commits on restore are published under
// the checkpoint kind too; only the coordinator's completion says
// "complete:".
func markKind(kind, text string) (MarkKind, bool) {
	switch kind {
	case "node-killed":
		return MarkKilled, true
	case "node-restarted", "leader-elected":
		return MarkRestarted, true
	case "checkpoint":
		if strings.Contains(text, " complete:") {
			return MarkCheckpoint, true
		}
	}
	return "", false
}

// mark records an event when it is a mark; the lock is held.
func (tl *timeline) mark(ms int64, kind, node, text string) {
	k, ok := markKind(kind, text)
	if !ok {
		return
	}
	if len(tl.t.Marks) >= TimelineMarks {
		tl.t.MoreMarks++
		return
	}
	tl.t.Marks = append(tl.t.Marks, TimelineMark{TimeMS: ms, Kind: k, Node: node})
}

// readMarks takes the events published since the last call; the lock is
// held.
func (tl *timeline) readMarks() {
	if tl.drain != nil {
		tl.t.MoreMarks += tl.drain(tl.mark)
	}
}

// sample records the ledger's totals at virtual time ms.
func (tl *timeline) sample(ms int64, t LedgerTotals) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.readMarks()
	s := &tl.t
	if s.StepMS == 0 {
		s.StepMS = timelineFirstMS
	}
	if n := len(s.Samples); n > 0 {
		last := &s.Samples[n-1]
		ms = max(ms, last.TimeMS) // a rewind moves no sample back in time
		if last.TimeMS/s.StepMS == ms/s.StepMS {
			*last = TimelineSample{ms, t}
			return
		}
	}
	for len(s.Samples) >= TimelineSamples {
		s.StepMS *= 2
		kept := s.Samples[:0]
		for _, x := range s.Samples {
			if k := len(kept); k > 0 && kept[k-1].TimeMS/s.StepMS == x.TimeMS/s.StepMS {
				kept[k-1] = x
				continue
			}
			kept = append(kept, x)
		}
		s.Samples = kept
		if n := len(s.Samples); n > 0 && s.Samples[n-1].TimeMS/s.StepMS == ms/s.StepMS {
			s.Samples[n-1] = TimelineSample{ms, t}
			return
		}
	}
	s.Samples = append(s.Samples, TimelineSample{ms, t})
}

// copy returns the timeline as it stands.
func (tl *timeline) copy() Timeline {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.readMarks()
	t := tl.t
	t.Samples = append([]TimelineSample(nil), t.Samples...)
	t.Marks = append([]TimelineMark(nil), t.Marks...)
	return t
}

// Timeline returns the ledger over virtual time, with the kills, restarts
// and completed checkpoints; empty when the ledger is off.
func (r *Runtime) Timeline() Timeline { return r.tl.copy() }
