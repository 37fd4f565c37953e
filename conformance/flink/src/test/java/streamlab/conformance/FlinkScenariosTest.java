package streamlab.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.ResourceManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.executiongraph.failover.StrategyProbe;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs each scenario of conformance/flink/scenarios on Flink 2.3 and writes
 * what Flink did to ${conformance.out}/NAME.json. The lab has already run
 * the same script and dumped its source to ${conformance.in}/NAME.jsonl.
 * A test fails only when Flink could not be run; whether Flink agrees with
 * the lab is compare.py's business.
 */
class FlinkScenariosTest {
    /** Two task managers with two slots each, Flink's default failover (region). */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(2)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    /** A standalone cluster's slot request timeout (and so its resource manager's start-up period), shortened from 5 min so the row runs in seconds. */
    static final Duration SLOT_REQUEST_TIMEOUT = Duration.ofSeconds(3);

    static final Path SCENARIOS = Path.of("scenarios");
    static final Path IN = Path.of(System.getProperty("conformance.in", "target/lab"));
    static final Path OUT = Path.of(System.getProperty("conformance.out", "target/flink"));

    static Script script(String name) throws Exception {
        Script s = Script.load(SCENARIOS.resolve(name + ".lab"));
        Probe.EVENTS.put(name, Event.load(IN.resolve(name + ".jsonl")));
        return s;
    }

    /** The failure schedule of count[i]: records between the script's failures. */
    static Clicks.Failing failing(Script s) {
        Clicks.Failing f = new Clicks.Failing();
        List<Long> after = new ArrayList<>();
        long prev = 0;
        for (Script.Failure x : s.failures) {
            if (!x.node().startsWith("count")) continue;
            f.subtask = x.node().equals("count") ? 0 : Integer.parseInt(x.node().replaceAll("\\D", ""));
            after.add(Math.max(1, x.at() - prev));
            prev = x.at();
        }
        f.after = after.stream().mapToLong(Long::longValue).toArray();
        return f;
    }

    static StreamExecutionEnvironment env(Script s, Configuration extra) {
        Configuration conf = s.restartConfiguration();
        conf.addAll(extra);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        CheckpointingMode mode = s.checkpointing();
        if (mode != null) env.enableCheckpointing(s.checkpointInterval(Clicks.RATE).toMillis(), mode);
        return env;
    }

    /** Runs the job on the shared cluster and returns what happened. */
    static Map<String, Object> run(String name, StreamExecutionEnvironment env) throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        long start = System.nanoTime();
        JobClient client = env.executeAsync(name);
        try {
            client.getJobExecutionResult().get(180, TimeUnit.SECONDS);
            out.put("state", "FINISHED");
        } catch (ExecutionException e) {
            out.put("state", "FAILED");
            out.put("causes", causes(e.getCause()));
        }
        out.put("wall_ms", (System.nanoTime() - start) / 1_000_000);
        return out;
    }

    static List<String> causes(Throwable t) {
        List<String> chain = new ArrayList<>();
        for (int i = 0; t != null && i < 12; i++, t = t.getCause()) {
            String msg = String.valueOf(t.getMessage());
            if (msg.length() > 400) msg = msg.substring(0, 400) + "…";
            String cls = t instanceof org.apache.flink.util.SerializedThrowable st ? st.getOriginalErrorClassName() : t.getClass().getName();
            chain.add(cls + ": " + msg);
        }
        return chain;
    }

    /** What the probe saw: failures injected, attempts, waits, the sink. */
    static void observe(String name, Map<String, Object> out) {
        Probe p = Probe.of(name);
        out.put("injected", p.injected.get());
        out.put("attempts", new java.util.TreeMap<>(p.attempts));
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < Math.min(p.failedAt.size(), p.reopenedAt.size()); i++) {
            waits.add((p.reopenedAt.get(i) - p.failedAt.get(i)) / 1_000_000);
        }
        out.put("waits_ms", waits);
        List<List<Object>> table = new ArrayList<>();
        p.table.values().stream().sorted(Comparator.comparing(Result::id))
                .forEach(r -> table.add(List.of(r.windowStart, r.windowEnd, r.key, r.value)));
        out.put("table", table);
        List<List<Object>> log = new ArrayList<>();
        synchronized (p.log) {
            p.log.forEach(r -> log.add(List.of(r.windowStart, r.windowEnd, r.key, r.value)));
        }
        out.put("log", log);
    }

    static void write(String name, Map<String, Object> out) throws Exception {
        Json.write(OUT.resolve(name + ".json"), out);
    }

    /** A clicks scenario on the shared cluster: the script's settings, failures and sink. */
    static void clicks(String name, Clicks.SinkKind sink, boolean afterWindowSinceCheckpoint) throws Exception {
        Script s = script(name);
        Clicks.Failing f = failing(s);
        f.afterWindowSinceCheckpoint = afterWindowSinceCheckpoint;
        StreamExecutionEnvironment env = env(s, new Configuration());
        Clicks.build(env, name, f, sink);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("checkpointing", s.checkpointing() == null ? "off" : s.checkpointing() + " every " + s.checkpointInterval(Clicks.RATE).toMillis() + " ms");
        out.put("restart_configured", s.restartKind == null ? "nothing" : s.restartKind);
        out.putAll(run(name, env));
        observe(name, out);
        write(name, out);
    }

    @Test
    void exactlyOnceUpsertWindow() throws Exception {
        clicks("eo-upsert-window", Clicks.SinkKind.UPSERT, false);
    }

    @Test
    void atLeastOnceCheckpoints() throws Exception {
        // The failure comes after a window fired since the last checkpoint,
        // as in the lab's run: the restore then fires that window again.
        clicks("alo-checkpoints", Clicks.SinkKind.LOG, true);
    }

    @Test
    void fixedDelayGivesUp() throws Exception {
        clicks("fixed-delay-give-up", Clicks.SinkKind.UPSERT, false);
    }

    @Test
    void failureRateGivesUp() throws Exception {
        clicks("failure-rate-give-up", Clicks.SinkKind.UPSERT, false);
    }

    @Test
    void defaultsCheckpointingOn() throws Exception {
        clicks("default-checkpointing-on", Clicks.SinkKind.UPSERT, false);
    }

    @Test
    void defaultsCheckpointingOff() throws Exception {
        clicks("default-checkpointing-off", Clicks.SinkKind.UPSERT, false);
    }

    @Test
    void taskFailureWaitsForBackoffOnly() throws Exception {
        clicks("task-failure-backoff", Clicks.SinkKind.UPSERT, false);
    }

    @Test
    void exponentialDelaySequence() throws Exception {
        String name = "exponential-delay-sequence";
        Script s = Script.load(SCENARIOS.resolve(name + ".lab"));
        Map<String, String> p = s.restartParams;
        int failures = (int) s.failures.size();
        // One second of running between a restart and the next failure, as
        // in the lab's run (100 records at 100 a second).
        List<Long> waits = StrategyProbe.exponentialDelay(
                Script.duration(p.getOrDefault("initial", "1s")).toMillis(),
                Script.duration(p.getOrDefault("max", "1m")).toMillis(),
                Double.parseDouble(p.getOrDefault("multiplier", "1.5")),
                Script.duration(p.getOrDefault("reset", "1h")).toMillis(),
                Double.parseDouble(p.getOrDefault("jitter", "0.1")),
                Integer.parseInt(p.getOrDefault("attempts", String.valueOf(Integer.MAX_VALUE))),
                failures, 1000);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("strategy", "org.apache.flink.runtime.executiongraph.failover.ExponentialDelayRestartBackoffTimeStrategy");
        out.put("waits_ms", waits);
        write(name, out);
    }

    /** A cluster of our own: two task managers with one slot each, standalone (nothing replaces a lost one). */
    static MiniCluster standalone(Configuration conf) throws Exception {
        MiniCluster mc = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(2)
                .setNumSlotsPerTaskManager(1)
                .build());
        mc.start();
        return mc;
    }

    static StreamGraph named(StreamExecutionEnvironment env, String name) {
        StreamGraph g = env.getStreamGraph();
        g.setJobName(name);
        return g;
    }

    /** Submits a graph to a cluster of our own and waits for its end. */
    static Map<String, Object> runOn(MiniCluster mc, StreamGraph graph, Consumer<JobID> whileRunning) throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        long start = System.nanoTime();
        JobID id = mc.submitJob(graph.getJobGraph()).get().getJobID();
        whileRunning.accept(id);
        JobResult r = mc.requestJobResult(id).get(180, TimeUnit.SECONDS);
        out.put("state", r.getJobStatus().map(Object::toString).orElse(r.isSuccess() ? "FINISHED" : "FAILED"));
        r.getSerializedThrowable().ifPresent(t -> out.put("causes", causes(t.deserializeError(FlinkScenariosTest.class.getClassLoader()))));
        out.put("wall_ms", (System.nanoTime() - start) / 1_000_000);
        return out;
    }

    /**
     * Waits until count[i] has processed the failure's records (or, for a
     * failure without `at`, until the source has passed on the records the
     * script's runs admit before it), then takes a task manager away.
     */
    static long killTaskManagerAt(MiniCluster mc, Probe p, int subtask, Script.Failure kill) {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((kill.at() > 0 ? p.processed[subtask].get() < kill.at() : p.sourceRecords.get() < kill.afterRecords())
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            long at = System.nanoTime();
            mc.terminateTaskManager(1).get();
            return at;
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /**
     * count[i]'s task manager is taken away once count[i] has processed the
     * script's N records. With replaceAfter set a new task manager starts
     * that much later, and the resource manager is kept in its start-up
     * period (5 min), in which a standalone resource manager lets slot
     * requests wait for task managers to register, as an active one (YARN,
     * Kubernetes) does while it brings up a worker. Without, nothing
     * replaces it, and the job is submitted once the cluster is past its
     * start-up period (resourcemanager.standalone.start-up-time, by default
     * slot.request.timeout): a standalone cluster in steady state.
     */
    static Map<String, Object> taskManagerRun(Script s, String run, Duration slotRequestTimeout, Duration startupPeriod,
            Duration replaceAfter) throws Exception {
        Probe.EVENTS.put(run, Probe.EVENTS.get(s.name));
        Configuration conf = new Configuration();
        conf.set(JobManagerOptions.SLOT_REQUEST_TIMEOUT, slotRequestTimeout);
        if (startupPeriod != null) conf.set(ResourceManagerOptions.STANDALONE_CLUSTER_STARTUP_PERIOD_TIME, startupPeriod);
        Duration period = startupPeriod != null ? startupPeriod : slotRequestTimeout;
        Script.Failure kill = s.failures.get(0);
        Map<String, Object> out = new LinkedHashMap<>();
        Probe p = Probe.of(run);
        try (MiniCluster mc = standalone(conf)) {
            if (replaceAfter == null) Thread.sleep(period.toMillis() + 1000);
            StreamExecutionEnvironment env = new StreamExecutionEnvironment(s.restartConfiguration());
            if (s.checkpointing() != null) env.enableCheckpointing(s.checkpointInterval(Clicks.RATE).toMillis(), s.checkpointing());
            Clicks.build(env, run, new Clicks.Failing(), Clicks.SinkKind.UPSERT);
            int subtask = Integer.parseInt(kill.node().replaceAll("\\D", ""));
            long[] killedAt = new long[1];
            out.putAll(runOn(mc, named(env, run), id -> {
                killedAt[0] = killTaskManagerAt(mc, p, subtask, kill);
                if (replaceAfter != null) {
                    try {
                        Thread.sleep(replaceAfter.toMillis());
                        mc.startTaskManager();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }
            }));
            out.put("kill_to_end_ms", (System.nanoTime() - killedAt[0]) / 1_000_000);
            out.put("task_manager", replaceAfter != null
                    ? "task manager lost, a new one started " + replaceAfter.toMillis() + " ms later"
                    : "task manager lost, none started");
            out.put("slot_request_timeout_ms", slotRequestTimeout.toMillis());
            out.put("startup_period_ms", period.toMillis());
            observe(run, out);
            List<Long> waits = new ArrayList<>();
            for (long t : p.reopenedAt) waits.add((t - killedAt[0]) / 1_000_000);
            out.put("waits_ms", waits);
        }
        return out;
    }

    /** The deployment's provisioning delay, as the script sets it (managed provision=D). */
    static Duration provision(Script s) {
        String dep = s.settings.getOrDefault("deployment", "managed");
        return dep.contains("provision=") ? Script.duration(dep.replaceFirst(".*provision=(\\S+).*", "$1")) : Duration.ofSeconds(5);
    }

    @Test
    void taskManagerLostAndReplaced() throws Exception {
        String name = "tm-lost-replaced";
        Script s = script(name);
        Map<String, Object> out = taskManagerRun(s, name, JobManagerOptions.SLOT_REQUEST_TIMEOUT.defaultValue(),
                Duration.ofMinutes(5), provision(s));
        write(name, out);
    }

    /**
     * Twice, past the resource manager's start-up period of 3 s: with a slot
     * request timeout of 3 s (the start-up period follows it by default) and
     * of 60 s, to tell whether the timeout is what fails the restarted job.
     */
    @Test
    void standaloneTaskManagerMissing() throws Exception {
        String name = "standalone-tm-missing";
        Script s = script(name);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Duration timeout : List.of(SLOT_REQUEST_TIMEOUT, Duration.ofSeconds(60))) {
            Duration startup = timeout.equals(SLOT_REQUEST_TIMEOUT) ? null : SLOT_REQUEST_TIMEOUT;
            Map<String, Object> one = taskManagerRun(s, name + "/" + timeout.toSeconds() + "s", timeout, startup, null);
            one.remove("table");
            one.remove("log");
            out.put(timeout.toSeconds() + "s", one);
        }
        write(name, out);
    }

    @Test
    void failoverOnTheClicksJob() throws Exception {
        String name = "failover-clicks";
        Script s = script(name);
        Map<String, Object> out = new LinkedHashMap<>();
        for (String strategy : List.of("region", "full")) {
            String run = name + "/" + strategy;
            Probe.EVENTS.put(run, Probe.EVENTS.get(name));
            Configuration conf = new Configuration();
            conf.set(JobManagerOptions.EXECUTION_FAILOVER_STRATEGY, strategy);
            try (MiniCluster mc = standalone(conf)) {
                StreamExecutionEnvironment env = new StreamExecutionEnvironment(s.restartConfiguration());
                env.enableCheckpointing(s.checkpointInterval(Clicks.RATE).toMillis(), CheckpointingMode.EXACTLY_ONCE);
                Clicks.build(env, run, failing(s), Clicks.SinkKind.UPSERT);
                Map<String, Object> one = runOn(mc, named(env, run), id -> { });
                observe(run, one);
                one.remove("log");
                out.put(strategy, one);
            }
        }
        write(name, out);
    }

    /** Two pipelined regions: source, map and sink with parallelism 2, forward edges only. */
    @Test
    void failoverTwoRegions() throws Exception {
        String name = "failover-two-regions";
        Script s = script(name);
        Map<String, Object> out = new LinkedHashMap<>();
        Configuration conf = new Configuration();
        conf.set(JobManagerOptions.EXECUTION_FAILOVER_STRATEGY, "region");
        try (MiniCluster mc = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(2).setNumSlotsPerTaskManager(1).build())) {
            mc.start();
            StreamExecutionEnvironment env = new StreamExecutionEnvironment(s.restartConfiguration());
            env.enableCheckpointing(s.checkpointInterval(Clicks.RATE).toMillis(), CheckpointingMode.EXACTLY_ONCE);
            List<Event> events = Probe.EVENTS.get(name);
            env.fromSource(new DataGeneratorSource<>(new Clicks.Replay(name), events.size(),
                            RateLimiterStrategy.perSecond(Clicks.RATE), TypeInformation.of(Event.class)),
                    WatermarkStrategy.noWatermarks(), "source").setParallelism(2)
                    .map(new FailingMap(name, 300)).name("map").setParallelism(2)
                    .sinkTo(new Clicks.TableSink(name, Clicks.SinkKind.LOG)).name("sink").setParallelism(2);
            out.putAll(runOn(mc, named(env, name), id -> { }));
            observe(name, out);
            out.put("records_in_sink", ((List<?>) out.remove("log")).size());
            out.remove("table");
        }
        write(name, out);
    }

    /** map[1] throws once after n records; every subtask records its attempts. */
    static final class FailingMap extends RichMapFunction<Event, Result> {
        private final String scenario;
        private final long n;
        private transient long count;
        private transient int subtask;

        FailingMap(String scenario, long n) {
            this.scenario = scenario;
            this.n = n;
        }

        @Override
        public void open(OpenContext ctx) {
            subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            Probe.of(scenario).opened("map[" + subtask + "]", getRuntimeContext().getTaskInfo().getAttemptNumber());
        }

        @Override
        public Result map(Event e) {
            Probe p = Probe.of(scenario);
            if (subtask == 1 && ++count >= n && p.injected.compareAndSet(0, 1)) {
                p.failedAt.add(System.nanoTime());
                throw new RuntimeException("streamlab conformance: map[1] fails after " + count + " records");
            }
            return new Result(e.offset, e.offset, e.key, 1);
        }
    }
}
