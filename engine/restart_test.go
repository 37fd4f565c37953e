package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// Flink's documented defaults (Task Failure Recovery; exponential-delay as
// of Flink 1.19, FLINK-33736: max backoff 1 min, multiplier 1.5).
func TestRestartDefaultsAreFlinks(t *testing.T) {
	fixed, _ := DefaultRestart(RestartFixedDelay)
	rate, _ := DefaultRestart(RestartFailureRate)
	exp, _ := DefaultRestart(RestartExponential)
	if fixed.Attempts != 1 || fixed.Delay != time.Second {
		t.Errorf("fixed-delay defaults: %+v", fixed)
	}
	if rate.Max != 1 || rate.Interval != time.Minute || rate.Delay != time.Second {
		t.Errorf("failure-rate defaults: %+v", rate)
	}
	if exp.Initial != time.Second || exp.MaxBackoff != time.Minute || exp.Multiplier != 1.5 || exp.Reset != time.Hour || exp.Jitter != 0.1 || exp.Attempts != 0 {
		t.Errorf("exponential-delay defaults: %+v", exp)
	}
	if _, err := ParseRestart("sometimes", nil); err == nil {
		t.Error("an unknown strategy must be an error")
	}
}

func strategy(t *testing.T, kind string, params map[string]string) *backoff {
	t.Helper()
	s, err := ParseRestart(kind, params)
	if err != nil {
		t.Fatal(err)
	}
	return newBackoff(s, 1)
}

func TestFixedDelayGivesUpAfterItsAttempts(t *testing.T) {
	b := strategy(t, RestartFixedDelay, map[string]string{"attempts": "3", "delay": "10s"})
	for i := range 3 {
		if d, err := b.onFailure(int64(i) * 60_000); err != nil || d != 10_000 {
			t.Fatalf("failure %d: delay %d, err %v", i+1, d, err)
		}
	}
	_, err := b.onFailure(200_000)
	if err == nil || !strings.Contains(err.Error(), "recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)") {
		t.Fatalf("the 4th failure must fail the job, got %v", err)
	}
}

func TestFailureRateGivesUpWhenTooManyFallInTheInterval(t *testing.T) {
	b := strategy(t, RestartFailureRate, map[string]string{"max": "3", "interval": "5m", "delay": "10s"})
	// Three failures within five minutes are tolerated...
	for _, at := range []int64{0, 60_000, 120_000} {
		if _, err := b.onFailure(at); err != nil {
			t.Fatalf("failure at %d: %v", at, err)
		}
	}
	// ...and once the first has left the interval, a fourth is too.
	if _, err := b.onFailure(310_000); err != nil {
		t.Fatalf("a failure after the first left the interval: %v", err)
	}
	// A fifth within five minutes of the last three is one too many.
	if _, err := b.onFailure(320_000); err == nil || !strings.Contains(err.Error(), "FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=300000, backoffTimeMS=10000, maxFailuresPerInterval=3)") {
		t.Fatalf("four failures within the interval must fail the job, got %v", err)
	}
}

// Flink 1.19's ExponentialDelayRestartBackoffTimeStrategy: attempt a waits
// initial·multiplier^a within [initial, max]; a failure more than the reset
// threshold after the scheduled restart starts over.
func TestExponentialDelayGrowsCapsAndResets(t *testing.T) {
	b := strategy(t, RestartExponential, map[string]string{"initial": "1s", "max": "10s", "multiplier": "2", "reset": "1h", "jitter": "0"})
	var got []int64
	now, last := int64(0), int64(0)
	for range 6 {
		d, err := b.onFailure(now)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
		last = now
		now += d + 1 // the next failure comes just after the restart
	}
	want := []int64{1000, 2000, 4000, 8000, 10000, 10000}
	if !slices.Equal(got, want) {
		t.Fatalf("delays %v, want %v", got, want)
	}
	// The reset threshold counts from the scheduled restart: an hour after
	// the last failure is not enough when that restart waited 10 s...
	if d, _ := b.onFailure(last + 3_600_000); d != 10000 {
		t.Fatalf("one hour after the failure (before restart + threshold) the delay is %d, want 10000", d)
	}
	// ...an hour after the restart is.
	if d, _ := b.onFailure(last + 3_600_000 + 10_000 + 3_600_000 + 10_000); d != 1000 {
		t.Fatalf("after the reset threshold the delay is %d, want 1000", d)
	}
}

// The defaults since Flink 1.19 with no jitter: three failures in a row,
// each just after the restart before it, wait 1 + 1.5 + 2.25 = 4.75 s
// (REFERENCES: FLINK-33736).
func TestExponentialDelayDefaultsSum(t *testing.T) {
	b := strategy(t, RestartExponential, map[string]string{"jitter": "0"})
	var sum, now int64
	for range 3 {
		d, err := b.onFailure(now)
		if err != nil {
			t.Fatal(err)
		}
		sum += d
		now += d + 1
	}
	if sum != 4750 {
		t.Fatalf("three restarts waited %d ms, want 4750", sum)
	}
}

// A failure while a restart is already scheduled joins that attempt, as
// Flink merges failures whose tasks restart later anyway.
func TestExponentialDelayMergesFailuresBeforeTheRestart(t *testing.T) {
	b := strategy(t, RestartExponential, map[string]string{"jitter": "0", "attempts": "2"})
	if d, _ := b.onFailure(0); d != 1000 {
		t.Fatalf("first delay %d", d)
	}
	if d, err := b.onFailure(400); err != nil || d != 600 {
		t.Fatalf("a failure 400 ms later waits for the same restart: %d, %v", d, err)
	}
	if d, err := b.onFailure(1001); err != nil || d != 1500 {
		t.Fatalf("second attempt: %d, %v", d, err)
	}
	// attempts-before-reset-backoff=2: the third attempt fails the job.
	_, err := b.onFailure(2502)
	if err == nil || !strings.Contains(err.Error(), "recovery is suppressed by ExponentialDelayRestartBackoffTimeStrategy(") || !strings.Contains(err.Error(), "attemptsBeforeResetBackoff=2") {
		t.Fatalf("the third attempt must fail the job, got %v", err)
	}
}

// Jitter is ±jitter of the backoff and never takes a delay past the max.
func TestExponentialDelayJitterStaysWithinBounds(t *testing.T) {
	j := strategy(t, RestartExponential, map[string]string{"initial": "10s", "max": "1m", "multiplier": "2", "jitter": "0.5"})
	now := int64(0)
	for i := range 8 {
		d, err := j.onFailure(now)
		if err != nil {
			t.Fatal(err)
		}
		base := min(int64(10_000)<<i, 60_000)
		if d > 60_000 || d < 10_000 || (base < 60_000 && (d < base/2 || d > base*3/2)) {
			t.Fatalf("attempt %d: delay %d outside ±50%% of %d within [10s, 1m]", i, d, base)
		}
		now += d + 1
	}
}

// Flink's checks on the parameters: multiplier > 1, jitter in [0, 1],
// durations of at least 1 ms; nothing that is not a number.
func TestRestartParametersRejected(t *testing.T) {
	for _, c := range []struct{ kind, name, value string }{
		{RestartExponential, "multiplier", "1"},
		{RestartExponential, "multiplier", "NaN"},
		{RestartExponential, "multiplier", "Inf"},
		{RestartExponential, "multiplier", "-2"},
		{RestartExponential, "jitter", "NaN"},
		{RestartExponential, "jitter", "1.5"},
		{RestartExponential, "initial", "0s"},
		{RestartExponential, "reset", "0s"},
		{RestartExponential, "max", "-1s"},
		{RestartExponential, "attempts", "0"},
		{RestartFailureRate, "interval", "0s"},
		{RestartFixedDelay, "delay", "-1s"},
		{RestartFixedDelay, "attempts", "-3"},
	} {
		if _, err := ParseRestart(c.kind, map[string]string{c.name: c.value}); err == nil {
			t.Errorf("%s %s=%s accepted", c.kind, c.name, c.value)
		}
	}
}

func TestNoneFailsAtOnce(t *testing.T) {
	if _, err := strategy(t, RestartNone, nil).onFailure(0); err == nil || !strings.Contains(err.Error(), "NoRestartBackoffTimeStrategy") {
		t.Fatalf("got %v", err)
	}
}

// In a standalone deployment a killed node stays down until someone asks;
// in a managed one it comes back after the strategy's delay and the
// provisioning delay.
func TestStandaloneWaitsForAManualRestart(t *testing.T) {
	spec, _ := jobspec.Builtin("passthrough")
	for _, deployment := range []string{DeployStandalone, DeployManaged} {
		cfg := DefaultConfig()
		cfg.Deployment, cfg.Provision = deployment, 2*time.Second
		cfg.Restart, _ = ParseRestart(RestartFixedDelay, map[string]string{"attempts": "5", "delay": "1s"})
		rt, err := New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Kill("map"); err != nil {
			t.Fatal(err)
		}
		rt.AdmitFor(30 * time.Second)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		state := rt.Snapshot().Nodes[1].State
		switch deployment {
		case DeployStandalone:
			if state != NodeKilled {
				t.Fatalf("standalone: map is %s before anyone restarted it", state)
			}
			if err := rt.Restart("map"); err != nil {
				t.Fatal(err)
			}
			rt.AdmitFor(time.Second)
			if err := rt.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if s := rt.Snapshot().Nodes[1].State; s != NodeRunning {
				t.Fatalf("standalone: map is %s after `restart map`", s)
			}
		case DeployManaged:
			rep := rt.Report()
			if state != NodeRunning || rep.Recovery.DowntimeMS != 2000 {
				t.Fatalf("managed: map is %s after %d ms down, want running after 2000 (max of 1 s delay and 2 s provisioning)", state, rep.Recovery.DowntimeMS)
			}
		}
		rt.Close()
	}
}

// A crash loop: count[0] dies again each time the job restored from the
// same checkpoint replays to it. The failures must reach the restart
// strategy in the order they happened, each after the restart before it
// (a restored job replays after its restart, not when the records first
// arrived), so exponential-delay backs off 1 s, 1.5 s, 2.25 s, 3.375 s
// (±10 % jitter) instead of merging them or seeing time run backwards.
func TestCrashLoopFailuresFollowTheirRestarts(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := DefaultConfig()
	cfg.Semantics, cfg.HA = ExactlyOnce, HAPassiveStandby
	cfg.Provision = 0
	cfg.Restart, _ = ParseRestart(RestartExponential, nil)
	rt, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	sub := rt.Bus().Subscribe(1 << 16)
	for _, at := range []int64{1000, 1200, 1400, 1600} {
		if err := rt.KillAt("count[0]", at); err != nil {
			t.Fatal(err)
		}
	}
	rt.Admit(3000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rt.AdmitFor(60 * time.Second)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	events, _ := sub.Drain()
	var last, killedAt int64 = -1, -1
	var delays []int64
	for _, e := range events {
		switch e.Kind {
		case bus.EventNodeKilled:
			if e.TimeMS <= last {
				t.Fatalf("a failure at %d ms does not follow the restart or failure at %d ms", e.TimeMS, last)
			}
			killedAt, last = e.TimeMS, e.TimeMS
		case bus.EventRestartScheduled:
			delays = append(delays, e.N)
		case bus.EventNodeRestarted:
			if e.TimeMS < killedAt {
				t.Fatalf("a restart at %d ms comes before its failure at %d ms", e.TimeMS, killedAt)
			}
			last = e.TimeMS
		}
	}
	want := []float64{1000, 1500, 2250, 3375}
	if len(delays) != len(want) {
		t.Fatalf("restart delays %v, want %d of them", delays, len(want))
	}
	for i, d := range delays {
		if float64(d) < want[i]*0.9 || float64(d) > want[i]*1.1 {
			t.Errorf("restart %d waits %d ms, want %.0f ±10%% (all delays %v)", i+1, d, want[i], delays)
		}
	}
	if rep := rt.Report(); rep.Recovery.Restarts != 4 || !rep.Sink.Correct {
		t.Errorf("restarts %d, correct %t; want 4 restarts and a correct sink", rep.Recovery.Restarts, rep.Sink.Correct)
	}
}
