package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newBridge(t *testing.T, opts Options) *Bridge {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = NewManualClock(t0)
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.closeSession)
	return b
}

// ticks calls Tick n times, dt apart, starting after *at.
func ticks(b *Bridge, at *time.Time, n int, dt time.Duration) {
	for range n {
		*at = at.Add(dt)
		b.Tick(*at)
	}
}

// playOut ticks a typed run to its end at ×speed, a frame at a time,
// observing the lesson as the loop in Run does.
func playOut(t *testing.T, b *Bridge, at *time.Time) {
	t.Helper()
	for i := 0; b.Playing(); i++ {
		if i > 100_000 {
			t.Fatal("a played run did not end")
		}
		ticks(b, at, 1, time.Second/30)
		if b.lesson.due {
			b.observe()
		}
		b.Publish()
	}
}

// finish fast-forwards the typed run in flight to its end as the
// fast-forward key does, and returns the events heard meanwhile.
func finish(t *testing.T, b *Bridge) []bus.Event {
	t.Helper()
	b.Handle(Request{Kind: Finish})
	return tickToEnd(t, b)
}

// tickToEnd ticks the typed run in flight to its end, a frame a tick, and
// returns the events of those frames.
func tickToEnd(t *testing.T, b *Bridge) []bus.Event {
	t.Helper()
	heard := b.Frame().Events
	at := b.pace.lastTick
	for n := 0; b.Playing(); n++ {
		if n > 100_000 {
			t.Fatal("a fast-forwarded run did not end")
		}
		ticks(b, &at, 1, time.Second/30)
		heard = append(heard, b.Frame().Events...)
	}
	return heard
}

func results(fs ...Frame) []Result {
	var out []Result
	for _, f := range fs {
		out = append(out, f.Results...)
	}
	return out
}

func TestPreviewBeforeRun(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	f := b.Frame()
	if f.Started || !f.Paused {
		t.Fatalf("started=%v paused=%v, want a paused, unstarted session", f.Started, f.Paused)
	}
	var names []string
	for _, n := range f.Snap.Nodes {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, " "); got != "source parse count[0] count[1] sink" {
		t.Errorf("nodes = %q", got)
	}
	if got := strings.Join(f.Script, "|"); got != "job clicks|set seed 1" {
		t.Errorf("script = %q", got)
	}
}

func TestTicksAdmitQuantaPacedOverWallTime(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1, Speed: 1, Running: true})
	at := t0
	b.Tick(at)
	ticks(b, &at, 15, 33*time.Millisecond) // about half a second
	f := b.Frame()
	if !f.Started {
		t.Fatal("not started after ticks")
	}
	if got := f.Script[len(f.Script)-1]; got != "run 1s" {
		t.Fatalf("last line %q, want run 1s", got)
	}
	mid := f.Snap.Nodes[len(f.Snap.Nodes)-1].In
	ticks(b, &at, 20, 33*time.Millisecond)
	f = b.Frame()
	if n := strings.Count(strings.Join(f.Script, "\n"), "run 1s"); n != 2 {
		t.Fatalf("%d run lines after 1.1 s at ×1, want 2:\n%s", n, strings.Join(f.Script, "\n"))
	}
	if f.Snap.Nodes[0].In < 100 || f.Snap.Nodes[len(f.Snap.Nodes)-1].In <= mid {
		t.Errorf("records did not flow: source in %d, sink in %d (was %d)", f.Snap.Nodes[0].In, f.Snap.Nodes[len(f.Snap.Nodes)-1].In, mid)
	}
	if f.ClockMS < 1000 || f.ClockMS > 1300 {
		t.Errorf("virtual clock %d ms after 1.2 s at ×1", f.ClockMS)
	}
}

// TestRecordingReplaysToTheSameReport is the bridge's promise: whatever the
// learner did, the recorded script run headless gives the same report.
func TestRecordingReplaysToTheSameReport(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 3, Speed: 2, Running: true})
	// Without checkpoints the job restarts only with a strategy set.
	b.Handle(Request{Kind: Line, Line: "set restart exponential-delay"})
	at := t0
	b.Tick(at)
	ticks(b, &at, 40, 33*time.Millisecond)
	b.Handle(Request{Kind: Line, Line: "kill count[1]"}) // mid-quantum: placed at its next record
	ticks(b, &at, 10, 33*time.Millisecond)
	b.Handle(Request{Kind: SetSpeed, Speed: Max})
	ticks(b, &at, 3, 33*time.Millisecond)
	b.Handle(Request{Kind: SetSpeed, Speed: 0.25})
	ticks(b, &at, 7, 33*time.Millisecond)
	b.Handle(Request{Kind: Pause})
	for range 5 {
		b.Handle(Request{Kind: StepOne})
	}
	b.Handle(Request{Kind: Line, Line: "run 250"})
	b.Handle(Request{Kind: Line, Line: "step 3"})
	b.Handle(Request{Kind: Line, Line: "set mode append"}) // too late: an error
	b.Handle(Request{Kind: Line, Line: "expect lost == 0"})
	b.Handle(Request{Kind: Resume})
	ticks(b, &at, 10, 33*time.Millisecond)
	b.Handle(Request{Kind: Pause})
	b.finishQuantum()

	live, err := b.Session().Report()
	if err != nil {
		t.Fatal(err)
	}
	src := "# header\n# header\n" + strings.Join(b.Script(), "\n") + "\n"
	res, err := lab.RunScript(context.Background(), "saved.lab", []byte(src), lab.Options{})
	replayed := res.Report
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	lj, _ := json.MarshalIndent(live, "", " ")
	rj, _ := json.MarshalIndent(replayed, "", " ")
	if !bytes.Equal(lj, rj) {
		t.Errorf("live and replayed reports differ\nscript:\n%s\nlive:\n%s\nreplayed:\n%s", src, lj, rj)
	}
	var errs []string
	for _, r := range results(b.Frame()) {
		if r.Err != "" {
			errs = append(errs, r.Line)
		}
	}
	// A set after the first run is refused, and the kill lost records, so
	// the expectation of no loss does not hold; everything else works.
	if got := strings.Join(errs, "|"); got != "set mode append|expect lost == 0" {
		t.Errorf("errors for %q, want the late set and the failed expectation", got)
	}
}

func TestStepOneAdmitsThenSteps(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	b.Handle(Request{Kind: StepOne})
	f := b.Frame()
	if !f.Paused || !f.Started || f.Snap.Steps != 1 {
		t.Fatalf("paused=%v started=%v steps=%d", f.Paused, f.Started, f.Snap.Steps)
	}
	if got := f.Script[len(f.Script)-1]; got != "run 1s" {
		t.Errorf("step recorded %q, want the admission run 1s", got)
	}
	b.Handle(Request{Kind: StepOne})
	if f = b.Frame(); f.Snap.Steps != 2 || len(f.Script) != 3 {
		t.Errorf("second step: steps=%d lines=%d", f.Snap.Steps, len(f.Script))
	}
}

func TestReconfigureRestartsWithTheNewSetting(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	b.Handle(Request{Kind: Line, Line: "set mode complete"})
	b.Handle(Request{Kind: Line, Line: "run 2s"})
	gen := b.Frame().Gen
	b.Handle(Request{Kind: Reconfigure, Line: "set mode append"})
	f := b.Frame()
	if f.Gen != gen+1 || f.Started {
		t.Fatalf("gen %d→%d started=%v", gen, f.Gen, f.Started)
	}
	if got := strings.Join(f.Script, "|"); got != "job clicks|set seed 1|set mode append" {
		t.Errorf("script %q", got)
	}
	if f.Settings["mode"] != "append" {
		t.Errorf("mode setting %q", f.Settings["mode"])
	}
	b.Handle(Request{Kind: Reconfigure, Line: "job passthrough"}) // append is fine without aggregation
	if got := strings.Join(b.Frame().Script, "|"); got != "job passthrough|set seed 1|set mode append" {
		t.Errorf("script %q", got)
	}
	b.Handle(Request{Kind: Reconfigure, Line: "set mode complete"}) // complete needs an aggregation
	f = b.Frame()
	if len(f.Results) == 0 || f.Results[len(f.Results)-1].Err == "" {
		t.Errorf("a rejected restart reported no error: %+v", f.Results)
	}
	if f.Settings["job"] != "passthrough" || f.Settings["mode"] != "append" {
		t.Errorf("a rejected restart changed the session: %v", f.Settings)
	}
}

func TestSaveWritesAReplayableFileAtomically(t *testing.T) {
	dir := t.TempDir()
	b := newBridge(t, Options{Job: "passthrough", Seed: 2})
	b.Handle(Request{Kind: Line, Line: "run 3s"})
	b.Handle(Request{Kind: Save, Dir: dir})
	b.Handle(Request{Kind: Save, Dir: dir})
	rs := results(b.Frame())
	var saved []string
	for _, r := range rs {
		if r.Saved != "" {
			saved = append(saved, r.Saved)
		}
	}
	if len(saved) != 2 || saved[0] == saved[1] {
		t.Fatalf("saved %v", saved)
	}
	if filepath.Base(saved[0]) != "streamlab-20260102-030405.lab" {
		t.Errorf("name %s", saved[0])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files in the directory, want 2 (no temporary left)", len(entries))
	}
	data, err := os.ReadFile(saved[0])
	if err != nil {
		t.Fatal(err)
	}
	res, err := lab.RunScript(context.Background(), saved[0], data, lab.Options{})
	rep := res.Report
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rep.Job.Name != "passthrough" || rep.Source.Records != 300 {
		t.Errorf("replayed %s with %d records", rep.Job.Name, rep.Source.Records)
	}
}

func TestRunLoopPublishesAndStops(t *testing.T) {
	clock := NewManualClock(t0)
	b := newBridge(t, Options{Job: "clicks", Seed: 1, Clock: clock, Running: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- b.Run(ctx) }()
	first := <-b.Frames()
	if first.Started {
		t.Fatal("first frame started")
	}
	var f Frame
	for f.Snap.Ledger.Delivered == 0 {
		clock.Advance(100 * time.Millisecond)
		f = <-b.Frames()
	}
	if !b.Send(Request{Kind: Line, Line: "restart count[0]"}) {
		t.Fatal("send refused")
	}
	for len(f.Results) == 0 || f.Results[len(f.Results)-1].Line != "restart count[0]" {
		clock.Advance(100 * time.Millisecond)
		f = <-b.Frames()
	}
	if f.Results[len(f.Results)-1].Err == "" {
		t.Log("restart is available in this engine")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, ok := <-b.Frames(); ok {
		t.Fatal("frames not closed")
	}
}

func TestSpeedLevels(t *testing.T) {
	if Faster(1) != 2 || Slower(1) != 0.5 || Slower(0.25) != 0.25 || !IsMax(Faster(64)) || !IsMax(Faster(Max)) || Slower(Max) != 64 {
		t.Error("speed levels")
	}
	if SnapSpeed(3) != 4 || SnapSpeed(0) != 1 || !IsMax(SnapSpeed(1000)) {
		t.Error("snap")
	}
	if FormatSpeed(0.25) != "×0.25" || FormatSpeed(Max) != "×max" {
		t.Error("format")
	}
	if quantum(0.25) != time.Second || quantum(64) != 64*time.Second || formatDuration(1500*time.Millisecond) != "1500ms" {
		t.Error("quantum")
	}
}

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func TestPanicInTheEngineBecomesAMessage(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1, Running: true})
	func() {
		defer b.guard("a test")
		panic("boom")
	}()
	f := b.Frame()
	if !f.Paused || !strings.Contains(f.Fatal, "boom") {
		t.Fatalf("paused=%v fatal=%q", f.Paused, f.Fatal)
	}
	b.Handle(Request{Kind: Resume})
	if f = b.Frame(); !f.Paused || len(f.Results) == 0 || f.Results[0].Err == "" {
		t.Errorf("resumed a broken session: %+v", f.Results)
	}
	b.Handle(Request{Kind: Open, Job: "passthrough"})
	if f = b.Frame(); f.Fatal != "" || f.Settings["job"] != "passthrough" {
		t.Errorf("opening a job did not recover: %q %v", f.Fatal, f.Settings)
	}
}

func TestErrorsLoseTheirPosition(t *testing.T) {
	b := newBridge(t, Options{Job: "clicks", Seed: 1})
	b.Handle(Request{Kind: Line, Line: "set mode sideways"})
	rs := b.Frame().Results
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Err, "unknown output mode") {
		t.Errorf("results %+v", rs)
	}
}

func TestProbeWatchesAnIdInEveryFrame(t *testing.T) {
	b := newBridge(t, Options{Job: "passthrough", Seed: 1})
	for _, line := range []string{"set semantics at-least-once", "set mode append", "set filter bloom m=512 k=3", "run 2s"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	finish(t, b)
	f := b.Frame()
	if f.Probe != nil {
		t.Fatalf("a probe before any was asked: %+v", f.Probe)
	}
	if len(f.Snap.Rows) == 0 {
		t.Fatal("no rows to probe")
	}
	row := f.Snap.Rows[len(f.Snap.Rows)-1]
	id := engine.DedupID(row)
	b.Handle(Request{Kind: Probe, ID: id})
	f = b.Frame()
	if f.Probe == nil || f.Probe.ID != id || len(f.Probe.Bits) != 3 {
		t.Fatalf("probe %+v, want the 3 bits of %d", f.Probe, id)
	}
	for _, p := range f.Probe.Bits {
		if !p.Set || p.Bit >= 512 {
			t.Errorf("a row the sink holds passed the filter, so its bits are set: %+v", p)
		}
	}
	if n := len(b.Script()); strings.Contains(strings.Join(b.Script(), "|"), "probe") || n == 0 {
		t.Errorf("a probe was recorded: %q", b.Script())
	}
	if f = b.Frame(); f.Probe == nil {
		t.Error("the next frame forgot the watched id")
	}
	b.Handle(Request{Kind: StopProbe})
	if f = b.Frame(); f.Probe != nil {
		t.Errorf("still probing after StopProbe: %+v", f.Probe)
	}
	b.Handle(Request{Kind: Probe, ID: id})
	b.Handle(Request{Kind: Reconfigure, Line: "set filter exact"})
	if f = b.Frame(); f.Probe != nil {
		t.Errorf("a new session kept the old probe: %+v", f.Probe)
	}
}

// TestHomeIsShownAsTilde: a served lab's bridge names the student's own
// directory as ~ in what it tells, never as where the server keeps it.
func TestHomeIsShownAsTilde(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "answers")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := newBridge(t, Options{Job: "passthrough", Seed: 2, Home: home})
	b.Handle(Request{Kind: Line, Line: "run 1s"})
	b.Handle(Request{Kind: Save, Dir: dir})
	b.Handle(Request{Kind: Open, Job: filepath.Join(home, "nosuch.yaml")})
	var told []string
	for _, r := range results(b.Frame()) {
		told = append(told, r.Info, r.Err, r.Saved)
	}
	all := strings.Join(told, "\n")
	if strings.Contains(all, home) || !strings.Contains(all, "saved 3 lines to ~/answers/streamlab-") || !strings.Contains(all, "~/nosuch.yaml") {
		t.Errorf("what the lab told:\n%s", all)
	}
	if _, err := os.Stat(filepath.Join(dir, "streamlab-20260102-030405.lab")); err != nil {
		t.Errorf("the file itself is where it belongs: %v", err)
	}
}
