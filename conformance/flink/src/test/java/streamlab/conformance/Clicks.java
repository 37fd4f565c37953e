package streamlab.conformance;

import java.time.Duration;
import java.util.List;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The lab's clicks job in Flink's DataStream API: source, parse, count per
 * action in tumbling 10 s event-time windows with parallelism 2, sink. The
 * source replays the lab's dumped log at a fixed rate; the watermark is
 * bounded out-of-orderness with the lab's delay.
 */
final class Clicks {
    private Clicks() {}

    /** Records a second the Flink side's source admits. */
    static final double RATE = 1000;
    static final Duration WINDOW = Duration.ofSeconds(10);
    static final Duration WATERMARK = Duration.ofSeconds(5);

    /** Where the count operator fails, from the script's schedule. */
    static final class Failing implements java.io.Serializable {
        int subtask = 1;
        /** Records each failing attempt processes before it throws (one entry a failure). */
        long[] after = {};
        /** Fail only once a window fired after the last checkpoint (so a restore re-fires it). */
        boolean afterWindowSinceCheckpoint;
    }

    enum SinkKind { UPSERT, LOG }

    static void build(StreamExecutionEnvironment env, String scenario, Failing failing, SinkKind sink) {
        List<Event> events = Probe.EVENTS.get(scenario);
        DataGeneratorSource<Event> source = new DataGeneratorSource<>(
                new Replay(scenario), events.size(), RateLimiterStrategy.perSecond(RATE), TypeInformation.of(Event.class));
        WatermarkStrategy<Event> wm = WatermarkStrategy.<Event>forBoundedOutOfOrderness(WATERMARK)
                .withTimestampAssigner((e, ts) -> e.time);
        DataStream<Event> parsed = env.fromSource(source, wm, "source").setParallelism(1)
                .map(new Mark<Event>(scenario, "source")).name("parse").setParallelism(1);
        DataStream<Event> hooked = parsed.keyBy(new ByKey())
                .process(new FailHook(scenario, failing)).name("count-hook").setParallelism(2);
        DataStream<Result> counted = DataStreamUtils.reinterpretAsKeyedStream(hooked, new ByKey())
                .window(TumblingEventTimeWindows.of(WINDOW))
                .aggregate(new Count(), new ToResult()).name("count").setParallelism(2);
        counted.map(new Mark<Result>(scenario, "sink")).name("sink-mark").setParallelism(1)
                .sinkTo(new TableSink(scenario, sink)).name("sink").setParallelism(1);
    }

    static final class Replay implements GeneratorFunction<Long, Event> {
        private final String scenario;
        private transient List<Event> events;

        Replay(String scenario) {
            this.scenario = scenario;
        }

        @Override
        public Event map(Long index) {
            if (events == null) events = Probe.EVENTS.get(scenario);
            return events.get(index.intValue());
        }
    }

    static final class ByKey implements KeySelector<Event, String> {
        @Override
        public String getKey(Event e) {
            return e.key;
        }
    }

    /** Passes records through and records which attempt its task runs. */
    static final class Mark<T> extends RichMapFunction<T, T> {
        private final String scenario;
        private final String stage;

        Mark(String scenario, String stage) {
            this.scenario = scenario;
            this.stage = stage;
        }

        @Override
        public void open(OpenContext ctx) {
            Probe.of(scenario).opened(stage, getRuntimeContext().getTaskInfo().getAttemptNumber());
        }

        @Override
        public T map(T value) {
            if (stage.equals("source")) Probe.of(scenario).sourceRecords.incrementAndGet();
            return value;
        }
    }

    /**
     * Chained in front of the window operator in the same task: counts the
     * records of count[i], throws where the script's schedule says, and
     * records when the task starts again.
     */
    static final class FailHook extends KeyedProcessFunction<String, Event, Event> implements CheckpointedFunction {
        private final String scenario;
        private final Failing failing;
        private transient long count;
        private transient boolean firedSinceCheckpoint;
        private transient int subtask;

        FailHook(String scenario, Failing failing) {
            this.scenario = scenario;
            this.failing = failing;
        }

        @Override
        public void open(OpenContext ctx) {
            subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
            Probe p = Probe.of(scenario);
            p.opened("count[" + subtask + "]", attempt);
            if (attempt > 0 && subtask == failing.subtask) p.reopenedAt.add(System.nanoTime());
        }

        @Override
        public void processElement(Event e, Context ctx, Collector<Event> out) {
            Probe p = Probe.of(scenario);
            p.processed[subtask].incrementAndGet();
            count++;
            if (failing.afterWindowSinceCheckpoint) {
                long end = e.time - Math.floorMod(e.time, WINDOW.toMillis()) + WINDOW.toMillis();
                ctx.timerService().registerEventTimeTimer(end - 1);
            }
            int k = p.injected.get();
            if (subtask == failing.subtask && k < failing.after.length && count >= failing.after[k]
                    && (!failing.afterWindowSinceCheckpoint || firedSinceCheckpoint)
                    && p.injected.compareAndSet(k, k + 1)) {
                p.failedAt.add(System.nanoTime());
                throw new RuntimeException("streamlab conformance: count[" + subtask + "] fails after " + count + " records of this attempt (failure " + (k + 1) + ")");
            }
            out.collect(e);
        }

        @Override
        public void onTimer(long ts, OnTimerContext ctx, Collector<Event> out) {
            // The window operator after this one in the chain fires the same
            // window when it sees the same watermark, right after this timer.
            firedSinceCheckpoint = true;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext ctx) {
            firedSinceCheckpoint = false;
        }

        @Override
        public void initializeState(FunctionInitializationContext ctx) {
        }
    }

    static final class Count implements AggregateFunction<Event, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Event e, Long acc) {
            return acc + 1;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    static final class ToResult extends ProcessWindowFunction<Long, Result, String, TimeWindow> {
        @Override
        public void process(String key, Context ctx, Iterable<Long> counts, Collector<Result> out) {
            out.collect(new Result(ctx.window().getStart(), ctx.window().getEnd(), key, counts.iterator().next()));
        }
    }

    /** Sink V2 writing to the scenario's table (upsert by window and key) or log (append). */
    static final class TableSink implements Sink<Result> {
        private final String scenario;
        private final SinkKind kind;

        TableSink(String scenario, SinkKind kind) {
            this.scenario = scenario;
            this.kind = kind;
        }

        @Override
        public SinkWriter<Result> createWriter(WriterInitContext ctx) {
            Probe p = Probe.of(scenario);
            return new SinkWriter<>() {
                @Override
                public void write(Result r, Context c) {
                    if (kind == SinkKind.UPSERT) {
                        p.table.put(r.id(), r);
                    } else {
                        p.log.add(r);
                    }
                }

                @Override
                public void flush(boolean endOfInput) {
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
