package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
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
	line("job         %s (%s, seed %d, %s executor)", r.Job.Name, r.Job.State, r.Job.Seed, r.Job.Executor)
	if r.Job.Error != "" {
		line("error       %s", r.Job.Error)
	}
	c := r.Config
	line("config      semantics=%s ha=%s mode=%s sink=%s filter=%s restart=%s", c.Semantics, c.HA, c.Mode, c.Sink, c.Filter, c.Restart)
	line("source      %d records, virtual time %d ms, %d generated late", r.Source.Records, r.Source.TimeMS, r.Source.Late)
	if r.Window.Watermark != 0 || r.Window.Open != 0 {
		line("windows     %d open, %d dropped late, watermark %d", r.Window.Open, r.Window.DroppedLate, r.Window.Watermark)
	}
	s := r.Sink
	line("sink        %d rows in %d batches; delivered %d, unique %d, duplicates %d, lost %d of %d expected; correct=%t",
		s.Rows, s.Batches, s.Delivered, s.Unique, s.Duplicates, s.Lost, s.Expected, s.Correct)
	line("recovery    %d failures, %d restarts, %d ms", r.Recovery.Failures, r.Recovery.Restarts, r.Recovery.TimeMS)
	line("checkpoints %d completed", r.Checkpoints.Completed)
	if r.Filter.Kind != "" && r.Filter.Kind != "none" {
		f := r.Filter
		line("filter      %s m=%d k=%d inserted=%d fill=%.4f fp est=%.5f measured=%.5f false_drops=%d bytes=%d",
			f.Kind, f.M, f.K, f.Inserted, f.FillRatio, f.EstimatedFP, f.MeasuredFP, f.FalseDrops, f.Bytes)
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
