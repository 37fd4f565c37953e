package streamlab.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;

/**
 * The parts of a lab script the Flink side reads: the settings it carries
 * over (restart strategy, semantics, checkpoint interval) and the failure
 * schedule. The lab runs the same file; nothing here is a copy of its
 * numbers.
 */
final class Script {
    /**
     * A failure the script schedules: a task that throws or a task manager
     * lost, at the node's record count at, or (at 0) once the source has
     * admitted the afterRecords that the script's runs before it admit.
     */
    record Failure(String verb, String node, long at, long afterRecords) {}

    /** Records the script's `run N` lines admit before the current line. */
    private long admitted;

    final String name;
    final Map<String, String> settings = new LinkedHashMap<>();
    String restartKind;
    final Map<String, String> restartParams = new LinkedHashMap<>();
    final List<Failure> failures = new ArrayList<>();

    private Script(String name) {
        this.name = name;
    }

    static Script load(Path file) throws IOException {
        String base = file.getFileName().toString().replaceFirst("\\.lab$", "");
        Script s = new Script(base);
        for (String raw : Files.readAllLines(file)) {
            String line = raw.replaceFirst("#.*", "").trim();
            if (line.isEmpty()) continue;
            String[] f = line.split("\\s+");
            switch (f[0]) {
                case "set" -> {
                    if (f[1].equals("restart")) {
                        s.restartKind = f[2];
                        for (int i = 3; i < f.length; i++) {
                            String[] kv = f[i].split("=", 2);
                            s.restartParams.put(kv[0], kv[1]);
                        }
                    } else {
                        s.settings.put(f[1], String.join(" ", java.util.Arrays.copyOfRange(f, 2, f.length)));
                    }
                }
                case "kill", "fail" -> {
                    long at = f.length >= 4 && f[2].equals("at") ? Long.parseLong(f[3]) : 0;
                    s.failures.add(new Failure(f[0], f[1], at, s.admitted));
                }
                case "run" -> {
                    if (f.length > 1 && f[1].matches("\\d+")) s.admitted += Long.parseLong(f[1]);
                }
                default -> { }
            }
        }
        return s;
    }

    String semantics() {
        return settings.getOrDefault("semantics", "exactly-once");
    }

    String ha() {
        String ha = settings.get("ha");
        if (ha != null) return ha;
        return switch (semantics()) {
            case "at-most-once" -> "none";
            case "at-least-once" -> "upstream-backup";
            default -> "passive-standby";
        };
    }

    /** Flink checkpoints where the lab takes them (passive standby), else none. */
    CheckpointingMode checkpointing() {
        if (!ha().equals("passive-standby")) return null;
        return semantics().equals("at-least-once") ? CheckpointingMode.AT_LEAST_ONCE : CheckpointingMode.EXACTLY_ONCE;
    }

    /**
     * The lab sets the interval in records, Flink in time: at the Flink
     * side's source rate the same number of records pass between barriers.
     */
    Duration checkpointInterval(double recordsPerSecond) {
        long records = Long.parseLong(settings.getOrDefault("checkpoint.interval", "1000"));
        return Duration.ofMillis(Math.max(10, Math.round(records * 1000.0 / recordsPerSecond)));
    }

    long number(String key, long dflt) {
        String v = settings.get(key);
        return v == null ? dflt : Long.parseLong(v.split("\\s+")[0]);
    }

    /** The restart strategy the script sets, in Flink's keys; nothing when it sets none. */
    Configuration restartConfiguration() {
        Configuration c = new Configuration();
        if (restartKind == null) return c;
        c.set(RestartStrategyOptions.RESTART_STRATEGY, restartKind);
        Map<String, String> p = restartParams;
        switch (restartKind) {
            case "fixed-delay" -> {
                c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.parseInt(p.getOrDefault("attempts", "1")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, duration(p.getOrDefault("delay", "1s")));
            }
            case "failure-rate" -> {
                c.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL, Integer.parseInt(p.getOrDefault("max", "1")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, duration(p.getOrDefault("interval", "1m")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY, duration(p.getOrDefault("delay", "1s")));
            }
            case "exponential-delay" -> {
                c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, duration(p.getOrDefault("initial", "1s")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, duration(p.getOrDefault("max", "1m")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, Double.parseDouble(p.getOrDefault("multiplier", "1.5")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, duration(p.getOrDefault("reset", "1h")));
                c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, Double.parseDouble(p.getOrDefault("jitter", "0.1")));
                if (p.containsKey("attempts")) {
                    c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, Integer.parseInt(p.get("attempts")));
                }
            }
            default -> { }
        }
        return c;
    }

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    /** Parses a Go duration as lab scripts write them: 100ms, 1s, 1m30s, 1h. */
    static Duration duration(String s) {
        Matcher m = PART.matcher(s);
        double ms = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) throw new IllegalArgumentException("bad duration " + s);
            end = m.end();
            double n = Double.parseDouble(m.group(1));
            ms += switch (m.group(2)) {
                case "ms" -> n;
                case "s" -> n * 1000;
                case "m" -> n * 60_000;
                default -> n * 3_600_000;
            };
        }
        if (end != s.length() || end == 0) throw new IllegalArgumentException("bad duration " + s);
        return Duration.ofMillis(Math.round(ms));
    }
}
