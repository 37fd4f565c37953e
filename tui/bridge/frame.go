package bridge

import (
	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/report"
)

// Frame is one picture of the lab, published at most FrameRate times a
// second. It shares nothing mutable with the bridge: the UI may keep it.
type Frame struct {
	// Seq counts frames; Gen counts sessions (a new job or a restart with
	// new settings), so panes know when to forget their history.
	Seq, Gen int64
	// Snap is the running job, or before the first run a preview of the
	// job as configured (all counts zero).
	Snap    engine.Snapshot
	Started bool
	Paused  bool
	Speed   float64
	// ClockMS is the bridge's smooth virtual clock (ms since the start):
	// rates are computed over it.
	ClockMS int64
	// Playing says a typed run is being played; it ends at PlayEndMS of
	// virtual time.
	Playing   bool
	PlayEndMS int64
	// Forwarding says the typed run is being finished as fast as the
	// engine goes, a slice of steps a frame; its source has read
	// ForwardDone of the ForwardTotal records the run admitted.
	Forwarding                bool
	ForwardDone, ForwardTotal int64
	// Settings are the effective settings: job, mode, sink, semantics, ha,
	// filter, seed, executor, and any other key set so far.
	Settings map[string]string
	// Events are the engine's bus events since the previous frame; Missed
	// counts those dropped because the UI fell behind.
	Events []bus.Event
	Missed int64
	// Results answer the requests handled since the previous frame.
	Results []Result
	// Script is the session as recorded so far, one lab-script line each.
	Script []string
	// Fatal is set when the engine failed in a way the bridge could not
	// carry on from; the session is paused.
	Fatal string
	// Probe is the watched record id's bit positions in the filter, read
	// when the frame was made; nil when no id is watched.
	Probe *FilterProbe
	// Report is the session's report while the report overlay watches it
	// (refreshed every few frames); ReportWhy says why there is none.
	Report    *report.Report
	ReportWhy string
	// Choices answers a CheckChoices request; nil in other frames.
	Choices *Choices
	// Note says why the guarantee in effect is weaker than the one asked
	// for (engine.ConfigReport.Note); empty when it is not.
	Note string
	// Lesson is the step tracker's word in a lesson's session; nil
	// elsewhere.
	Lesson *LessonState
	// Timeline is the ledger over virtual time with the kills, restarts
	// and completed checkpoints, as the engine recorded it (empty before
	// the job starts).
	Timeline engine.Timeline
	// Finished is the session's report when a typed run has just
	// finished playing: the numbers a chart of the learner's runs keeps.
	Finished *report.Report
}

// LessonState is how far the learner is in the lesson the session follows.
type LessonState struct {
	ID string
	// Done is how many steps the tracker has seen done; Finished says
	// every step is.
	Done     int
	Finished bool
	// Fresh says the current step starts from a new session: its first
	// job or set line opens one (no restart question).
	Fresh bool
	// Held says the last step done stays current until the learner goes
	// on (GoOn): its follow-ups, a new session included (a job line opens
	// one without a restart question), are still its.
	Held bool
}

// FilterProbe is a record id's k bit positions in the job's Bloom filter and
// whether each is set: why a membership test answers "maybe". Bits is nil
// when the filter has none to show: an exact set, no dedup stage, or a job
// that has not started.
type FilterProbe struct {
	ID   uint64
	Bits []filter.Probe
}

// merge folds an unread older frame's one-off contents into f, so that a
// UI that falls behind loses no events or results.
func (f *Frame) merge(older Frame) {
	f.Events = append(older.Events, f.Events...)
	f.Results = append(older.Results, f.Results...)
	f.Missed += older.Missed
	if f.Choices == nil {
		f.Choices = older.Choices
	}
	if f.Finished == nil {
		f.Finished = older.Finished
	}
	if f.Report == nil && f.ReportWhy == "" {
		f.Report, f.ReportWhy = older.Report, older.ReportWhy
	}
	if len(f.Events) > maxPendingEvents {
		f.Missed += int64(len(f.Events) - maxPendingEvents)
		f.Events = f.Events[len(f.Events)-maxPendingEvents:]
	}
}

// maxPendingEvents bounds the events one frame carries.
const maxPendingEvents = 1000
