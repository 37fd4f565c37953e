package classroom

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/tui/bridge"
)

func TestMeterCountsCPUNotWaiting(t *testing.T) {
	var m labMeter
	m.Draw(func() { time.Sleep(100 * time.Millisecond) })
	if slept := m.usage().CPU; slept > 20*time.Millisecond {
		t.Errorf("sleeping 100 ms counted %v of CPU", slept)
	}
	before := m.usage().CPU
	m.Engine(func() {
		// Work until the thread has used 30 ms of CPU, however long that
		// takes on a busy machine.
		for start := threadCPU(); threadCPU()-start < 30*time.Millisecond; {
		}
	})
	if got := m.usage().CPU - before; got < 30*time.Millisecond || got > 2*time.Second {
		t.Errorf("30 ms of work counted %v of CPU", got)
	}
}

func TestHeldBytesIsWhatTheSnapshotHolds(t *testing.T) {
	snap := &engine.Snapshot{
		Backup: 3,
		Rows:   make([]engine.Record, 2),
		Nodes:  []engine.NodeSnapshot{{Queue: 4, Held: 1}, {Queue: 2}},
		Filter: &engine.FilterStats{Stats: filter.Stats{Bytes: 1000}},
		Holds:  50_000,
	}
	if got, want := heldBytes(snap), 12*recordBytes+1000+50_000; got != want {
		t.Errorf("heldBytes = %d, want %d", got, want)
	}
	var m labMeter
	m.Frame(snap)
	if m.usage().Holds != 12*recordBytes+1000+50_000 {
		t.Errorf("the meter keeps %d bytes held", m.usage().Holds)
	}
}

// TestServerReportsEachLabsCost checks that a student's running lab shows
// its CPU and memory in Usage and in the live file, and that the live
// file has no lab open once the server stops.
func TestServerReportsEachLabsCost(t *testing.T) {
	state := State{Dir: t.TempDir()}
	ts := startServer(t, Config{State: state})
	key := newKey(t)
	id := StudentID(key.PublicKey())
	s := connect(t, ts.addr, "ann", key, 120, 40)
	s.waitFor(0, `Lessons 0/\d+`)
	s.press("\r\r", `ready`)
	s.press(" ", `running`)
	waitUntil(t, func() bool {
		u, ok := ts.Usage()[id]
		return ok && u.CPU > 0 && u.Holds > 0
	}, "ann's lab to show CPU and memory")
	waitUntil(t, func() bool {
		live, err := state.ReadLive(time.Now())
		return err == nil && live.Labs[id].CPU > 0 && live.Online()[id]
	}, "the live file to show ann's lab")
	ts.stop(t)
	s.conn.Close()
	live, err := state.ReadLive(time.Now())
	if err != nil || len(live.Labs) != 0 {
		t.Errorf("after the stop the live file has %v (%v), want no lab open", live.Labs, err)
	}
}

func TestStaleLiveFileIsNoOneOnline(t *testing.T) {
	state := State{Dir: t.TempDir()}
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if err := state.WriteLive(Live{At: at, Labs: map[string]Usage{"a": {CPU: time.Second}}}); err != nil {
		t.Fatal(err)
	}
	if live, err := state.ReadLive(at.Add(time.Second)); err != nil || !live.Online()["a"] || live.Labs["a"].CPU != time.Second {
		t.Errorf("a fresh file reads %+v, %v", live, err)
	}
	if live, err := state.ReadLive(at.Add(liveStale + time.Second)); err != nil || len(live.Labs) != 0 {
		t.Errorf("a stale file reads %+v, %v: want no one online", live, err)
	}
}

// burn works until the thread has used d of CPU.
func burn(d time.Duration) {
	for start := threadCPU(); threadCPU()-start < d; {
	}
}

// TestLongRunsTakeTurns checks that two labs' long runs share one slot:
// past longRun, their steps are never taken at the same time, and both
// finish; a short piece of work never waits.
func TestLongRunsTakeTurns(t *testing.T) {
	shared := &turns{slots: make(chan struct{}, 1)}
	var inTurn, most atomic.Int32
	var turnsTaken [2]int
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := &labMeter{turn: turn{of: shared, ctx: context.Background()}}
			m.Engine(func() {
				for start := threadCPU(); threadCPU()-start < longRun+10*turnLength; {
					m.Yield()
					if !m.turn.held {
						burn(time.Millisecond)
						continue
					}
					turnsTaken[i]++
					n := inTurn.Add(1)
					for o := most.Load(); n > o && !most.CompareAndSwap(o, n); o = most.Load() {
					}
					burn(time.Millisecond)
					inTurn.Add(-1)
				}
			})
			if m.turn.held {
				t.Error("a turn is still held after the work ended")
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 || turnsTaken[0] == 0 || turnsTaken[1] == 0 {
		t.Errorf("at most %d runs in turn at once (want 1); steps in turn %v (want both > 0)", most.Load(), turnsTaken)
	}
	if len(shared.slots) != 0 {
		t.Error("a slot was never given back")
	}
	// A short piece of work runs while another lab holds the only slot.
	shared.slots <- struct{}{}
	m := &labMeter{turn: turn{of: shared, ctx: context.Background()}}
	m.Engine(func() { m.Yield() })
	// A long run waiting for the slot stops waiting when its lab closes.
	ctx, cancel := context.WithCancel(context.Background())
	m = &labMeter{turn: turn{of: shared, ctx: ctx}}
	time.AfterFunc(50*time.Millisecond, cancel)
	m.Engine(func() {
		burn(longRun)
		m.Yield()
	})
}

// TestStillLabSendsNothing checks that a lab whose screen does not change
// sends no bytes while its clock ticks on, and that one playing does: a
// frame that did not change is not sent. It counts the lab's clock ticks
// and the frames its screen takes rather than watching the wall clock: a
// still lab takes no frame in 100 ticks and sends nothing meanwhile; a
// playing one takes frames and sends them, however slowly the machine
// goes.
func TestStillLabSendsNothing(t *testing.T) {
	var ticks atomic.Int64
	ts := startServer(t, Config{State: State{Dir: t.TempDir()}, NewClock: countingClock(&ticks)})
	defer ts.stop(t)
	key := newKey(t)
	s := connect(t, ts.addr, "ann", key, 120, 40)
	s.waitFor(0, `Lessons 0/\d+`)
	s.press("\r\r", `ready`)
	frames := func() int64 { return ts.meterOf(t, StudentID(key.PublicKey())).frames.Load() }
	// still waits until n ticks pass with no frame taken, and then for
	// the screen's renderer to have sent what it had (a few of its 60
	// ticks a second).
	still := func(n int64) bool {
		f, at := frames(), ticks.Load()
		waitUntil(t, func() bool { return ticks.Load() >= at+n || frames() != f }, "the lab's clock to tick")
		time.Sleep(100 * time.Millisecond)
		return frames() == f
	}
	for deadline := time.Now().Add(patience); !still(20); { // the opening frames
		if time.Now().After(deadline) {
			t.Fatal("the paused lab never stopped taking frames")
		}
	}
	m, f := s.mark(), frames()
	if !still(100) {
		t.Errorf("a paused lab took %d frames in 100 ticks", frames()-f)
	}
	if sent := s.mark() - m; sent != 0 {
		t.Errorf("a paused lab sent %d bytes in 100 ticks: %q", sent, s.screen(m))
	}
	s.press(" ", `running`)
	m, f = s.mark(), frames()
	waitUntil(t, func() bool { return frames() >= f+5 && s.mark() > m }, "a playing lab to take frames and send them")
}

// countingClock is the test server's clock that counts its ticks.
func countingClock(ticks *atomic.Int64) func(ctx context.Context) bridge.Clock {
	return func(ctx context.Context) bridge.Clock {
		c := bridge.NewManualClock(t0)
		go func() {
			for c.AdvanceContext(ctx, 50*time.Millisecond) {
				ticks.Add(1)
			}
		}()
		return c
	}
}

// meterOf is student id's open lab's meter.
func (ts *testServer) meterOf(t *testing.T, id string) *labMeter {
	t.Helper()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	lab := ts.open[id]
	if lab == nil {
		t.Fatalf("%s has no lab open", id)
	}
	return &lab.meter
}

// TestHoldsGrowsWithTheWindows checks the HOLDS of a lab whose windows
// pile up (counted per device, sliding by 10 ms, with no watermark to
// close them) against an oracle the meter does not compute: the heap the
// run's growth takes. The meter sees the frames the lab draws.
func TestHoldsGrowsWithTheWindows(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	spec.Operators = append([]jobspec.Operator(nil), spec.Operators...)
	for i := range spec.Operators {
		if spec.Operators[i].Kind == jobspec.KindWindowCount {
			spec.Operators[i].Window, spec.Operators[i].Slide = time.Second, 10*time.Millisecond
			spec.Operators[i].Key = jobspec.KeyDevice
		}
	}
	spec.Source.Watermark, spec.Source.Devices = -1, 100_000
	rt, err := engine.New(spec, engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var m labMeter
	frame := func(records int64) (holds, heap int64) {
		rt.Admit(records)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		snap := rt.Snapshot()
		m.Frame(&snap)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return m.usage().Holds, int64(ms.HeapAlloc)
	}
	holds0, heap0 := frame(1000)
	holds1, heap1 := frame(4000)
	said, grew := holds1-holds0, heap1-heap0
	t.Logf("HOLDS %d → %d; the heap grew by %d (%.2f)", holds0, holds1, grew, float64(said)/float64(grew))
	if grew < 50<<20 {
		t.Fatalf("the heap grew by %d bytes only; the test needs a growing state", grew)
	}
	if float64(said) < 0.6*float64(grew) || float64(said) > 1.5*float64(grew) {
		t.Errorf("the heap grew by %d bytes, HOLDS by %d: not about the same", grew, said)
	}
}

// TestServedLabRefusesAFilterPastItsBudget: in a served lab, a Bloom
// filter bigger than a student's memory budget is refused at once, and
// the student is told its size and the budget.
func TestServedLabRefusesAFilterPastItsBudget(t *testing.T) {
	ts := startServer(t, Config{State: State{Dir: t.TempDir()}})
	defer ts.stop(t)
	s := connect(t, ts.addr, "ann", newKey(t), 200, 40)
	s.waitFor(0, `Lessons 0/\d+`)
	s.press(keyEnter+keyEnter, `ready`)
	s.press(":", `a lab-script line`)
	s.press("set filter bloom m=1000000000 k=3\r", `125\.0 MB of bits before a record comes, of the 64\.0 MB`)
}
