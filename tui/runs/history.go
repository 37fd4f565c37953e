// Package runs keeps the numbers of the runs a learner finished in this
// lab session and charts them: replayed records against the checkpoint
// interval (lesson 6's trade-off) and recovery time against overhead for
// the HA schemes (lesson 7's comparison). Every point is a run the learner
// made; the charts start empty and fill in as runs finish.
package runs

import (
	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/report"
)

// MaxRuns bounds the history: the oldest run goes first.
const MaxRuns = 24

// Run is one session's numbers, from the report of its latest finished
// run.
type Run struct {
	// Gen is the session; a session's later runs replace its earlier.
	Gen       int64
	Job       string
	HA        engine.HAScheme
	Semantics engine.Semantics
	// Interval is the checkpoint interval in records; Checkpoints the
	// checkpoints completed.
	Interval, Checkpoints int64
	Failures              int64
	Replayed              int64
	RecoveryMS            int64
	OverheadBytes         int64
	Lost, Duplicates      int64
}

// FromReport takes a run's numbers from its report.
func FromReport(gen int64, rep *report.Report) Run {
	return Run{
		Gen: gen, Job: rep.Job.Name, HA: engine.HAScheme(rep.Config.HA), Semantics: engine.Semantics(rep.Config.Semantics),
		Interval: rep.Config.CheckpointInterval, Checkpoints: rep.Checkpoints.Completed,
		Failures: rep.Recovery.Failures, Replayed: rep.Recovery.Replayed,
		RecoveryMS: rep.Recovery.TimeMS, OverheadBytes: rep.Recovery.OverheadBytes,
		Lost: rep.Sink.Lost, Duplicates: rep.Sink.Duplicates,
	}
}

// History is the finished runs, oldest first.
type History struct {
	runs []Run
}

// Add records a finished run of session gen, replacing the session's
// earlier one: `run 3000` then `run 30s` is one run that went on.
func (h *History) Add(gen int64, rep *report.Report) {
	if rep == nil {
		return
	}
	r := FromReport(gen, rep)
	if n := len(h.runs); n > 0 && h.runs[n-1].Gen == gen {
		h.runs[n-1] = r
		return
	}
	h.runs = append(h.runs, r)
	if len(h.runs) > MaxRuns {
		h.runs = append([]Run(nil), h.runs[len(h.runs)-MaxRuns:]...)
	}
}

// Runs returns the history, oldest first.
func (h *History) Runs() []Run { return append([]Run(nil), h.runs...) }

// Checkpointed are the runs that replayed from a checkpoint after a
// failure: passive standby (which exactly-once uses) with a failure.
func Checkpointed(rs []Run) []Run {
	var out []Run
	for _, r := range rs {
		if r.HA == engine.HAPassiveStandby && r.Failures > 0 {
			out = append(out, r)
		}
	}
	return out
}

// Recovered are the runs under one of the three HA schemes with a failure
// to recover from.
func Recovered(rs []Run) []Run {
	var out []Run
	for _, r := range rs {
		switch r.HA {
		case engine.HAUpstreamBackup, engine.HAPassiveStandby, engine.HAActiveStandby:
			if r.Failures > 0 {
				out = append(out, r)
			}
		}
	}
	return out
}
