package restart

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Flink's documented defaults (Task Failure Recovery; exponential-delay as
// of Flink 1.19, FLINK-33736: max backoff 1 min, multiplier 1.5).
func TestRestartDefaultsAreFlinks(t *testing.T) {
	fixed, _ := Default(FixedDelay)
	rate, _ := Default(FailureRate)
	exp, _ := Default(Exponential)
	if fixed.Attempts != 1 || fixed.Delay != time.Second {
		t.Errorf("fixed-delay defaults: %+v", fixed)
	}
	if rate.Max != 1 || rate.Interval != time.Minute || rate.Delay != time.Second {
		t.Errorf("failure-rate defaults: %+v", rate)
	}
	if exp.Initial != time.Second || exp.MaxBackoff != time.Minute || exp.Multiplier != 1.5 || exp.Reset != time.Hour || exp.Jitter != 0.1 || exp.Attempts != 0 {
		t.Errorf("exponential-delay defaults: %+v", exp)
	}
	if _, err := Parse("sometimes", nil); err == nil {
		t.Error("an unknown strategy must be an error")
	}
}

func strategy(t *testing.T, kind Kind, params map[string]string) *Backoff {
	t.Helper()
	s, err := Parse(kind, params)
	if err != nil {
		t.Fatal(err)
	}
	return NewBackoff(s, 1)
}

func TestFixedDelayGivesUpAfterItsAttempts(t *testing.T) {
	b := strategy(t, FixedDelay, map[string]string{"attempts": "3", "delay": "10s"})
	for i := range 3 {
		if d, err := b.OnFailure(int64(i) * 60_000); err != nil || d != 10_000 {
			t.Fatalf("failure %d: delay %d, err %v", i+1, d, err)
		}
	}
	_, err := b.OnFailure(200_000)
	if err == nil || !strings.Contains(err.Error(), "recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=10000)") {
		t.Fatalf("the 4th failure must fail the job, got %v", err)
	}
}

func TestFailureRateGivesUpWhenTooManyFallInTheInterval(t *testing.T) {
	b := strategy(t, FailureRate, map[string]string{"max": "3", "interval": "5m", "delay": "10s"})
	// Three failures within five minutes are tolerated...
	for _, at := range []int64{0, 60_000, 120_000} {
		if _, err := b.OnFailure(at); err != nil {
			t.Fatalf("failure at %d: %v", at, err)
		}
	}
	// ...and once the first has left the interval, a fourth is too.
	if _, err := b.OnFailure(310_000); err != nil {
		t.Fatalf("a failure after the first left the interval: %v", err)
	}
	// A fifth within five minutes of the last three is one too many.
	if _, err := b.OnFailure(320_000); err == nil || !strings.Contains(err.Error(), "FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=300000, backoffTimeMS=10000, maxFailuresPerInterval=3)") {
		t.Fatalf("four failures within the interval must fail the job, got %v", err)
	}
}

// Flink 1.19's ExponentialDelayRestartBackoffTimeStrategy: attempt a waits
// initial·multiplier^a within [initial, max]; a failure more than the reset
// threshold after the scheduled restart starts over.
func TestExponentialDelayGrowsCapsAndResets(t *testing.T) {
	b := strategy(t, Exponential, map[string]string{"initial": "1s", "max": "10s", "multiplier": "2", "reset": "1h", "jitter": "0"})
	var got []int64
	now, last := int64(0), int64(0)
	for range 6 {
		d, err := b.OnFailure(now)
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
	if d, _ := b.OnFailure(last + 3_600_000); d != 10000 {
		t.Fatalf("one hour after the failure (before restart + threshold) the delay is %d, want 10000", d)
	}
	// ...an hour after the restart is.
	if d, _ := b.OnFailure(last + 3_600_000 + 10_000 + 3_600_000 + 10_000); d != 1000 {
		t.Fatalf("after the reset threshold the delay is %d, want 1000", d)
	}
}

// The defaults since Flink 1.19 with no jitter: three failures in a row,
// each just after the restart before it, wait 1 + 1.5 + 2.25 = 4.75 s
// (REFERENCES: FLINK-33736).
func TestExponentialDelayDefaultsSum(t *testing.T) {
	b := strategy(t, Exponential, map[string]string{"jitter": "0"})
	var sum, now int64
	for range 3 {
		d, err := b.OnFailure(now)
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
	b := strategy(t, Exponential, map[string]string{"jitter": "0", "attempts": "2"})
	if d, _ := b.OnFailure(0); d != 1000 {
		t.Fatalf("first delay %d", d)
	}
	if d, err := b.OnFailure(400); err != nil || d != 600 {
		t.Fatalf("a failure 400 ms later waits for the same restart: %d, %v", d, err)
	}
	if d, err := b.OnFailure(1001); err != nil || d != 1500 {
		t.Fatalf("second attempt: %d, %v", d, err)
	}
	// attempts-before-reset-backoff=2: the third attempt fails the job.
	_, err := b.OnFailure(2502)
	if err == nil || !strings.Contains(err.Error(), "recovery is suppressed by ExponentialDelayRestartBackoffTimeStrategy(") || !strings.Contains(err.Error(), "attemptsBeforeResetBackoff=2") {
		t.Fatalf("the third attempt must fail the job, got %v", err)
	}
}

// Jitter is ±jitter of the backoff and never takes a delay past the max.
func TestExponentialDelayJitterStaysWithinBounds(t *testing.T) {
	j := strategy(t, Exponential, map[string]string{"initial": "10s", "max": "1m", "multiplier": "2", "jitter": "0.5"})
	now := int64(0)
	for i := range 8 {
		d, err := j.OnFailure(now)
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
	for _, c := range []struct {
		kind        Kind
		name, value string
	}{
		{Exponential, "multiplier", "1"},
		{Exponential, "multiplier", "NaN"},
		{Exponential, "multiplier", "Inf"},
		{Exponential, "multiplier", "-2"},
		{Exponential, "jitter", "NaN"},
		{Exponential, "jitter", "1.5"},
		{Exponential, "initial", "0s"},
		{Exponential, "reset", "0s"},
		{Exponential, "max", "-1s"},
		{Exponential, "attempts", "0"},
		{FailureRate, "interval", "0s"},
		{FixedDelay, "delay", "-1s"},
		{FixedDelay, "attempts", "-3"},
	} {
		if _, err := Parse(c.kind, map[string]string{c.name: c.value}); err == nil {
			t.Errorf("%s %s=%s accepted", c.kind, c.name, c.value)
		}
	}
}

func TestNoneFailsAtOnce(t *testing.T) {
	if _, err := strategy(t, None, nil).OnFailure(0); err == nil || !strings.Contains(err.Error(), "NoRestartBackoffTimeStrategy") {
		t.Fatalf("got %v", err)
	}
}
