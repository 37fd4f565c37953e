package org.apache.flink.runtime.executiongraph.failover;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.util.clock.ManualClock;

/**
 * Drives Flink's own restart strategies on a manual clock. It lives in
 * Flink's package because the constructors that take a clock are
 * package-private; the strategy code that runs is Flink's, unchanged.
 */
public final class StrategyProbe {
    private StrategyProbe() {}

    /**
     * The waits ExponentialDelayRestartBackoffTimeStrategy asks for when a
     * task fails, restarts after the wait, runs for runningMs and fails
     * again, failures times.
     */
    public static List<Long> exponentialDelay(long initialMs, long maxMs, double multiplier, long resetMs,
            double jitter, int attempts, int failures, long runningMs) {
        ManualClock clock = new ManualClock(1_000_000_000L);
        RestartBackoffTimeStrategy s = new ExponentialDelayRestartBackoffTimeStrategy(
                clock, initialMs, maxMs, multiplier, resetMs, jitter, attempts);
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < failures; i++) {
            s.notifyFailure(new RuntimeException("failure " + (i + 1)));
            if (!s.canRestart()) break;
            long wait = s.getBackoffTime();
            waits.add(wait);
            clock.advanceTime(java.time.Duration.ofMillis(wait + runningMs));
        }
        return waits;
    }
}
