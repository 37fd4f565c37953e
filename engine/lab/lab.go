// Package lab runs lab scripts against the engine: the one command language
// that TUI keys, lessons, exercises and `streamlab run` all speak. A Session
// holds one job's configuration and runtime and executes commands one by
// one; RunScript runs a whole script headless. A driver that paces or
// watches a run (the terminal lab, the grader, the lessons' verifier) does
// it through the Session too: Start, Subscribe, Play, and Running to read.
package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/userfile"
)

// ErrBadInput marks errors caused by the script or the files it names
// (exit code 2); errors.Is(err, ErrBadInput) tells them apart. Those with a
// position are a *poserr.Error of this kind.
var ErrBadInput = errors.New("bad input")

// ErrInterrupted marks a script stopped by its context (a signal) before
// its end; RunScript then returns the report so far as well.
var ErrInterrupted = errors.New("interrupted")

// Options are the run-wide settings that the command line provides.
type Options struct {
	// Seed, when non-nil, overrides the script's `set seed`.
	Seed *int64
	// DBPath keeps the table sink's SQLite database at this path.
	DBPath string
	// DumpSource writes the admitted source log as JSON Lines to this path
	// when the script ends.
	DumpSource string
	// Force lets DumpSource replace a file that exists; without it that is
	// an error before the script runs.
	Force bool
	// Executor is "deterministic" (default) or "concurrent".
	Executor engine.Executor
	// MemoryBudget bounds the memory a run's state may hold, in bytes
	// (engine.Config.MemoryBudget): 0 is DefaultMemoryBudget, below 0 no
	// bound.
	MemoryBudget int64
	// Log receives the text report of each `report` command; nil discards.
	Log io.Writer
	// Explain names sink rows to explain once the script has run, before
	// the job closes (`run --explain`): Result.Explained.
	Explain []script.Row
}

// Result is what a whole script leaves: its report, and what the charts
// and the explanations read off the job before it closes.
type Result struct {
	Report *report.Report
	// Timeline is the ledger over virtual time, with the kills, restarts
	// and checkpoints; Filter is the Bloom filter's curve, nil without one.
	Timeline engine.Timeline
	Filter   *engine.FilterStats
	// Explained are the provenances of Options.Explain's rows, in order,
	// up to the first the engine could not explain: ExplainErr says why.
	Explained  []engine.Provenance
	ExplainErr error
}

// RunScript parses and runs a whole lab script and returns its report and
// what the job left. file names the script in error messages ("-" for
// standard input); a job file it names is found relative to the script's
// directory. On an error the Result is empty, but for an interruption
// (ErrInterrupted), which has the report so far.
func RunScript(ctx context.Context, file string, src []byte, opts Options) (Result, error) {
	sc, err := script.Parse(file, src)
	if err != nil {
		return Result{}, fromScript(err)
	}
	if opts.DumpSource != "" && !opts.Force {
		// Refuse before the run, not after it.
		if _, err := os.Lstat(opts.DumpSource); err == nil {
			return Result{}, &poserr.Error{Kind: ErrBadInput, File: opts.DumpSource, Msg: "exists; use --force to replace it (the file is replaced, never written through a link)"}
		}
	}
	s := NewSession(file, opts)
	defer s.Close()
	for _, c := range sc.Commands {
		err := ctx.Err()
		if err == nil {
			err = s.Exec(ctx, c)
		}
		if err != nil && ctx.Err() != nil {
			return s.interrupted(c)
		}
		if err != nil {
			return Result{}, err
		}
	}
	rep, err := s.ReportContext(ctx)
	if err != nil && ctx.Err() != nil && len(sc.Commands) > 0 {
		return s.interrupted(sc.Commands[len(sc.Commands)-1])
	}
	if err != nil {
		return Result{}, err
	}
	if opts.DumpSource != "" {
		if err := s.dumpSource(opts.DumpSource); err != nil {
			return Result{}, err
		}
	}
	res := s.leftBehind(opts.Explain)
	res.Report = rep
	return res, nil
}

// leftBehind reads what the charts and the explanations of rows need off
// the job before the session closes it.
func (s *Session) leftBehind(rows []script.Row) Result {
	var res Result
	if s.rt == nil {
		return res
	}
	if f, ok := s.rt.FilterStats(); ok {
		res.Filter = &f
	}
	res.Timeline = s.rt.Timeline()
	for _, row := range rows {
		p, err := s.rt.Explain(row)
		if err != nil {
			res.ExplainErr = err
			break
		}
		res.Explained = append(res.Explained, p)
	}
	return res
}

// interrupted is RunScript's result when its context ended during c: the
// report so far, marked, and ErrInterrupted naming the line.
func (s *Session) interrupted(c script.Command) (Result, error) {
	err := fmt.Errorf("%w at %s:%d", ErrInterrupted, s.file, c.Line)
	if s.rt == nil {
		return Result{}, err
	}
	rep := s.rt.ReportSoFar()
	rep.Expectations = append([]report.Expectation{}, s.expectations...)
	rep.Interrupted = true
	return Result{Report: &rep}, err
}

// fromScript turns a parse error into a bad-input error at the same place.
func fromScript(err error) error {
	if se, ok := poserr.As(err, script.ErrSyntax); ok {
		return poserr.New(ErrBadInput, se.File, se.Line, se.Col, se.Msg)
	}
	return poserr.New(ErrBadInput, "script", 0, 0, err.Error())
}

// dumpSource writes the admitted source log atomically: to a temporary file
// beside path, renamed into place once complete.
func (s *Session) dumpSource(path string) error {
	rt, err := s.runtime()
	if err != nil {
		return err
	}
	return s.writeAtomic(path, rt.DumpSource)
}

// writeAtomic writes a file the user owns (see userfile.Write): atomically,
// never through a link, over an existing file only with Force.
func (s *Session) writeAtomic(path string, write func(io.Writer) error) error {
	if err := userfile.Write(path, s.opts.Force, 0o644, write); err != nil {
		return &poserr.Error{Kind: ErrBadInput, File: path, Msg: withoutPath(err, path)}
	}
	return nil
}

// withoutPath is the text of a userfile error about path without the path,
// which the positioned error puts in front itself.
func withoutPath(err error, path string) string {
	var pe *userfile.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err.Error()
	}
	return err.Error()
}
