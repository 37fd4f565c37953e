package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/script"
)

// A driver other than a script (the terminal lab, the grader, the lessons'
// verifier) runs a session with the methods below: Start, Subscribe, Play
// and the Play's Step and Finish. What it reads of the running job goes
// through Running, which has no controls.

// Start starts the job without admitting anything, as the first run would,
// so that a driver can look at it or admit by itself. Starting a started
// job does nothing. The error is the engine's refusal, unplaced (Report's
// error before the first run).
func (s *Session) Start() error {
	_, err := s.runtime()
	return err
}

// StartFor is Start for command c, which needs the job running: an error
// is placed at c, as c's own start would place it.
func (s *Session) StartFor(c script.Command) error {
	if err := s.Start(); err != nil {
		return s.startErr(c, err)
	}
	return nil
}

// Started reports whether the job has started (its first run, or Start).
func (s *Session) Started() bool { return s.rt != nil }

// Subscribe returns a subscription to the job's events that holds up to
// size of them. Taken before the job starts, it hears from the job once it
// has started: every event after the job's own "job started" one, the same
// as a subscription taken at once after the start.
func (s *Session) Subscribe(size int) *bus.Subscription {
	sub := bus.NewSubscription(size)
	s.subs = append(s.subs, sub)
	if s.rt != nil {
		s.rt.Bus().Add(sub)
	}
	return sub
}

// Unsubscribe stops delivery to sub.
func (s *Session) Unsubscribe(sub *bus.Subscription) {
	s.subs = slices.DeleteFunc(s.subs, func(x *bus.Subscription) bool { return x == sub })
	if s.rt != nil {
		s.rt.Bus().Unsubscribe(sub)
	}
}

// attachSubscriptions puts the subscriptions taken before the start on
// the new runtime's bus.
func (s *Session) attachSubscriptions() {
	for _, sub := range s.subs {
		s.rt.Bus().Add(sub)
	}
}

// Preview pictures the job as configured, before it has started, with all
// counts zero: a throwaway runtime (a log sink, no ledger) supplies its
// stages and nodes, so a driver can show the job before it runs. ok is
// false when the engine refuses the configuration.
func (s *Session) Preview() (snap engine.Snapshot, ok bool) {
	cfg := s.cfg
	cfg.Sink, cfg.DBPath, cfg.NoLedger = engine.SinkLog, "", true
	rt, err := engine.New(s.spec, cfg)
	if err != nil {
		return engine.Snapshot{}, false
	}
	defer rt.Close()
	return rt.Snapshot(), true
}

// Running is what a driver may read of the started job: pictures, counts
// and the ledger's rows. Driving it goes through the Session and Play.
type Running interface {
	Spec() jobspec.Spec
	Config() engine.Config
	Source() *engine.Source
	Snapshot() engine.Snapshot
	Timeline() engine.Timeline
	FilterProbe(id uint64) []filter.Probe
	FailedAtMS() (int64, bool)
	NowMS() int64
	AdmittedUntilMS() int64
	Held() bool
	Steps() int64
	Work() engine.Work
	Timers() int64
	StateBytes() int64
	SinkRows() []engine.Record
	DifferingRows(limit int) []engine.RowDiff
	DumpSource(w io.Writer) error
}

// Running returns the started job to read, or nil before it has started.
func (s *Session) Running() Running {
	if s.rt == nil {
		return nil
	}
	return s.rt
}

// Play is a run admitted and not yet processed. A driver steps it at its
// own pace (the terminal lab a little every frame, the grader a slice at a
// time within a budget) and Finish processes the rest to quiet, exactly
// what a script's run line does, so a run played this way replays with
// `streamlab run` to the same report.
type Play struct {
	rt       *engine.Runtime
	admitted int64
	fromMS   int64
}

// Play carries out run command c's admission, starting the job first if
// need be, and returns the run to play. The run's limits on records are
// checked as the command's own would be.
func (s *Session) Play(c script.Command) (*Play, error) {
	if c.Verb != script.VerbRun {
		return nil, s.errAt(c.Line, c.Col, "only a run line admits records, not %q", c.Verb)
	}
	rt, err := s.runtime()
	if err != nil {
		return nil, s.startErr(c, err)
	}
	if err := s.checkRecords(c); err != nil {
		return nil, err
	}
	p := &Play{rt: rt, fromMS: rt.AdmittedUntilMS()}
	if c.Duration > 0 {
		p.admitted = rt.AdmitFor(c.Duration)
	} else {
		p.admitted = rt.Admit(c.Count)
	}
	s.admitted += p.admitted
	return p, nil
}

// ErrRecordLimit marks a PlayFor refused because its run line would admit
// more records than one run, or what is left of the script, may.
var ErrRecordLimit = errors.New("over the records a script may admit")

// PlayFor admits d of virtual time as the terminal lab's running clock
// does, starting the job first if need be (the error is Start's). The lab
// records it as a `run d` line, so it is held to a run line's limits and
// counts against the script's records as one does: a d longer than FitRun
// allows is refused with ErrRecordLimit, since its line would not replay.
func (s *Session) PlayFor(d time.Duration) (*Play, error) {
	rt, err := s.runtime()
	if err != nil {
		return nil, err
	}
	if fit := s.FitRun(d); fit < d {
		return nil, fmt.Errorf("%w: run %s at source.rate %d would admit %d records; %d more fit in one run of this script",
			ErrRecordLimit, d, s.spec.Source.Rate, s.timedRecords(d), s.recordRoom())
	}
	p := &Play{rt: rt, fromMS: rt.AdmittedUntilMS()}
	p.admitted = rt.AdmitFor(d)
	s.admitted += p.admitted
	return p, nil
}

// FitRun is the longest part of d, in whole milliseconds, that one `run`
// line may admit now at the job's source.rate: at most a run's worth of
// records (script.MaxRunRecords) and what is left of the script's
// (script.MaxScriptRecords), in at most script.MaxRunDuration. It is d
// when d fits, and 0 when the script has no records left. A driver that
// picks its own run lengths (the terminal lab's running clock) asks it
// first, so what it records replays.
func (s *Session) FitRun(d time.Duration) time.Duration {
	ms := s.recordRoom() * 1000 / int64(s.spec.Source.Rate)
	return min(d.Truncate(time.Millisecond), time.Duration(ms)*time.Millisecond, script.MaxRunDuration)
}

// Admitted is how many records the session's runs have admitted so far:
// what counts against the script's limit.
func (s *Session) Admitted() int64 { return s.admitted }

// recordRoom is how many records one more run may admit: a run's worth,
// or what is left of the script's when that is less.
func (s *Session) recordRoom() int64 {
	return max(0, min(script.MaxRunRecords, script.MaxScriptRecords-s.admitted))
}

// timedRecords is how many records a run of d is taken to admit against
// the limits: source.rate a virtual second.
func (s *Session) timedRecords(d time.Duration) int64 {
	return int64(s.spec.Source.Rate) * d.Milliseconds() / 1000
}

// Admitted is how many records the run let in.
func (p *Play) Admitted() int64 { return p.admitted }

// FromMS and UntilMS bound the virtual time the run admitted.
func (p *Play) FromMS() int64 { return p.fromMS }

// UntilMS is the end of the admitted virtual time.
func (p *Play) UntilMS() int64 { return p.rt.AdmittedUntilMS() }

// Step processes one element at one node, and reports whether there was
// anything to do (engine.Runtime.Step).
func (p *Play) Step() (bool, error) { return p.rt.Step() }

// StepWithin takes up to n steps, stopping early at the step that takes
// the work counted past limit, and reports whether the run is quiet
// (engine.Runtime.RunWithin).
func (p *Play) StepWithin(ctx context.Context, n int64, limit engine.Work) (quiet bool, err error) {
	return p.rt.RunWithin(ctx, n, limit)
}

// PaceTo holds a restart of the whole job back until virtual time ms, for
// a driver that plays the run in wall time (engine.Runtime.PaceTo).
func (p *Play) PaceTo(ms int64) { p.rt.PaceTo(ms) }

// Finish processes the rest of the run to quiet, whatever the pace.
func (p *Play) Finish(ctx context.Context) error {
	p.rt.PaceTo(math.MaxInt64)
	return p.rt.Run(ctx)
}
