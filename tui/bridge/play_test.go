package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/lessons"
)

func nodeState(f Frame, name string) engine.NodeSnapshot {
	for _, n := range f.Snap.Nodes {
		if n.Name == name {
			return n
		}
	}
	return engine.NodeSnapshot{}
}

// replaySame replays the bridge's recording headless and compares the
// report with the live session's, byte for byte.
func replaySame(t *testing.T, b *Bridge) string {
	t.Helper()
	live, err := b.Session().Report()
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Join(b.Script(), "\n") + "\n"
	res, err := lab.RunScript(context.Background(), "saved.lab", []byte(src), lab.Options{})
	replayed := res.Report
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	lj, _ := json.Marshal(live)
	rj, _ := json.Marshal(replayed)
	if !bytes.Equal(lj, rj) {
		t.Errorf("live and replayed reports differ\nscript:\n%s\nlive:\n%s\nreplayed:\n%s", src, lj, rj)
	}
	return src
}

// A typed run plays at ×1: the clock and the nodes move frame by frame, the
// killed counter is seen down and then back, lesson 3's second step stays
// current (not yet judged) while its run plays and is done once the run
// ends, and the recording replays to the same report.
func TestTypedRunPlaysInVirtualTime(t *testing.T) {
	l, err := lessons.Find("3")
	if err != nil {
		t.Fatal(err)
	}
	b := newBridge(t, Options{Seed: 1})
	// Lesson 3's first step fails the job without a restart strategy; the
	// session starts at its second, with one.
	b.Handle(Request{Kind: OpenSession, Lesson: l, Done: 1, Seed: 7, Workspace: t.TempDir()})
	for _, line := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200", "run 3000"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	if !b.Playing() {
		t.Fatal("run 3000 is not playing")
	}
	at := t0
	var sawDown, sawBack bool
	doneWhilePlaying := -1
	var lastClock, lastIn int64
	for i := 0; b.Playing(); i++ {
		ticks(b, &at, 1, time.Second/30)
		if b.lesson.due {
			b.observe()
		}
		f := b.Frame()
		if f.ClockMS < lastClock {
			t.Fatalf("frame %d: the clock went back from %d to %d", i, lastClock, f.ClockMS)
		}
		lastClock = f.ClockMS
		if want := int64(i+1) * 1000 / 30; f.Playing && (f.ClockMS < want-50 || f.ClockMS > want+50) {
			t.Fatalf("frame %d: clock %d ms, want about %d at ×1", i, f.ClockMS, want)
		}
		src := nodeState(f, "source")
		if f.Playing && src.Out > lastIn+100 {
			t.Fatalf("frame %d: the source emitted %d records in one frame at ×1 (100/s)", i, src.Out-lastIn)
		}
		lastIn = src.Out
		if f.Playing {
			doneWhilePlaying = max(doneWhilePlaying, f.Lesson.Done)
		}
		c1 := nodeState(f, "count[1]")
		if c1.State != engine.NodeRunning {
			sawDown = true
		}
		if sawDown && c1.State == engine.NodeRunning && !sawBack {
			sawBack = true
			if f.ClockMS < 12_000 {
				t.Errorf("count[1] back at %d ms", f.ClockMS)
			}
		}
		if i > 2000 {
			t.Fatal("the run did not end")
		}
	}
	if doneWhilePlaying != 1 {
		t.Errorf("while run 3000 played the lesson had %d steps done, want 1: step 2 current until its run ends", doneWhilePlaying)
	}
	if f := b.Frame(); f.Lesson.Done != 2 || !f.Lesson.Held {
		t.Errorf("after the run the lesson is %+v, want step 2 done and held on screen", f.Lesson)
	}
	if !sawDown || !sawBack {
		t.Errorf("saw count[1] down %v, back %v", sawDown, sawBack)
	}
	if lastClock < 29_000 || lastClock > 31_000 {
		t.Errorf("run 3000 ended at %d ms, want 30 s", lastClock)
	}
	replaySame(t, b)
}

// A kill typed while a run plays takes effect at the node's next record;
// the recording places it before the run and replays to the same report.
func TestKillWhilePlayingIsPlacedByRecord(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 4})
	b.Handle(Request{Kind: Line, Line: "set semantics at-least-once"})
	b.Handle(Request{Kind: Line, Line: "run 20s"})
	at := t0
	ticks(b, &at, 150, time.Second/30) // 5 s in
	in := nodeState(b.Frame(), "count[0]").In
	b.Handle(Request{Kind: Line, Line: "kill count[0]"})
	ticks(b, &at, 2, time.Second/30)
	f := b.Frame()
	if st := nodeState(f, "count[0]").State; st == engine.NodeRunning {
		t.Errorf("count[0] still %s two frames after the kill", st)
	}
	if !f.Playing {
		t.Error("the kill stopped the run from playing")
	}
	finish(t, b)
	src := replaySame(t, b)
	want := "kill count[0] at " + itoa(in+1) + "\nrun 20s\n"
	if !strings.HasSuffix(src, want) {
		t.Errorf("recording ends\n%s\nwant it to end with\n%s", src, want)
	}
}

// At the maximum speed a typed run is fast-forwarded, a slice of steps a
// tick: one tick finishes a run smaller than a slice.
func TestRunAtMaxSpeedIsFastForwarded(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1, Speed: Max})
	b.Handle(Request{Kind: Line, Line: "run 3000"})
	if f := b.Frame(); !f.Playing || !f.Forwarding || f.ForwardTotal != 3000 {
		t.Errorf("run 3000 at ×max: playing %v, forwarding %v of %d records", f.Playing, f.Forwarding, f.ForwardTotal)
	}
	at := t0
	ticks(b, &at, 1, time.Second/30)
	if b.Playing() {
		t.Error("run 3000 at ×max still playing after a tick")
	}
	if got := b.Frame().Snap.Offset; got != 3000 {
		t.Errorf("offset %d after run 3000 at ×max", got)
	}
}

func itoa(n int64) string { return strconvFormat(n) }

func strconvFormat(n int64) string { return strconv.FormatInt(n, 10) }

// Settings the engine refuses to start are reported once, and time stops
// rather than repeating the error every tick.
func TestRefusedSettingsAreReportedOnce(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	b.Handle(Request{Kind: Line, Line: "set semantics at-least-once"})
	b.Handle(Request{Kind: Line, Line: "set ha none"})
	b.Handle(Request{Kind: Resume})
	at := t0
	var errs []string
	for range 30 {
		ticks(b, &at, 1, time.Second/30)
		for _, r := range b.Frame().Results {
			if r.Err != "" {
				errs = append(errs, r.Err)
			}
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "at-least-once needs preserved input") {
		t.Errorf("errors %q, want the engine's reason once", errs)
	}
	if f := b.Frame(); !f.Paused || f.ClockMS > 100 {
		t.Errorf("paused %v, clock %d ms after the refusal", f.Paused, f.ClockMS)
	}
	ch := b.checkChoices("ha", []string{"none", "upstream-backup"})
	if ch.Refused["none"] == "" || ch.Refused["upstream-backup"] != "" {
		t.Errorf("choices %+v", ch)
	}
}

// report typed while a run plays answers from the report so far and lets
// the run play on; it is not recorded.
func TestReportWhilePlayingKeepsPlaying(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 2})
	b.Handle(Request{Kind: Line, Line: "run 3000"})
	at := t0
	ticks(b, &at, 60, time.Second/30)
	b.Frame()
	n := len(b.Script())
	b.Handle(Request{Kind: Line, Line: "report"})
	rs := b.Frame().Results
	if !b.Playing() || len(rs) != 1 || !strings.HasPrefix(rs[0].Info, "so far: ") || len(b.Script()) != n {
		t.Errorf("playing %v, results %+v, script %d lines (was %d)", b.Playing(), rs, len(b.Script()), n)
	}
	if strings.Contains(rs[0].Info, "lost 0,") == false {
		t.Errorf("the report so far counts unprocessed records as lost: %s", rs[0].Info)
	}
}

// A step met early in a fast run is judged only when the run ends: at ×8
// count[1] dies and comes back within the run, yet no frame of the run
// shows step 2 done. Once it ends, step 2 is done and stays on screen;
// going on judges step 3 (the restart) on what the run already did.
func TestStepIsJudgedWhenItsRunEnds(t *testing.T) {
	l, err := lessons.Find("3")
	if err != nil {
		t.Fatal(err)
	}
	b := newBridge(t, Options{Seed: 1, Speed: 8})
	b.Handle(Request{Kind: OpenSession, Lesson: l, Done: 1, Seed: 7, Workspace: t.TempDir()})
	for _, line := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200", "run 6000"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	at := t0
	var sawDown, sawBack bool
	frames := 0
	for ; b.Playing() && frames < 2000; frames++ {
		ticks(b, &at, 1, time.Second/30)
		f := b.Frame()
		if f.Playing && f.Lesson.Done != 1 {
			t.Fatalf("frame %d of the run (clock %d ms): %d steps done, want 1 until the run ends", frames, f.ClockMS, f.Lesson.Done)
		}
		running := nodeState(f, "count[1]").State == engine.NodeRunning
		sawDown = sawDown || (f.Playing && !running)
		sawBack = sawBack || (f.Playing && sawDown && running)
	}
	if !sawBack {
		t.Fatal("count[1] never came back while the run played: the test shows nothing")
	}
	if f := b.Frame(); f.Lesson.Done != 2 || !f.Lesson.Held || f.Lesson.Fresh {
		t.Fatalf("after the run: %+v, want step 2 done and held", f.Lesson)
	}
	b.Handle(Request{Kind: GoOn})
	if f := b.Frame(); f.Lesson.Done != 3 || !f.Lesson.Held {
		t.Errorf("after going on: %+v, want step 3 (the restart, already seen) done and held", f.Lesson)
	}
}

// The key to go on judges a step mid-run: the learner need not wait for a
// long run to end once its goal holds.
func TestGoOnJudgesMidRun(t *testing.T) {
	l, err := lessons.Find("3")
	if err != nil {
		t.Fatal(err)
	}
	b := newBridge(t, Options{Seed: 1})
	b.Handle(Request{Kind: OpenSession, Lesson: l, Done: 1, Seed: 7, Workspace: t.TempDir()})
	for _, line := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200", "run 6000"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	at := t0
	b.Handle(Request{Kind: GoOn})
	if f := b.Frame(); f.Lesson.Done != 1 || f.Lesson.Held {
		t.Fatalf("going on before the kill: %+v, want step 2 still current", f.Lesson)
	}
	for i := 0; b.Playing() && i < 2000 && nodeState(b.Frame(), "count[1]").State == engine.NodeRunning; i++ {
		ticks(b, &at, 1, time.Second/30)
	}
	if !b.Playing() {
		t.Fatal("the run ended before count[1] died")
	}
	b.Handle(Request{Kind: GoOn})
	f := b.Frame()
	if !f.Playing || f.Lesson.Done < 2 {
		t.Errorf("going on after the kill, mid-run: playing %v, lesson %+v; want step 2 done", f.Playing, f.Lesson)
	}
}

// A follow-up in a new session ("then try n=1000 in a new session") stays
// in the step the learner has done: the restart with a new setting opens a
// new session, and the lesson is on the same step, held, until they go on.
func TestFollowUpStaysInItsStep(t *testing.T) {
	l, err := lessons.Find("5")
	if err != nil {
		t.Fatal(err)
	}
	b := newBridge(t, Options{Seed: 1})
	b.Handle(Request{Kind: OpenSession, Lesson: l, Done: 3, Seed: 7, Workspace: t.TempDir()})
	at := t0
	for _, line := range l.Steps[3].Solution {
		b.Handle(Request{Kind: Line, Line: line})
		playOut(t, b, &at)
	}
	if f := b.Frame(); f.Lesson.Done != 4 || !f.Lesson.Held || f.Lesson.Fresh {
		t.Fatalf("after step 4's lines: %+v, want step 4 done and held, no new session pending", f.Lesson)
	}
	gen := b.Frame().Gen
	b.Handle(Request{Kind: Reconfigure, Line: "set filter rotating n=1000 p=0.01"})
	for _, line := range []string{"kill filter at 1200", "run 3000", "run 30s"} {
		b.Handle(Request{Kind: Line, Line: line})
		playOut(t, b, &at)
	}
	f := b.Frame()
	if f.Gen == gen || f.Lesson.Done != 4 || !f.Lesson.Held {
		t.Errorf("after the follow-up: session %d (was %d), lesson %+v; want a new session, step 4 still held", f.Gen, gen, f.Lesson)
	}
	// A job line, as the lesson's "in a new session" reads, opens one.
	gen = f.Gen
	for _, line := range []string{"job passthrough", "set mode append", "set semantics at-least-once", "set filter rotating n=1000 p=0.01", "kill filter at 1200", "run 3000"} {
		b.Handle(Request{Kind: Line, Line: line})
		if rs := b.Frame().Results; len(rs) > 0 && rs[len(rs)-1].Err != "" {
			t.Fatalf("%q: %s", line, rs[len(rs)-1].Err)
		}
		playOut(t, b, &at)
	}
	if f = b.Frame(); f.Gen == gen || f.Lesson.Done != 4 || !f.Lesson.Held || f.Settings["filter"] != "rotating n=1000 p=0.01" {
		t.Errorf("after a job line on the step done: session %d (was %d), lesson %+v, filter %q", f.Gen, gen, f.Lesson, f.Settings["filter"])
	}
	b.Handle(Request{Kind: GoOn})
	if f := b.Frame(); f.Lesson.Done != 4 || f.Lesson.Held || !f.Lesson.Fresh {
		t.Errorf("after going on: %+v, want step 5 current, its session to be opened by its first line", f.Lesson)
	}
}

// A run typed while time runs by itself plays, then time runs on; typed
// while paused, the lab is paused again once it has played.
func TestPlayedRunRestoresRunningOrPaused(t *testing.T) {
	for _, running := range []bool{true, false} {
		b := newBridge(t, Options{Job: "clicks", Seed: 1, Running: running})
		at := t0
		ticks(b, &at, 3, time.Second/30)
		b.Handle(Request{Kind: Line, Line: "run 200"})
		if !b.Playing() || b.Frame().Paused {
			t.Fatalf("running %v: run 200 is not playing", running)
		}
		for i := 0; b.Playing() && i < 200; i++ {
			ticks(b, &at, 1, time.Second/30)
		}
		if b.Playing() {
			t.Fatalf("running %v: run 200 still playing", running)
		}
		if got := b.Frame().Paused; got == running {
			t.Errorf("time was running %v before the run; paused %v after it", running, got)
		}
		before := b.Frame().Snap.Admitted
		ticks(b, &at, 45, time.Second/30)
		if moved := b.Frame().Snap.Admitted > before; moved != running {
			t.Errorf("running %v: records admitted after the run: %v", running, moved)
		}
	}
}

// A lab closed while it fast-forwards a huge run (a dropped connection, an
// idle timeout) stops the work: the run and the failure-free run its report
// is compared with both give up when the lab's context ends, so a student
// who leaves cannot keep the server busy.
func TestFinishingAHugeRunStopsWithTheLab(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	b.ctx = ctx
	for _, line := range []string{"set window 1s", "set window.slide 1ms", "run 10000000"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	if !b.Playing() {
		t.Fatal("run 10000000 is not playing")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.Handle(Request{Kind: Finish})
		at := t0
		for b.Playing() {
			ticks(b, &at, 1, time.Second/30)
		}
	}()
	// A billion window updates take minutes; the cancel lands inside them.
	time.AfterFunc(200*time.Millisecond, cancel)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("finishing the run went on for 10 s after the lab's context ended")
	}
}

// A job that fails while a run plays stops the lab's clock where it
// failed: the clock never shows the rest of the admitted time, and the
// note says when the job failed.
func TestAFailedJobStopsTheClock(t *testing.T) {
	b := newBridge(t, Options{Seed: 1})
	b.Handle(Request{Kind: OpenSession, Seed: 7, Workspace: t.TempDir()})
	for _, line := range []string{"job clicks", "set semantics at-least-once", "set restart none", "kill count[1] at 1200", "run 30s"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	at := t0
	var f Frame
	var notes []string
	for i := 0; b.Playing() && i < 2000; i++ {
		ticks(b, &at, 1, time.Second/30)
		f = b.Frame()
		for _, r := range f.Results {
			notes = append(notes, r.Info)
		}
		if f.Snap.State == engine.StateFailed && f.ClockMS != f.Snap.FailedAtMS {
			t.Fatalf("frame %d: the job failed at %d, the clock shows %d", i, f.Snap.FailedAtMS, f.ClockMS)
		}
	}
	f = b.Frame()
	if f.Snap.State != engine.StateFailed || f.Snap.FailedAtMS >= 29_000 || f.ClockMS != f.Snap.FailedAtMS {
		t.Fatalf("job %s failed at %d, clock %d: the clock ran on past the failure", f.Snap.State, f.Snap.FailedAtMS, f.ClockMS)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "the job failed at t "+clockText(f.ClockMS)) {
		t.Errorf("no note of the failure's time in %q", notes)
	}
}

// TestLongRunsYieldWithoutChangingThem checks that a run calls the Yield
// hook as it goes, and ends where the same run without the hook does.
func TestLongRunsYieldWithoutChangingThem(t *testing.T) {
	yields := 0
	hooked := newBridge(t, Options{Job: "clicks", Seed: 1, Speed: Max, Yield: func() { yields++ }})
	plain := newBridge(t, Options{Job: "clicks", Seed: 1, Speed: Max})
	for _, b := range []*Bridge{hooked, plain} {
		b.Handle(Request{Kind: Line, Line: "run 20000"})
		tickToEnd(t, b)
	}
	if yields < 2 {
		t.Errorf("a run of 20000 records yielded %d times", yields)
	}
	h, p := hooked.Frame().Snap, plain.Frame().Snap
	if h.Steps != p.Steps || h.Offset != p.Offset || h.Batches != p.Batches {
		t.Errorf("with yields: %d steps, offset %d, %d batches; without: %d, %d, %d",
			h.Steps, h.Offset, h.Batches, p.Steps, p.Offset, p.Batches)
	}
}
