package bridge

import (
	"context"
	"time"
)

// Clock is where the bridge gets wall time from. It is injected so that
// tests drive time by hand: nothing in the bridge reads the wall clock
// directly.
type Clock interface {
	Now() time.Time
	// NewTicker returns a ticker that fires every d.
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers the bridge's frame ticks.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// WallClock is the real clock.
type WallClock struct{}

// Now returns the current wall time.
func (WallClock) Now() time.Time { return time.Now() }

// NewTicker returns a time.Ticker.
func (WallClock) NewTicker(d time.Duration) Ticker { return wallTicker{time.NewTicker(d)} }

type wallTicker struct{ t *time.Ticker }

func (w wallTicker) C() <-chan time.Time { return w.t.C }
func (w wallTicker) Stop()               { w.t.Stop() }

// ManualClock is a clock that moves only when told to: Advance moves it on
// and fires its ticker once. Tests use it to run the bridge's loop without
// sleeping or depending on the machine's speed.
type ManualClock struct {
	now time.Time
	c   chan time.Time
}

// NewManualClock starts a manual clock at start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start, c: make(chan time.Time)}
}

// Now returns the clock's time.
func (m *ManualClock) Now() time.Time { return m.now }

// NewTicker returns the clock's one ticker; d is ignored.
func (m *ManualClock) NewTicker(time.Duration) Ticker { return manualTicker{m.c} }

// Advance moves the clock on by d and delivers a tick, blocking until the
// bridge's loop takes it. Only one goroutine may call it.
func (m *ManualClock) Advance(d time.Duration) {
	m.now = m.now.Add(d)
	m.c <- m.now
}

// AdvanceContext is Advance that gives up when ctx is done (the bridge has
// stopped taking ticks); it reports whether the tick was delivered.
func (m *ManualClock) AdvanceContext(ctx context.Context, d time.Duration) bool {
	m.now = m.now.Add(d)
	select {
	case m.c <- m.now:
		return true
	case <-ctx.Done():
		return false
	}
}

type manualTicker struct{ c chan time.Time }

func (t manualTicker) C() <-chan time.Time { return t.c }
func (t manualTicker) Stop()               {}
