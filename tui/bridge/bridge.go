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
	"github.com/streamlab/streamlab/lessons"
)

// Options configure a Bridge.
type Options struct {
	// Job is the built-in job (or job file) to open.
	Job string
	// Seed is recorded as `set seed N` at the start of every session.
	Seed int64
	// Executor is deterministic (default) or concurrent.
	Executor string
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
type Bridge struct {
	opts   Options
	reqs   chan Request
	frames chan Frame
	ctx    context.Context

	// Everything below belongs to the goroutine that runs Run (or to the
	// test that calls Handle and Tick).
	sess     *lab.Session
	rt       *engine.Runtime
	sub      *bus.Subscription
	gen      int64
	seq      int64
	lineNo   int
	prelude  []string // the session's job and set lines
	rec      []string // every recorded line; only ever appended to
	settings map[string]string
	preview  *engine.Snapshot

	paused   bool
	speed    float64
	broken   string
	lastTick time.Time
	ticked   bool

	pace pacer
	// instant: runs are carried out at once, not played (an exercise's
	// scenario).
	instant bool

	pending Frame // events and results not yet published
	dirty   bool

	probeID uint64 // the record id whose bits each frame carries
	probing bool

	guarantee string // the engine's note on a weaker guarantee than asked

	watchReport bool // frames carry the report (the report overlay is open)
	reportNow   bool // the next frame carries it, whatever the frame's number

	// A lesson's or an exercise's session: its seed, the directory its
	// script lives in, and for a lesson the step tracker with what it has
	// not yet observed.
	seed        int64
	dir         string
	lesson      string
	tracker     *lessons.Tracker
	obsEvents   []bus.Event
	obsRejected []lessons.Rejection
	needObs     bool
	freshNeeded bool
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
		paused: !opts.Running,
		speed:  SnapSpeed(opts.Speed),
		seed:   opts.Seed,
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
		b.paused = true
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
	f.Started = b.rt != nil
	f.Paused, f.Speed = b.paused, b.speed
	b.stopAtFailure()
	f.ClockMS = int64(b.pace.clockMS)
	if b.pace.typed {
		f.Playing, f.PlayEndMS = true, int64(b.pace.end())
	}
	f.Settings = b.settings
	f.Script = b.rec[:len(b.rec):len(b.rec)]
	f.Fatal = b.broken
	if b.tracker != nil {
		f.Lesson = &LessonState{ID: b.lesson, Done: b.tracker.Done(), Finished: b.tracker.Finished(), Fresh: b.freshNeeded, Held: b.tracker.Held()}
	}
	if b.rt != nil {
		f.Snap = b.rt.Snapshot()
		f.Timeline = b.rt.Timeline()
	} else {
		f.Snap = b.previewSnapshot()
	}
	f.Note = b.guarantee
	if b.watchReport {
		b.addReport(&f)
	}
	if b.probing {
		f.Probe = &FilterProbe{ID: b.probeID}
		if b.rt != nil {
			f.Probe.Bits = b.rt.FilterProbe(b.probeID)
		}
	}
	f.hideHome(b.opts.Home)
	b.dirty = !b.paused
	return f
}

// drainBus moves the engine's events into the pending frame.
func (b *Bridge) drainBus() {
	if b.sub == nil {
		return
	}
	evs, missed := b.sub.Drain()
	b.pending.Events = append(b.pending.Events, evs...)
	if b.tracker != nil {
		b.obsEvents = append(b.obsEvents, evs...)
		if n := len(b.obsEvents) - maxObsEvents; n > 0 {
			b.obsEvents = b.obsEvents[n:]
		}
	}
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
func (b *Bridge) Script() []string { return append([]string(nil), b.rec...) }

// Session is the current lab session (for tests, from the goroutine that
// drives the bridge).
func (b *Bridge) Session() *lab.Session { return b.sess }

// reportEvery is how many frames apart the report is refreshed while a run
// plays: working it out drains the failure-free reference, more work than
// a frame's snapshot.
const reportEvery = 5

// addReport puts the session's report into f for the report overlay.
func (b *Bridge) addReport(f *Frame) {
	if b.rt == nil {
		f.ReportWhy = "the job has not started yet: run something (run 3000, or space) and the report fills in"
		return
	}
	if !b.paused && !b.reportNow && b.seq%reportEvery != 0 {
		return
	}
	b.reportNow = false
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
