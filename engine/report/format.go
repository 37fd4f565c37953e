package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ExpectationsHold reports whether every `expect` line held.
func (r *Report) ExpectationsHold() bool {
	for _, e := range r.Expectations {
		if !e.OK {
			return false
		}
	}
	return true
}

// WriteText writes the report for a person to read.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	if r.Interrupted {
		line("interrupted the script was stopped before its end; this is the report so far")
	}
	line("job         %s (%s, seed %d, %s executor)", r.Job.Name, r.Job.State, r.Job.Seed, r.Job.Executor)
	if r.Job.Error != "" {
		line("error       %s", r.Job.Error)
	}
	c := r.Config
	line("config      semantics=%s ha=%s mode=%s sink=%s filter=%s restart=%s", c.Semantics, c.HA, c.Mode, c.Sink, c.Filter, c.Restart)
	repeated := ""
	if r.Source.RepeatedIDs > 0 {
		repeated = fmt.Sprintf("; %d repeat an earlier record's id", r.Source.RepeatedIDs)
	}
	line("source      %d records, virtual time %d ms, %d generated late%s", r.Source.Records, r.Source.TimeMS, r.Source.Late, repeated)
	if r.Window.Watermark != 0 || r.Window.Open != 0 {
		line("windows     %d open, %d dropped late, watermark %s", r.Window.Open, r.Window.DroppedLate,
			time.UnixMilli(r.Window.Watermark).UTC().Format("2006-01-02 15:04:05.000"))
	}
	if r.Config.Note != "" {
		line("note        %s", r.Config.Note)
	}
	s := r.Sink
	pending := ""
	if s.Pending > 0 {
		pending = fmt.Sprintf(", %d pending", s.Pending)
	}
	if s.Uncommitted > 0 {
		pending += fmt.Sprintf(", %d rows uncommitted", s.Uncommitted)
	}
	late := ""
	if s.LateCounted > 0 {
		late = fmt.Sprintf(" (%d of them late records counted)", s.LateCounted)
	}
	line("sink        %d rows in %d batches; delivered %d, unique %d, duplicates %d%s, lost %d of %d expected%s; correct=%t",
		s.Rows, s.Batches, s.Delivered, s.Unique, s.Duplicates, late, s.Lost, s.Expected, pending, s.Correct)
	rc := r.Recovery
	line("recovery    %d failures, %d restarts, %d ms (%d down); %d replayed, %d lost in flight; overhead %d bytes shipped, %d held",
		rc.Failures, rc.Restarts, rc.TimeMS, rc.DowntimeMS, rc.Replayed, rc.LostInFlight, rc.OverheadBytes, rc.BackupBytes)
	if kinds := failureKinds(rc); kinds != "" {
		line("failures    %s", kinds)
	}
	if rc.JobManagerFailovers > 0 {
		line("jobmanager  %d failovers, %d ms without a leader (%s)", rc.JobManagerFailovers, rc.LeaderElectionMS, c.JobManagerHA)
	}
	if len(rc.Unfired) > 0 {
		line("unfired     %s", strings.Join(rc.Unfired, ", "))
	}
	line("checkpoints %d completed, %d aborted, %d restores", r.Checkpoints.Completed, r.Checkpoints.Aborted, r.Checkpoints.Restores)
	if r.Filter.Kind != "" && r.Filter.Kind != "none" {
		f := r.Filter
		// Measured false drops beside the formula's prediction of the same
		// count; the rate at today's fill is a different quantity.
		line("filter      %s m=%d k=%d inserted=%d fill=%.4f bytes=%d; false drops %d measured, %.1f expected (%.5f of first sightings); fp now %.5f",
			f.Kind, f.M, f.K, f.Inserted, f.FillRatio, f.Bytes, f.FalseDrops, f.ExpectedFalseDrops, f.MeasuredFP, f.EstimatedFP)
	}
	for _, e := range r.Expectations {
		mark := "ok  "
		if !e.OK {
			mark = "FAIL"
		}
		line("expect %s line %d: %s (actual %s)", mark, e.Line, e.Expr, e.Actual)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// failureKinds names the kinds of the run's task failures, those there
// were: a task that threw keeps its task manager, a lost one takes it away.
func failureKinds(rc RecoveryReport) string {
	var parts []string
	for _, k := range []struct {
		n    int64
		what string
	}{{rc.TaskFailures, "task failed (its task manager stayed)"}, {rc.TaskManagersLost, "task manager lost"}, {rc.SlotTimeouts, "slot request timed out (NoResourceAvailableException)"}} {
		if k.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", k.n, k.what))
		}
	}
	return strings.Join(parts, ", ")
}
