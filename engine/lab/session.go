package lab

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// DefaultJob is the job a script runs when it names none.
const DefaultJob = "clicks"

// Session is one lab: a job, its settings, and (after the first run) its
// runtime. RunScript, the terminal lab, the grader and the lessons'
// verifier all drive one; none of them reaches the runtime itself.
type Session struct {
	file         string
	opts         Options
	spec         jobspec.Spec
	cfg          engine.Config
	rt           *engine.Runtime
	expectations []report.Expectation
	admitted     int64 // records the session's runs have admitted
	// sets are the set lines applied so far, in order: a later job line
	// applies them again to its job, so that no setting made before it is
	// lost (the source's and the windows' live in the job).
	sets []script.Command
	// subs are the subscriptions to the job's events, taken before or
	// after it started (Subscribe).
	subs []*bus.Subscription
}

// NewSession starts a lab on the default job with the default settings.
func NewSession(file string, opts Options) *Session {
	spec, _ := jobspec.Builtin(DefaultJob)
	cfg := engine.DefaultConfig()
	if opts.Executor != "" {
		cfg.Executor = opts.Executor
	}
	if opts.Seed != nil {
		cfg.Seed = *opts.Seed
	}
	cfg.DBPath = opts.DBPath
	cfg.MemoryBudget = memoryBudget(opts.MemoryBudget)
	return &Session{file: file, opts: opts, spec: spec, cfg: cfg}
}

// DefaultMemoryBudget is the memory a lab's run may hold in state unless
// told otherwise: far more than any lesson or exercise needs, but a
// runaway setting (windows a missing watermark never closes) stops with
// a message instead of taking the machine's memory.
const DefaultMemoryBudget = 1_000_000_000

// memoryBudget is the engine's budget for Options.MemoryBudget n.
func memoryBudget(n int64) int64 {
	switch {
	case n == 0:
		return DefaultMemoryBudget
	case n < 0:
		return 0
	}
	return n
}

// Close releases the runtime.
func (s *Session) Close() error {
	if s.rt == nil {
		return nil
	}
	return s.rt.Close()
}

// Spec is the job the session runs.
func (s *Session) Spec() jobspec.Spec { return s.spec }

// Config is the session's configuration.
func (s *Session) Config() engine.Config { return s.cfg }

// errAt is a bad-input error at a command or argument position.
func (s *Session) errAt(line, col int, format string, args ...any) error {
	return poserr.New(ErrBadInput, s.file, line, col, fmt.Sprintf(format, args...))
}

// Exec carries out one command.
func (s *Session) Exec(ctx context.Context, c script.Command) error {
	switch c.Verb {
	case "":
		return nil
	case script.VerbJob:
		return s.job(c)
	case script.VerbSet:
		return s.set(c)
	case script.VerbRun:
		return s.run(ctx, c)
	case script.VerbStep:
		return s.step(c)
	case script.VerbExpect:
		return s.expect(ctx, c)
	case script.VerbReport:
		rep, err := s.ReportContext(ctx)
		if err != nil {
			return err
		}
		if s.opts.Log != nil {
			return rep.WriteText(s.opts.Log)
		}
		return nil
	case script.VerbKill, script.VerbFail, script.VerbRestart:
		return s.failure(c)
	case script.VerbWhy:
		return s.why(c)
	case script.VerbPause, script.VerbResume:
		return s.errAt(c.Line, c.Col, "%s only makes sense in the terminal lab, where time runs by itself; a script advances time with run", c.Verb)
	}
	return s.errAt(c.Line, c.Col, "unknown verb %q", c.Verb)
}

// configurable reports an error when the job is already running: settings
// and the job are fixed by the first run.
func (s *Session) configurable(c script.Command, what string) error {
	if s.rt != nil {
		return s.errAt(c.Line, c.Col, "%s must come before the first run or step: the job is already running", what)
	}
	return nil
}

func (s *Session) job(c script.Command) error {
	if err := s.configurable(c, "job"); err != nil {
		return err
	}
	arg := c.Args[0]
	if spec, ok := jobspec.Builtin(arg.Text); ok {
		return s.useJob(c, spec)
	}
	if !strings.HasSuffix(arg.Text, ".yaml") && !strings.HasSuffix(arg.Text, ".yml") && !strings.ContainsRune(arg.Text, '/') {
		return s.errAt(arg.Line, arg.Col, "unknown job %q; expected a built-in job (%s) or a path to a .yaml job file", arg.Text, strings.Join(jobspec.Names(), ", "))
	}
	path := arg.Text
	if !filepath.IsAbs(path) && s.file != "-" && s.file != "" {
		path = filepath.Join(filepath.Dir(s.file), path)
	}
	spec, err := jobspec.Load(path)
	if err != nil {
		if je, ok := poserr.As(err, jobspec.ErrBadJob); ok {
			return poserr.New(ErrBadInput, je.File, je.Line, je.Col, je.Msg)
		}
		return s.errAt(arg.Line, arg.Col, "job file: %v", err)
	}
	return s.useJob(c, spec)
}

// useJob makes spec the session's job, with every setting made before the
// job line applied to it again in order: `set source.rate 10` then `job
// clicks` runs clicks at rate 10. A setting the new job cannot take (a
// window size for a job without windows) is an error at the job line that
// names the setting's line.
func (s *Session) useJob(c script.Command, spec jobspec.Spec) error {
	prev := s.spec
	s.spec = spec
	for _, set := range s.sets {
		key, val := set.Args[0], set.Args[1]
		i := slices.IndexFunc(settings, func(st Setting) bool { return st.Key == key.Text })
		err := settings[i].apply(s, set, val)
		if err == nil {
			err = s.spec.Validate()
		}
		if err != nil {
			s.spec = prev
			return s.errAt(c.Line, c.Col, "job %s cannot keep the setting of line %d (set %s %s): %v; put the job line first, before the settings", c.Args[0].Text, set.Line, key.Text, val.Text, err)
		}
	}
	if err := s.checkMode(c.Line, c.Col); err != nil {
		s.spec = prev
		return err
	}
	return nil
}

// checkMode applies Spark's output-mode rules as soon as both the job and
// the mode are known, so the error points at the line that broke them.
func (s *Session) checkMode(line, col int) error {
	if err := engine.CheckMode(s.spec, s.cfg.Mode, s.spec.Source.Watermark >= 0); err != nil {
		return s.errAt(line, col, "%s", engine.ConfigReason(err))
	}
	return nil
}

func (s *Session) runtime() (*engine.Runtime, error) {
	if s.rt != nil {
		return s.rt, nil
	}
	rt, err := engine.New(s.spec, s.cfg)
	if err != nil {
		if !errors.Is(err, engine.ErrBadConfig) {
			// Not the script's fault (a database another run holds,
			// say): the run fails, the input is not blamed.
			return nil, fmt.Errorf("the job could not start: %w", err)
		}
		return nil, poserr.New(ErrBadInput, s.file, 0, 0, err.Error())
	}
	s.rt = rt
	s.attachSubscriptions()
	return rt, nil
}

func (s *Session) run(ctx context.Context, c script.Command) error {
	p, err := s.Play(c)
	if err != nil {
		return err
	}
	if err := p.Finish(ctx); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// checkRecords refuses a run that would admit more than a run's or a
// script's worth of records, whatever its unit: a timed run admits about
// source.rate records a second (`set source.rate 1000000`, `run 24h` would
// be 86.4 billion).
func (s *Session) checkRecords(c script.Command) error {
	n, unit := c.Count, "records"
	if c.Duration > 0 {
		n = s.timedRecords(c.Duration)
		unit = fmt.Sprintf("records (%s at source.rate %d)", c.Duration, s.spec.Source.Rate)
	}
	at := c.Args[0]
	switch {
	case n > script.MaxRunRecords:
		return s.errAt(at.Line, at.Col, "this run would admit %d %s; at most %d records per run: use a shorter run or a lower source.rate", n, unit, script.MaxRunRecords)
	case s.admitted+n > script.MaxScriptRecords:
		return s.errAt(at.Line, at.Col, "this run would bring the script to %d records; at most %d records per script", s.admitted+n, script.MaxScriptRecords)
	}
	return nil
}

// startErr places an error starting the job at the command c that started
// it; only a configuration error is bad input.
func (s *Session) startErr(c script.Command, err error) error {
	if errors.Is(err, engine.ErrInternal) {
		return err // the machine's, not the line's
	}
	bad, ok := poserr.As(err, ErrBadInput)
	if !ok {
		return fmt.Errorf("%s:%d: %w", s.file, c.Line, err)
	}
	return s.errAt(c.Line, c.Col, "%s", bad.Msg)
}

func (s *Session) step(c script.Command) error {
	rt, err := s.runtime()
	if err != nil {
		return s.startErr(c, err)
	}
	for range c.Count {
		did, err := rt.Step()
		if err != nil {
			return s.errAt(c.Line, c.Col, "step: %v", err)
		}
		if !did {
			return nil
		}
	}
	return nil
}

// Report describes the session's job as it stands, with the expectations
// checked so far.
func (s *Session) Report() (*report.Report, error) {
	rt, err := s.runtime()
	if err != nil {
		return nil, err
	}
	rep := rt.Report()
	rep.Expectations = append([]report.Expectation{}, s.expectations...)
	return &rep, nil
}

// ReportContext is Report, giving up with ctx's error when ctx ends first.
func (s *Session) ReportContext(ctx context.Context) (*report.Report, error) {
	rt, err := s.runtime()
	if err != nil {
		return nil, err
	}
	rep, err := rt.ReportContext(ctx)
	if err != nil {
		return nil, err
	}
	rep.Expectations = append([]report.Expectation{}, s.expectations...)
	return &rep, nil
}

// ReportSoFar is Report while a run admitted with Play is still being
// stepped: the ledger compares what the sink has so far with the
// failure-free run at the same point (engine.Runtime.ReportSoFar). Before
// the first run it is nil.
func (s *Session) ReportSoFar() *report.Report {
	if s.rt == nil {
		return nil
	}
	rep := s.rt.ReportSoFar()
	rep.Expectations = append([]report.Expectation{}, s.expectations...)
	return &rep
}

// Expectations are the outcomes of the expect commands run so far.
func (s *Session) Expectations() []report.Expectation { return s.expectations }

// durationArg parses a duration setting; "none" gives -1 where allowed.
func durationArg(a script.Arg, allowNone bool) (time.Duration, bool) {
	if allowNone && a.Text == "none" {
		return -1, true
	}
	d, err := time.ParseDuration(a.Text)
	return d, err == nil && d >= 0
}

func intArg(a script.Arg, lo, hi int64) (int64, bool) {
	n, err := strconv.ParseInt(a.Text, 10, 64)
	return n, err == nil && n >= lo && n <= hi
}

// failure carries out kill, fail and restart.
func (s *Session) failure(c script.Command) error {
	rt, err := s.runtime()
	if err != nil {
		return s.startErr(c, err)
	}
	switch {
	case c.Verb == script.VerbRestart:
		err = rt.Restart(c.Node)
	case c.Verb == script.VerbFail && c.HasAt:
		err = rt.FailAt(c.Node, c.At)
	case c.Verb == script.VerbFail:
		err = rt.Fail(c.Node)
	case c.AtCommit:
		err = rt.KillAtCommit(c.Node)
	case c.HasAt:
		err = rt.KillAt(c.Node, c.At)
	default:
		err = rt.Kill(c.Node)
	}
	if err != nil {
		return s.errAt(c.Args[0].Line, c.Args[0].Col, "%v", err)
	}
	return nil
}
