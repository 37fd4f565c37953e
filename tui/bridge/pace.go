package bridge

import (
	"fmt"
	"math"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// maxTickGap caps the wall time one tick may account for, so that a stall
// (a suspended laptop, a slow frame) does not turn into a burst.
const maxTickGap = 250 * time.Millisecond

// pacer turns wall time into virtual time: it keeps whether time runs and
// how fast, and spreads the work of one admitted quantum over the wall
// time it stands for. A quantum is one recorded `run DURATION`: the engine admits
// it at once (lab.Session.PlayFor, never more than a run line may admit:
// lab.Session.FitRun), and the bridge then steps the scheduler a little
// every tick, so the learner sees records move, queues fill and barriers
// align. Stepping to the end is exactly what Run does, so the recorded line
// means the same thing when replayed. The next quantum is admitted when the
// smooth clock reaches the end of this one.
type pacer struct {
	// paused: time stands still; speed is virtual seconds per wall second.
	paused bool
	speed  float64
	// lastTick is the wall time of the previous tick, once ticked.
	lastTick time.Time
	ticked   bool
	// clockMS is the smooth virtual clock, ms since the start.
	clockMS float64
	// open: a quantum's window [startMS, startMS+lenMS) is current.
	open    bool
	startMS float64
	lenMS   float64
	// busy: the quantum's records are not yet processed to quiet.
	busy     bool
	steps    int64 // steps taken in this quantum
	estimate int64 // steps the quantum is expected to take
	lastRun  int64 // steps the previous quantum took
	// runLine is the index in the recording of the quantum's run line: a
	// kill typed while it plays is placed before it (see killInPlay).
	runLine int
	// play is the quantum's run, admitted by the session.
	play *lab.Play
	// typed: the quantum is a run the learner typed, played at the lab's
	// speed whether or not time runs by itself; wasPaused is whether the
	// lab was paused before it, and is again once it ends.
	typed     bool
	wasPaused bool
	// forward: the typed run is being finished as fast as the engine
	// goes (the fast-forward key, or the maximum speed), a slice of steps
	// a tick.
	forward bool
}

func (p *pacer) end() float64 { return p.startMS + p.lenMS }

// elapsed is the wall time since the previous tick, at most maxTickGap.
func (p *pacer) elapsed(now time.Time) time.Duration {
	dt := time.Duration(0)
	if p.ticked {
		dt = min(max(now.Sub(p.lastTick), 0), maxTickGap)
	}
	p.lastTick, p.ticked = now, true
	return dt
}

// newSession forgets the quanta of a session that is gone. Whether time
// runs, its speed and the wall clock carry over; a typed run that was
// playing is gone with its session, and the lab is paused again if it was
// before the run.
func (p *pacer) newSession() {
	paused := p.paused || (p.typed && p.wasPaused)
	*p = pacer{paused: paused, speed: p.speed, lastTick: p.lastTick, ticked: p.ticked}
}

// Tick advances virtual time by the wall time since the previous tick
// times the speed, admitting and processing quanta as it goes.
// A lesson's step tracker then looks at what the tick did.
func (b *Bridge) Tick(now time.Time) {
	defer b.guard("a tick")
	b.tick(now)
	if b.lesson.due {
		b.observe()
	}
}

func (b *Bridge) tick(now time.Time) {
	dt := b.pace.elapsed(now)
	if b.pace.paused || b.broken != "" || b.sess == nil {
		return
	}
	b.dirty = true
	p := &b.pace
	if p.typed {
		b.play(dt)
		return
	}
	if IsMax(b.pace.speed) {
		b.maxTick()
		return
	}
	p.clockMS += float64(dt.Microseconds()) / 1000 * b.pace.speed
	if p.open && p.clockMS >= p.end() {
		b.finishQuantum()
		p.open = false
		if b.checkStop(); b.pace.paused {
			return
		}
	}
	if !p.open && !b.admit(quantum(b.pace.speed)) {
		return
	}
	if !p.busy {
		return
	}
	frac := (p.clockMS - p.startMS) / p.lenMS
	target := int64(frac * float64(p.estimate))
	// A job down as a whole comes back when the clock gets to its
	// restart, not as soon as the scheduler looks.
	p.play.PaceTo(int64(p.clockMS))
	for budget := b.opts.StepBudget; p.steps < target && budget > 0; budget-- {
		if !b.stepOnce() {
			break
		}
	}
}

// maxTick runs time at the maximum speed: each tick takes one slice of
// the quantum in flight, admitting the next once the last is quiet, so a
// frame is drawn and keys are read between slices however fast the source.
func (b *Bridge) maxTick() {
	p := &b.pace
	if !p.busy && !b.admit(quantum(Max)) {
		return
	}
	if b.forwardSlice() {
		p.clockMS = max(p.clockMS, p.end())
		b.checkStop()
		return
	}
	b.clockToPlayhead()
}

// clockToPlayhead moves the smooth clock up to the engine's playhead,
// within the quantum in flight, between the slices of a fast-forward.
func (b *Bridge) clockToPlayhead() {
	p := &b.pace
	p.clockMS = max(p.clockMS, min(float64(b.job.NowMS()), p.end()))
}

// forwardSteps bounds the scheduler steps one tick of a fast-forward
// takes, about a frame's worth of engine work: steps, not wall time, so
// what a slice does never depends on the machine's load.
const forwardSteps = 50_000

// forwardSlice takes one tick's slice of the quantum in flight toward
// quiet, and reports whether the quantum has finished. A run split into
// slices and finished by Finish ends exactly as one Finish does
// (engine.Runtime.RunSteps), so the report and the recording are those of
// a synchronous finish.
func (b *Bridge) forwardSlice() bool {
	p := &b.pace
	if !p.busy {
		return true
	}
	p.play.PaceTo(math.MaxInt64)
	before := b.job.Steps()
	quiet, err := p.play.StepWithin(b.runContext(), int64(min(forwardSteps, b.opts.StepBudget)), engine.Work{})
	p.steps += b.job.Steps() - before
	// An error is the concurrent executor's, which cannot step (the run
	// is then run whole), or the lab's context ending (Finish gives up too).
	if quiet || err != nil {
		b.finishQuantum()
		return true
	}
	return false
}

// admit lets one quantum of virtual time in and records it as a run line,
// shortened to what one run line may admit (a fast source fills a run's
// records in less than a quantum), so that the recording replays.
func (b *Bridge) admit(d time.Duration) bool {
	b.finishQuantum()
	if err := b.ensureRuntime(); err != nil {
		// Said once: time stops until the settings change.
		b.fail("run", fmt.Errorf("%v (paused: change a setting, or open the job again)", plain(err)))
		b.pace.paused = true
		return false
	}
	if d = b.sess.FitRun(d); d <= 0 {
		b.pauseWith(fmt.Sprintf("the session has admitted %d records, the most one script may; save it (ctrl+s) and open the job again to go on", b.sess.Admitted()))
		return false
	}
	play, err := b.sess.PlayFor(d)
	if err != nil {
		b.fail("run", plain(err))
		b.pace.paused = true
		return false
	}
	admitted := play.Admitted()
	b.record("run " + formatDuration(d))
	snap := b.job.Snapshot()
	p := &b.pace
	p.play = play
	p.open, p.busy = true, true
	p.runLine = b.rec.last()
	p.startMS = float64(snap.TimeMS - d.Milliseconds())
	p.lenMS = float64(d.Milliseconds())
	p.clockMS = max(p.clockMS, p.startMS)
	p.steps = 0
	// A first guess: every record visits every node, plus the markers;
	// after that, what the previous quantum took.
	p.estimate = admitted*int64(len(snap.Nodes)) + 16
	if p.lastRun > 0 && admitted > 0 {
		p.estimate = p.lastRun
	}
	return true
}

// stepOnce lets the scheduler take one step of the quantum in flight and
// notes when there is nothing left to do.
func (b *Bridge) stepOnce() bool {
	did, err := b.pace.play.Step()
	if err == nil && !did && b.job.Held() {
		// Quiet only until the played clock reaches a restart the pace
		// holds back: the run goes on next frame.
		return false
	}
	if err != nil || !did { // the concurrent executor cannot step: run it whole
		b.finishQuantum()
		return false
	}
	b.pace.steps++
	return true
}

// finishQuantum processes the quantum in flight to quiet, as the recorded
// run line does. Every command waits for this first, so the recording
// stays exact.
func (b *Bridge) finishQuantum() {
	p := &b.pace
	if !p.busy {
		return
	}
	before := b.job.Snapshot().Steps
	err := p.play.Finish(b.runContext()) // to quiet, as the recorded line runs
	p.steps += b.job.Snapshot().Steps - before
	p.busy = false
	p.lastRun = max(p.steps, 1)
	b.lesson.due = true
	if err != nil && b.runContext().Err() == nil {
		b.note(Result{Line: "run", Err: err.Error()})
	}
	b.dirty = true
}

// stopAtFailure stops the smooth clock where the job failed, and reports
// whether it has: nothing happens after a failure, so the lab's time must
// not run on to the end of what was admitted.
func (b *Bridge) stopAtFailure() bool {
	if b.job == nil {
		return false
	}
	at, failed := b.job.FailedAtMS()
	if failed {
		b.pace.clockMS = float64(at)
	}
	return failed
}

// checkStop pauses when going on makes no sense: the job failed, the
// source has run out, or the recording is about to outgrow a script.
func (b *Bridge) checkStop() {
	if b.job == nil || b.pace.paused {
		return
	}
	s := b.job.Snapshot()
	switch {
	case s.State == engine.StateFailed:
		b.pauseWith("the job failed; paused")
	case b.job.Source().Len() >= 0 && s.Offset >= b.job.Source().Len():
		b.pauseWith("the source has no more records; paused")
	case b.rec.nearlyFull():
		b.pauseWith(fmt.Sprintf("the session's script is nearly %d lines long, the most a script may have; save it (ctrl+s) and open the job again to go on", script.MaxLines))
	}
}

func (b *Bridge) pauseWith(info string) {
	b.pace.paused = true
	b.note(Result{Info: info})
}

// fail reports an error for a line.
func (b *Bridge) fail(line string, err error) {
	b.note(Result{Line: line, Err: err.Error()})
	b.lesson.refused(line, err)
}

// syncClock moves the smooth clock up to the engine's after a command that
// moved virtual time by itself (a typed run): the current quantum's window
// is then over.
func (b *Bridge) syncClock() {
	if b.job == nil {
		return
	}
	p := &b.pace
	if t := float64(b.job.Snapshot().TimeMS); t > p.clockMS && (!p.open || t > p.end()) {
		p.clockMS, p.open = t, false
	}
}

// playFrameSteps bounds the steps one frame of a played run may take
// beyond what its virtual time calls for: a replay after a rollback moves
// the playhead back, and catching up is shown over a few frames.
const playFrameSteps = 20_000

// startPlay admits a typed run and plays it: every tick steps the
// scheduler until the engine's playhead (Runtime.NowMS) passes the smooth
// clock, so at ×1 a second of virtual time takes a second. Only the
// admission is the command's; what is processed when is the wall clock's
// pacing, and finishing the run (Run to quiet) gives exactly the report the
// recorded line gives headless.
func (b *Bridge) startPlay(c script.Command) error {
	if err := b.ensureRuntime(); err != nil {
		return err
	}
	play, err := b.sess.Play(c)
	if err != nil {
		return err
	}
	n := play.Admitted()
	b.record(c.String())
	p := &b.pace
	p.play = play
	p.open, p.busy, p.typed = true, true, true
	p.runLine = b.rec.last()
	p.startMS = float64(play.FromMS())
	p.lenMS = float64(play.UntilMS() - play.FromMS())
	p.clockMS = max(p.clockMS, p.startMS)
	p.steps, p.estimate = 0, 0
	p.wasPaused = b.pace.paused
	b.pace.paused = false
	p.forward = IsMax(b.pace.speed)
	b.note(Result{Line: c.String(), Info: fmt.Sprintf("%d records, %.1f s of virtual time, %s, space pauses",
		n, p.lenMS/1000, playedHow(b.pace.speed))})
	return nil
}

// playedHow says how a typed run plays at speed s: at ×max it is
// fast-forwarded, a slice of steps a frame.
func playedHow(s float64) string {
	if IsMax(s) {
		return "finishing as fast as it goes"
	}
	return "playing at " + FormatSpeed(s) + " · > finishes it"
}

// play advances a typed run by one tick's worth of virtual time, or by a
// slice of steps when it is being fast-forwarded.
func (b *Bridge) play(dt time.Duration) {
	p := &b.pace
	if p.forward || IsMax(b.pace.speed) {
		b.forwardPlay()
		return
	}
	p.clockMS = min(p.clockMS+float64(dt.Microseconds())/1000*b.pace.speed, p.end())
	target := int64(p.clockMS)
	last := p.clockMS >= p.end()
	// A job that is down as a whole comes back when the played clock
	// reaches its restart, not as soon as the scheduler looks.
	p.play.PaceTo(target)
	if last {
		p.play.PaceTo(math.MaxInt64)
	}
	for budget := b.opts.StepBudget; budget > 0; budget-- {
		if !last && b.job.NowMS() > target {
			break
		}
		if !last && p.steps >= playFrameSteps && b.job.NowMS() < target-1000 {
			p.steps = 0 // catching up after a rewind: the rest next frame
			break
		}
		if !b.stepOnce() {
			break
		}
	}
	p.steps = 0
	if !p.busy || last {
		b.endPlay()
	}
}

// fastForward finishes the typed run in flight as fast as the engine
// goes, a slice every tick (forwardPlay), with the lab's time running: a
// pause stops it where it is, and a resume goes on with it.
func (b *Bridge) fastForward() {
	if !b.pace.typed {
		return
	}
	b.pace.forward = true
	b.resume()
}

// forwardProgress is how many of the typed run's records its source has
// read, of how many it admitted: a recovery that rewinds the source moves
// it back, as it does the records on screen.
func (p *pacer) forwardProgress(snap engine.Snapshot) (done, total int64) {
	total = p.play.Admitted()
	unread := snap.Admitted - snap.Offset
	return min(max(total-unread, 0), total), total
}

// forwardPlay takes one slice of a fast-forwarded run, moving the clock
// with the engine's playhead, and ends the run once it is quiet.
func (b *Bridge) forwardPlay() {
	p := &b.pace
	p.forward = true
	if b.forwardSlice() {
		b.endPlay()
		return
	}
	b.clockToPlayhead()
}

// endPlay finishes the typed run in flight at once (its end, the last
// slice of a fast-forward, or a command that must wait for it) and puts
// the lab back as it was before.
func (b *Bridge) endPlay() {
	p := &b.pace
	if !p.typed {
		return
	}
	p.play.PaceTo(math.MaxInt64)
	b.finishQuantum()
	p.typed, p.open, p.forward = false, false, false
	p.clockMS = max(p.clockMS, float64(b.job.AdmittedUntilMS()))
	if p.wasPaused {
		b.pace.paused = true
	}
	if b.stopAtFailure() {
		b.note(Result{Info: "the job failed at t " + clockText(int64(p.clockMS)) + "; its clock stops there"})
	} else {
		b.note(Result{Info: "run finished at t " + clockText(int64(p.clockMS))})
	}
	b.pending.Finished = b.report()
	b.checkStop()
}

// Playing reports whether a typed run is being played.
func (b *Bridge) Playing() bool { return b.pace.typed }

// killInPlay places a kill typed while a run plays at the node's next
// record: `kill NODE at N` with N one more than it has processed. In the
// recording the line goes before the run line, where a script has to say
// it; the engine counts a node's records from the start, so the replayed
// kill fires at the same step.
func (b *Bridge) killInPlay(c script.Command) (string, error) {
	var in int64 = -1
	for _, n := range b.job.Snapshot().Nodes {
		if n.Name == c.Node {
			in = n.In
		}
	}
	if in < 0 {
		return "", fmt.Errorf("no node %q in this job", c.Node)
	}
	line := fmt.Sprintf("%s %s at %d", c.Verb, c.Node, in+1)
	kc, err := script.ParseLine(b.file(), b.rec.nextLine(), line)
	if err != nil {
		return "", err
	}
	if err := b.sess.Exec(b.runContext(), kc); err != nil {
		return "", err
	}
	p := &b.pace
	b.rec.insert(p.runLine, kc.String())
	p.runLine++
	b.dirty = true
	return kc.String(), nil
}

// clockText writes virtual ms as the status bar does: m:ss.t.
func clockText(ms int64) string {
	return fmt.Sprintf("%d:%02d.%d", ms/60000, ms/1000%60, ms/100%10)
}
