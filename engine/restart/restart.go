// Package restart holds Flink's restart strategies (none, fixed-delay,
// failure-rate, exponential-delay) with their parameters and defaults, and
// the Backoff that applies one to a sequence of failures in virtual time.
// It imports nothing of streamlab; the engine's recovery asks it whether
// and when a failed task restarts.
package restart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Kind is a restart strategy's kind, with Flink's name for it.
type Kind string

// Restart strategy kinds, with Flink's names (restart-strategy.type).
const (
	None        Kind = "none"
	FixedDelay  Kind = "fixed-delay"
	FailureRate Kind = "failure-rate"
	Exponential Kind = "exponential-delay"
)

// Strategy decides whether and when failed tasks restart, with
// Flink's parameters and defaults (Flink documentation, "Task Failure
// Recovery"):
//
//   - none: the job fails at the first failure;
//   - fixed-delay: attempts 1, delay 1 s; the job fails once the attempts
//     are used up;
//   - failure-rate: max 1 failure per interval of 1 min, delay 1 s; the job
//     fails when more than max failures fall within an interval;
//   - exponential-delay, as Flink 2.3 defines it (Flink 1.19 set it: FLINK-33736
//     changed the defaults, FLINK-32895 added the attempts): initial backoff
//     1 s, max backoff 1 min, multiplier 1.5, reset threshold 1 h, jitter
//     0.1, attempts before the backoff resets unlimited (Attempts 0).
type Strategy struct {
	Kind       Kind
	Attempts   int
	Delay      time.Duration
	Max        int
	Interval   time.Duration
	Initial    time.Duration
	MaxBackoff time.Duration
	Multiplier float64
	Reset      time.Duration
	Jitter     float64
}

// Default returns a strategy of kind with Flink's defaults.
func Default(kind Kind) (Strategy, error) {
	switch kind {
	case None:
		return Strategy{Kind: kind}, nil
	case FixedDelay:
		return Strategy{Kind: kind, Attempts: 1, Delay: time.Second}, nil
	case FailureRate:
		return Strategy{Kind: kind, Max: 1, Interval: time.Minute, Delay: time.Second}, nil
	case Exponential:
		return Strategy{Kind: kind, Initial: time.Second, MaxBackoff: time.Minute, Multiplier: 1.5, Reset: time.Hour, Jitter: 0.1}, nil
	}
	return Strategy{}, fmt.Errorf("unknown restart strategy %q; expected none, fixed-delay, failure-rate or exponential-delay", kind)
}

// Parse reads `fixed-delay attempts=3 delay=10s` and the like.
func Parse(kind Kind, params map[string]string) (Strategy, error) {
	s, err := Default(kind)
	if err != nil {
		return s, err
	}
	known := map[Kind][]string{
		None:        nil,
		FixedDelay:  {"attempts", "delay"},
		FailureRate: {"max", "interval", "delay"},
		Exponential: {"initial", "max", "multiplier", "reset", "jitter", "attempts"},
	}[kind]
	for name, v := range params {
		ok := false
		for _, k := range known {
			ok = ok || k == name
		}
		if !ok {
			if len(known) == 0 {
				return s, fmt.Errorf("restart %s takes no parameters, got %s", kind, name)
			}
			return s, fmt.Errorf("restart %s has no parameter %q; expected %s", kind, name, strings.Join(known, ", "))
		}
		var err error
		switch {
		case name == "attempts":
			s.Attempts, err = positiveInt(name, v)
		case name == "max" && kind == FailureRate:
			s.Max, err = positiveInt(name, v)
		case name == "delay":
			s.Delay, err = duration(name, v)
		case name == "interval":
			s.Interval, err = positiveDuration(name, v)
		case name == "initial":
			s.Initial, err = positiveDuration(name, v)
		case name == "max":
			s.MaxBackoff, err = positiveDuration(name, v)
		case name == "reset":
			s.Reset, err = positiveDuration(name, v)
		case name == "multiplier":
			// Flink: "Backoff multiplier must be greater than 1."
			s.Multiplier, err = strconv.ParseFloat(v, 64)
			if err != nil || !(s.Multiplier > 1) || math.IsInf(s.Multiplier, 0) {
				err = fmt.Errorf("multiplier must be a finite number greater than 1, got %q", v)
			}
		case name == "jitter":
			s.Jitter, err = strconv.ParseFloat(v, 64)
			if err != nil || !(s.Jitter >= 0 && s.Jitter <= 1) {
				err = fmt.Errorf("jitter must be a fraction from 0 to 1, got %q", v)
			}
		}
		if err != nil {
			return s, err
		}
	}
	if kind == Exponential && s.MaxBackoff < s.Initial {
		return s, fmt.Errorf("max backoff %s is below the initial backoff %s", s.MaxBackoff, s.Initial)
	}
	return s, nil
}

func positiveInt(name, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s must be a positive integer, got %q", name, v)
	}
	return n, nil
}

func duration(name, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s must be a duration such as 10s, got %q", name, v)
	}
	return d, nil
}

// positiveDuration is a duration of at least a millisecond: Flink rejects a
// zero interval, backoff or reset threshold.
func positiveDuration(name, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Millisecond {
		return 0, fmt.Errorf("%s must be a duration of at least 1ms such as 10s, got %q", name, v)
	}
	return d, nil
}

// String is the canonical lab-script form, e.g. "fixed-delay attempts=3 delay=10s".
func (s Strategy) String() string {
	switch s.Kind {
	case FixedDelay:
		return fmt.Sprintf("%s attempts=%d delay=%s", s.Kind, s.Attempts, s.Delay)
	case FailureRate:
		return fmt.Sprintf("%s max=%d interval=%s delay=%s", s.Kind, s.Max, s.Interval, s.Delay)
	case Exponential:
		out := fmt.Sprintf("%s initial=%s max=%s multiplier=%g reset=%s jitter=%g", s.Kind, s.Initial, s.MaxBackoff, s.Multiplier, s.Reset, s.Jitter)
		if s.Attempts > 0 {
			out += fmt.Sprintf(" attempts=%d", s.Attempts)
		}
		return out
	}
	return string(s.Kind)
}

// flinkName is the class Flink names when it gives up, so the message a
// learner reads here is the one they will meet in a real job manager log.
func (s Strategy) flinkName() string {
	switch s.Kind {
	case FixedDelay:
		return fmt.Sprintf("FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=%d, backoffTimeMS=%d)", s.Attempts, s.Delay.Milliseconds())
	case FailureRate:
		return fmt.Sprintf("FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=%d, backoffTimeMS=%d, maxFailuresPerInterval=%d)", s.Interval.Milliseconds(), s.Delay.Milliseconds(), s.Max)
	case Exponential:
		return fmt.Sprintf("ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=%d, maxBackoffMS=%d, backoffMultiplier=%g, resetBackoffThresholdMS=%d, jitterFactor=%g, attemptsBeforeResetBackoff=%d)",
			s.Initial.Milliseconds(), s.MaxBackoff.Milliseconds(), s.Multiplier, s.Reset.Milliseconds(), s.Jitter, s.attemptsLimit())
	}
	return "NoRestartBackoffTimeStrategy"
}

// attemptsLimit is exponential-delay's attempts before the backoff resets,
// with Flink's default (Integer.MAX_VALUE) for unlimited.
func (s Strategy) attemptsLimit() int {
	if s.Attempts > 0 {
		return s.Attempts
	}
	return math.MaxInt32
}

// Backoff applies a strategy to a sequence of failures in virtual time.
type Backoff struct {
	s        Strategy
	restarts int
	failures []int64 // times of recent failures (failure-rate)
	// exponential-delay: the attempt since the last reset, and when the
	// restart scheduled by the last counted failure is due (none yet:
	// math.MinInt64).
	attempt     int
	nextRestart int64
	rng         *rand.Rand
}

// NewBackoff returns a Backoff applying s; seed drives exponential-delay's
// jitter.
func NewBackoff(s Strategy, seed int64) *Backoff {
	return &Backoff{s: s, nextRestart: math.MinInt64, rng: rand.New(rand.NewPCG(uint64(seed), 0xbac0ff))}
}

// OnFailure returns how long to wait before restarting after a failure at
// now (virtual ms), or an error saying why recovery is suppressed.
func (b *Backoff) OnFailure(now int64) (int64, error) {
	suppressed := fmt.Errorf("recovery is suppressed by %s", b.s.flinkName())
	switch b.s.Kind {
	case FixedDelay:
		if b.restarts >= b.s.Attempts {
			return 0, suppressed
		}
		b.restarts++
		return b.s.Delay.Milliseconds(), nil
	case FailureRate:
		keep := b.failures[:0]
		for _, t := range b.failures {
			if now-t < b.s.Interval.Milliseconds() {
				keep = append(keep, t)
			}
		}
		b.failures = append(keep, now)
		if len(b.failures) > b.s.Max {
			return 0, suppressed
		}
		b.restarts++
		return b.s.Delay.Milliseconds(), nil
	case Exponential:
		return b.exponential(now, suppressed)
	}
	return 0, suppressed
}

// exponential follows Flink's ExponentialDelayRestartBackoffTimeStrategy
// (Flink 2.3, as 1.19 set it): a failure before the scheduled restart is merged into
// that attempt; a failure more than the reset threshold after it starts
// over from the initial backoff; attempt a waits initial·multiplier^a,
// plus a jitter of up to ±jitter of that, within [initial, max]; once the
// attempts before a reset are used up the job fails.
func (b *Backoff) exponential(now int64, suppressed error) (int64, error) {
	if b.nextRestart != math.MinInt64 && now <= b.nextRestart {
		return b.nextRestart - now, nil
	}
	if b.nextRestart == math.MinInt64 || now-b.nextRestart >= b.s.Reset.Milliseconds() {
		b.attempt = 0
	}
	initial, maxMS := b.s.Initial.Milliseconds(), b.s.MaxBackoff.Milliseconds()
	// The jitter applies to the uncapped backoff, as in Flink; bounding it
	// far above any max keeps the arithmetic finite.
	current := int64(math.Min(float64(initial)*math.Pow(b.s.Multiplier, float64(b.attempt)), 1e15))
	delay := current
	if off := int64(float64(current) * b.s.Jitter); off > 0 {
		delay += b.rng.Int64N(2*off+1) - off
	}
	delay = max(initial, min(delay, maxMS))
	b.nextRestart = now + delay
	b.attempt++
	if b.attempt > b.s.attemptsLimit() {
		return 0, suppressed
	}
	b.restarts++
	return delay, nil
}
