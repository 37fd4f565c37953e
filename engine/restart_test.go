package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// Flink's documented defaults (Task Failure Recovery).
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
	if exp.Initial != time.Second || exp.MaxBackoff != 5*time.Minute || exp.Multiplier != 2 || exp.Reset != time.Hour || exp.Jitter != 0.1 {
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

func TestExponentialDelayGrowsCapsAndResets(t *testing.T) {
	b := strategy(t, RestartExponential, map[string]string{"initial": "1s", "max": "10s", "multiplier": "2", "reset": "1h", "jitter": "0"})
	var got []int64
	for i := range 6 {
		d, err := b.onFailure(int64(i) * 1000)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d)
	}
	want := []int64{1000, 2000, 4000, 8000, 10000, 10000}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("delays %v, want %v", got, want)
		}
	}
	// An hour without failures resets the backoff.
	if d, _ := b.onFailure(5000 + 3_600_000); d != 1000 {
		t.Fatalf("after the reset threshold the delay is %d, want 1000", d)
	}
	// With jitter, each delay stays within ±jitter of the backoff.
	j := strategy(t, RestartExponential, map[string]string{"initial": "10s", "jitter": "0.1"})
	for i := range 5 {
		d, _ := j.onFailure(int64(i))
		base := int64(10_000) << i
		if d < base*9/10 || d > base*11/10 {
			t.Fatalf("delay %d outside ±10%% of %d", d, base)
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
