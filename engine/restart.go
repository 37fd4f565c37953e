package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Restart strategy kinds, with Flink's names (restart-strategy.type).
const (
	RestartNone        = "none"
	RestartFixedDelay  = "fixed-delay"
	RestartFailureRate = "failure-rate"
	RestartExponential = "exponential-delay"
)

// RestartStrategy decides whether and when failed tasks restart, with
// Flink's parameters and defaults (Flink documentation, "Task Failure
// Recovery"):
//
//   - none: the job fails at the first failure;
//   - fixed-delay: attempts 1, delay 1 s; the job fails once the attempts
//     are used up;
//   - failure-rate: max 1 failure per interval of 1 min, delay 1 s; the job
//     fails when more than max failures fall within an interval;
//   - exponential-delay: initial backoff 1 s, max backoff 5 min, multiplier
//     2.0, reset threshold 1 h, jitter 0.1, unlimited attempts.
type RestartStrategy struct {
	Kind       string
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

// DefaultRestart returns a strategy of kind with Flink's defaults.
func DefaultRestart(kind string) (RestartStrategy, error) {
	switch kind {
	case RestartNone:
		return RestartStrategy{Kind: kind}, nil
	case RestartFixedDelay:
		return RestartStrategy{Kind: kind, Attempts: 1, Delay: time.Second}, nil
	case RestartFailureRate:
		return RestartStrategy{Kind: kind, Max: 1, Interval: time.Minute, Delay: time.Second}, nil
	case RestartExponential:
		return RestartStrategy{Kind: kind, Initial: time.Second, MaxBackoff: 5 * time.Minute, Multiplier: 2, Reset: time.Hour, Jitter: 0.1}, nil
	}
	return RestartStrategy{}, fmt.Errorf("unknown restart strategy %q; expected none, fixed-delay, failure-rate or exponential-delay", kind)
}

// ParseRestart reads `fixed-delay attempts=3 delay=10s` and the like.
func ParseRestart(kind string, params map[string]string) (RestartStrategy, error) {
	s, err := DefaultRestart(kind)
	if err != nil {
		return s, err
	}
	known := map[string][]string{
		RestartNone:        nil,
		RestartFixedDelay:  {"attempts", "delay"},
		RestartFailureRate: {"max", "interval", "delay"},
		RestartExponential: {"initial", "max", "multiplier", "reset", "jitter"},
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
		case name == "max" && kind == RestartFailureRate:
			s.Max, err = positiveInt(name, v)
		case name == "delay":
			s.Delay, err = duration(name, v)
		case name == "interval":
			s.Interval, err = duration(name, v)
		case name == "initial":
			s.Initial, err = duration(name, v)
		case name == "max":
			s.MaxBackoff, err = duration(name, v)
		case name == "reset":
			s.Reset, err = duration(name, v)
		case name == "multiplier":
			s.Multiplier, err = strconv.ParseFloat(v, 64)
			if err != nil || s.Multiplier < 1 {
				err = fmt.Errorf("multiplier must be a number of at least 1, got %q", v)
			}
		case name == "jitter":
			s.Jitter, err = strconv.ParseFloat(v, 64)
			if err != nil || s.Jitter < 0 || s.Jitter > 1 {
				err = fmt.Errorf("jitter must be a fraction from 0 to 1, got %q", v)
			}
		}
		if err != nil {
			return s, err
		}
	}
	if kind == RestartExponential && s.MaxBackoff < s.Initial {
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

// String is the canonical lab-script form, e.g. "fixed-delay attempts=3 delay=10s".
func (s RestartStrategy) String() string {
	switch s.Kind {
	case RestartFixedDelay:
		return fmt.Sprintf("%s attempts=%d delay=%s", s.Kind, s.Attempts, s.Delay)
	case RestartFailureRate:
		return fmt.Sprintf("%s max=%d interval=%s delay=%s", s.Kind, s.Max, s.Interval, s.Delay)
	case RestartExponential:
		return fmt.Sprintf("%s initial=%s max=%s multiplier=%g reset=%s jitter=%g", s.Kind, s.Initial, s.MaxBackoff, s.Multiplier, s.Reset, s.Jitter)
	}
	return s.Kind
}

// flinkName is the class Flink names when it gives up, so the message a
// learner reads here is the one they will meet in a real job manager log.
func (s RestartStrategy) flinkName() string {
	switch s.Kind {
	case RestartFixedDelay:
		return fmt.Sprintf("FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=%d, backoffTimeMS=%d)", s.Attempts, s.Delay.Milliseconds())
	case RestartFailureRate:
		return fmt.Sprintf("FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=%d, backoffTimeMS=%d, maxFailuresPerInterval=%d)", s.Interval.Milliseconds(), s.Delay.Milliseconds(), s.Max)
	case RestartExponential:
		return "ExponentialDelayRestartBackoffTimeStrategy"
	}
	return "NoRestartBackoffTimeStrategy"
}

// backoff applies a strategy to a sequence of failures in virtual time.
type backoff struct {
	s        RestartStrategy
	restarts int
	failures []int64 // times of recent failures (failure-rate)
	current  int64   // the next exponential backoff, ms
	last     int64   // time of the last failure
	rng      *rand.Rand
}

func newBackoff(s RestartStrategy, seed int64) *backoff {
	return &backoff{s: s, current: s.Initial.Milliseconds(), last: math.MinInt64,
		rng: rand.New(rand.NewPCG(uint64(seed), 0xbac0ff))}
}

// onFailure returns how long to wait before restarting after a failure at
// now (virtual ms), or an error saying why recovery is suppressed.
func (b *backoff) onFailure(now int64) (int64, error) {
	suppressed := fmt.Errorf("recovery is suppressed by %s", b.s.flinkName())
	defer func() { b.last = now }()
	switch b.s.Kind {
	case RestartFixedDelay:
		if b.restarts >= b.s.Attempts {
			return 0, suppressed
		}
		b.restarts++
		return b.s.Delay.Milliseconds(), nil
	case RestartFailureRate:
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
	case RestartExponential:
		if b.last != math.MinInt64 && now-b.last >= b.s.Reset.Milliseconds() {
			b.current = b.s.Initial.Milliseconds()
		}
		delay := b.current
		if b.s.Jitter > 0 {
			delay += int64(float64(delay) * b.s.Jitter * (2*b.rng.Float64() - 1))
		}
		b.current = min(int64(float64(b.current)*b.s.Multiplier), b.s.MaxBackoff.Milliseconds())
		b.restarts++
		return delay, nil
	}
	return 0, suppressed
}
