// Package bridge connects the terminal lab to the engine. One goroutine
// (Run) owns the lab.Session, which is not safe for concurrent use: it
// admits records as virtual time passes at the chosen speed, carries out the
// lab-script lines the UI sends through a channel, and publishes a Frame at
// most FrameRate times a second into a one-slot mailbox that the UI reads
// with a command it re-arms after every frame (bubbletea's
// examples/realtime).
//
// Everything the learner does is recorded as lab-script lines, admissions
// included: time is admitted in discrete quanta, each one `run DURATION`
// line, and every other command waits for the quantum in flight to finish.
// So the recording replays with `streamlab run` to the same report.
//
// The bridge reads no clock of its own: ticks come from an injected Clock,
// and Handle and Tick may be called directly, so tests drive it without a
// terminal and without sleeping.
package bridge

import (
	"context"
	"fmt"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
)

// Options configure a Bridge.
type Options struct {
	// Job is the built-in job (or job file) to open.
	Job string
	// Seed is recorded as `set seed N` at the start of every session.
	Seed int64
	// Executor is deterministic (default) or concurrent.
	Executor engine.Executor
	// DB keeps the table sink's database at this path.
	DB string
	// Speed is the initial playback speed (snapped to a level).
	Speed float64
	// Running starts time running instead of paused.
	Running bool
	// Clock supplies ticks; WallClock when nil.
	Clock Clock
	// FrameRate is how many ticks (and at most frames) per second; 30
	// when zero, and never more than 30.
	FrameRate int
	// StepBudget bounds the scheduler steps one tick may take, so a frame
	// is never late by much; 200000 when zero.
	StepBudget int
	// Home, when set, is shown as ~ in every message and event (see
	// ShowHome).
	Home string
	// Work, when set, runs each request and each tick the loop in Run
	// carries out, so that a server can measure a lab's engine work; Yield,
	// when set, is called every few thousand steps of a run inside it, so
	// that a server can make long runs take turns.
	Work  func(func())
	Yield func()
	// MemoryBudget bounds the memory a run's state may hold, in bytes
	// (lab.Options.MemoryBudget).
	MemoryBudget int64
}

// Bridge owns one lab session at a time. Create it with New, then start Run
// in its own goroutine; the UI talks to it with Send and Frames.
//
// It drives the session (lab.Session's Start, Play and Subscribe) and
// publishes frames; the rest is in parts with one job each: the recorder
// keeps the session as script lines, the pacer turns wall time into
// virtual time, the lesson watch feeds a lesson's step tracker, and the
// report and probe watches say what frames carry.
type Bridge struct {
	opts   Options
	reqs   chan Request
	frames chan Frame
	ctx    context.Context

	// Everything below belongs to the goroutine that runs Run (or to the
	// test that calls Handle and Tick).
	sess  *lab.Session
	job   lab.Running // the session's job once it has started
	sub   *bus.Subscription
	gen   int64
	place place
	// instant: runs are carried out at once, not played (an exercise's
	// scenario).
	instant bool
	broken  string // why the engine cannot go on; the session is paused
	preview *engine.Snapshot
	// guarantee is the engine's note on a weaker guarantee than asked.
	guarantee string

	rec         recorder
	pace        pacer
	lesson      lessonWatch
	reportWatch reportWatch
	probe       probeWatch

	seq     int64
	pending Frame // events and results not yet published
	dirty   bool
}

// New opens a session on opts.Job. The error is the engine's, for a job or
// setting it rejects.
func New(opts Options) (*Bridge, error) {
	if opts.Clock == nil {
		opts.Clock = WallClock{}
	}
	if opts.FrameRate <= 0 || opts.FrameRate > 30 {
		opts.FrameRate = 30
	}
	if opts.StepBudget <= 0 {
		opts.StepBudget = 200_000
	}
	if opts.Job == "" {
		opts.Job = lab.DefaultJob
	}
	if opts.Work == nil {
		opts.Work = func(f func()) { f() }
	}
	b := &Bridge{
		opts:   opts,
		reqs:   make(chan Request, 256),
		frames: make(chan Frame, 1),
		ctx:    context.Background(),
		pace:   pacer{paused: !opts.Running, speed: SnapSpeed(opts.Speed)},
		place:  place{seed: opts.Seed},
	}
	if err := b.open(b.basePrelude(opts.Job)); err != nil {
		return nil, err
	}
	return b, nil
}

// Send hands a request to the bridge without blocking, in order. It
// reports false when the bridge is too far behind to take it (256 waiting).
func (b *Bridge) Send(r Request) bool {
	select {
	case b.reqs <- r:
		return true
	default:
		return false
	}
}

// Frames delivers published frames. It is closed when Run returns.
func (b *Bridge) Frames() <-chan Frame { return b.frames }

// Run is the bridge's loop: it handles requests as they come and, on every
// tick, advances time and publishes a frame. It returns when ctx is done,
// after closing the session.
func (b *Bridge) Run(ctx context.Context) error {
	b.ctx = ctx
	defer close(b.frames)
	defer b.closeSession()
	t := b.opts.Clock.NewTicker(time.Second / time.Duration(b.opts.FrameRate))
	defer t.Stop()
	b.dirty = true
	b.Publish()
	for {
		select {
		case <-ctx.Done():
			return nil
		case r := <-b.reqs:
			b.opts.Work(func() { b.Handle(r) })
		case now := <-t.C():
			b.opts.Work(func() {
				b.Tick(now)
				b.Publish()
			})
		}
	}
}

// guard turns a panic in the engine into a Fatal frame and a paused
// session, so the terminal is never left in raw mode by a crash here.
func (b *Bridge) guard(what string) {
	if r := recover(); r != nil {
		b.broken = fmt.Sprintf("the engine failed during %s: %v", what, r)
		b.pace.paused = true
		b.pending.Results = append(b.pending.Results, Result{Line: what, Err: b.broken})
		b.dirty = true
	}
}

// Publish puts a fresh frame into the mailbox, replacing (and merging) one
// the UI has not read yet. It does nothing when nothing changed.
func (b *Bridge) Publish() {
	if !b.dirty {
		return
	}
	f := b.Frame()
	select {
	case old := <-b.frames:
		f.merge(old)
	default:
	}
	b.frames <- f
}

// Frame builds a frame now and clears the pending events and results.
func (b *Bridge) Frame() Frame {
	b.drainBus()
	b.seq++
	f := b.pending
	b.pending = Frame{}
	f.Seq, f.Gen = b.seq, b.gen
	f.Started = b.job != nil
	f.Paused, f.Speed = b.pace.paused, b.pace.speed
	b.stopAtFailure()
	f.ClockMS = int64(b.pace.clockMS)
	if b.pace.typed {
		f.Playing, f.PlayEndMS = true, int64(b.pace.end())
	}
	f.Settings = b.rec.settings
	f.Script = b.rec.shared()
	f.Fatal = b.broken
	f.Lesson = b.lesson.state()
	if b.job != nil {
		f.Snap = b.job.Snapshot()
		f.Timeline = b.job.Timeline()
	} else {
		f.Snap = b.previewSnapshot()
	}
	if b.pace.typed && b.pace.forward {
		f.Forwarding = true
		f.ForwardDone, f.ForwardTotal = b.pace.forwardProgress(f.Snap)
	}
	f.Note = b.guarantee
	if b.reportWatch.on {
		b.addReport(&f)
	}
	if b.probe.on {
		f.Probe = &FilterProbe{ID: b.probe.id}
		if b.job != nil {
			f.Probe.Bits = b.job.FilterProbe(b.probe.id)
		}
	}
	f.hideHome(b.opts.Home)
	b.dirty = !b.pace.paused
	return f
}

// drainBus moves the engine's events into the pending frame.
func (b *Bridge) drainBus() {
	if b.sub == nil {
		return
	}
	evs, missed := b.sub.Drain()
	b.pending.Events = append(b.pending.Events, evs...)
	b.lesson.heard(evs)
	b.pending.Missed += missed
	if n := len(b.pending.Events) - maxPendingEvents; n > 0 {
		b.pending.Missed += int64(n)
		b.pending.Events = b.pending.Events[n:]
	}
}

// note adds a result to the next frame.
func (b *Bridge) note(r Result) {
	b.pending.Results = append(b.pending.Results, r)
	b.dirty = true
}

// Script returns the recorded session as lab-script lines.
func (b *Bridge) Script() []string { return append([]string(nil), b.rec.lines...) }

// Session is the current lab session (for tests, from the goroutine that
// drives the bridge).
func (b *Bridge) Session() *lab.Session { return b.sess }

// addReport puts the session's report into f for the report overlay.
func (b *Bridge) addReport(f *Frame) {
	if b.job == nil {
		f.ReportWhy = "the job has not started yet: run something (run 3000, or space) and the report fills in"
		return
	}
	if !b.reportWatch.due(b.pace.paused, b.seq) {
		return
	}
	f.Report = b.report()
}

// report is the session's report as it stands: while records admitted are
// still being processed, the ledger compares with the failure-free run
// at the same point rather than at the end of the admission.
func (b *Bridge) report() *report.Report {
	if b.pace.busy {
		return b.sess.ReportSoFar()
	}
	rep, err := b.sess.ReportContext(b.runContext())
	if err != nil {
		return nil
	}
	return rep
}
