package streamlab.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a scenario's job left behind, kept in static fields of the test JVM:
 * a MiniCluster runs its tasks in this JVM and this class loader, so these
 * survive a task's restart, which is how a failure is injected exactly once.
 */
final class Probe {
    private static final Map<String, Probe> ALL = new ConcurrentHashMap<>();

    static Probe of(String scenario) {
        return ALL.computeIfAbsent(scenario, k -> new Probe());
    }

    /** The dumped source of each scenario, read by the generator source. */
    static final Map<String, List<Event>> EVENTS = new ConcurrentHashMap<>();

    /** Failures the job's hook injected so far. */
    final AtomicInteger injected = new AtomicInteger();
    /** Records each subtask of the failing operator processed, over all attempts. */
    final AtomicLong[] processed = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
    /** Records the source stage has passed on, over all attempts. */
    final AtomicLong sourceRecords = new AtomicLong();
    /** System.nanoTime of each injected failure, and of each later (re)start of the failed task. */
    final List<Long> failedAt = Collections.synchronizedList(new ArrayList<>());
    final List<Long> reopenedAt = Collections.synchronizedList(new ArrayList<>());
    /** The highest attempt number each task (stage[subtask]) opened with. */
    final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    /** The sink: an upsert table keyed by window and key, or an append-only log. */
    final Map<String, Result> table = new ConcurrentHashMap<>();
    final List<Result> log = Collections.synchronizedList(new ArrayList<>());

    void opened(String task, int attempt) {
        attempts.merge(task, attempt, Math::max);
    }
}
