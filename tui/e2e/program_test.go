package e2e

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/streamlab/streamlab/tui"
	"github.com/streamlab/streamlab/tui/bridge"
)

// program starts the whole terminal lab — root model, real bridge, real
// engine — at 120×40 on a manual clock that a goroutine advances as fast as
// the bridge takes it, so time passes without the test ever sleeping. It
// returns the test model and a wait for a pattern on screen; the cleanup
// stops both goroutines.
func program(t *testing.T, opts tui.Options, patience time.Duration) (*teatest.TestModel, func(*regexp.Regexp)) {
	t.Helper()
	clock := bridge.NewManualClock(t0)
	opts.Clock = clock
	b, err := bridge.New(bridge.Options{Job: opts.Job, Seed: opts.Seed, Speed: opts.Speed, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	bridgeDone, tickerDone := make(chan struct{}), make(chan struct{})
	go func() { b.Run(ctx); close(bridgeDone) }()
	go func() {
		defer close(tickerDone)
		for clock.AdvanceContext(ctx, 50*time.Millisecond) {
		}
	}()
	t.Cleanup(func() { cancel(); <-bridgeDone; <-tickerDone })

	tm := teatest.NewTestModel(t, tui.New(opts, b), teatest.WithInitialTermSize(120, 40))
	waitFor := func(re *regexp.Regexp) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(out []byte) bool { return re.Match(out) },
			teatest.WithDuration(patience), teatest.WithCheckInterval(20*time.Millisecond))
	}
	return tm, waitFor
}
