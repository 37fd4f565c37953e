#!/usr/bin/env python3
# clicks_pyflink.py: job "clicks" of the lab script active-standby.lab, for Flink 2.3.0,
# written by `streamlab export --to pyflink`. It reads events.jsonl beside it: the 400 events the
# script's runs admitted, as `streamlab run --dump-source` writes them.
#
# Run it locally (PyFlink starts a Flink mini cluster in the same process; Java 17 needed):
#   python3 -m venv venv && venv/bin/pip install apache-flink==2.3.0
#   venv/bin/python clicks_pyflink.py
# Run it on a cluster of one JobManager and two TaskManagers (docker-compose.yaml beside it,
# in the manner of Flink's Operations Playground; the web UI is on http://localhost:8081):
#   docker compose up -d --build
#   docker compose exec jobmanager flink run -py /opt/streamlab/clicks_pyflink.py
#   docker compose kill taskmanager-2     # a real task manager failure, beside the kills below
#   docker compose down
# STREAMLAB_PACE=0 reads the events as fast as possible; 1 (the default) paces them at
# source.rate, so that checkpoints and watermarks fall where the lab's do.
# Output: one JSON object a line appended to clicks_pyflink.out.jsonl beside it, emptied at each run.
#
# The lab's settings:
#   semantics at-least-once (in effect: at-least-once), ha active-standby
#   mode append, sink log
#   restart exponential-delay initial=1s max=1m0s multiplier=1.5 reset=1h0m0s jitter=0.1
#   checkpoint.interval 1000 records, deployment managed, jobmanager.ha none
#   source.rate 100/s, source.trigger 1s, source.watermark 5s
#   operator parse: parse, parallelism 1
#   operator count: window-count, parallelism 2, window 5s slide 5s, per action
#
# What does not carry over as the lab does it:
#   - ha active-standby has no Flink equivalent: no replica processes the same input beside the job.
#     This program recovers from checkpoints (the lab's passive standby) instead.
#   - checkpoint.interval 1000 records: Flink checkpoints by time, so the interval is the time the
#     source takes to emit 1000 records at source.rate 100/s: 10000 ms (the source is paced to that rate).
#   - deployment managed: a resource manager (Kubernetes, YARN) would replace a lost task manager
#     after about 5s; the compose cluster is standalone, and here a kill is a task failure, so no
#     task manager is lost.
#   - line 8, kill count[0] at 40: subtask 0 of a map placed before count raises once after 40 records, a task failure standing in
#     for a lost task manager (the task manager stays up); a marker file keeps it from failing
#     again after the restart.
#   - source.watermark 5s: Flink's bounded out-of-orderness watermark is the largest event time minus
#     5000 ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, 1s);
#     which late records a real run drops depends on that cadence.
#   - Flink assigns keys to subtasks by key group (murmur hash), not by the lab's hash: count[i] here
#     counts other keys than the lab's count[i].

import json
import os
import shutil
import sqlite3
import sys
import time

from pyflink.common import Configuration, Duration, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.functions import KeyedProcessFunction, MapFunction, ProcessWindowFunction
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import SlidingEventTimeWindows, TumblingEventTimeWindows

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = os.path.join(HERE, "events.jsonl")
# Kills that have fired: one empty file per node, so that each fails once across restarts.
MARKERS = os.path.join(HERE, "clicks_pyflink.fired")
LOG = os.path.join(HERE, "clicks_pyflink.out.jsonl")
RATE = 100  # source.rate: events per second
PACE = float(os.environ.get("STREAMLAB_PACE", "1"))


class Parse(MapFunction):
    """Reads one line of the events file, at the lab's source.rate unless PACE is 0."""

    def map(self, line):
        if PACE > 0:
            time.sleep(1.0 / (RATE * PACE))
        return json.loads(line)


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value["time"]


class FailOnce(MapFunction):
    """The lab's kill NODE at N: subtask `subtask` raises instead of passing on its record
    N+1, once. This is a task failure standing in for a lost task manager: the task manager
    stays up and Flink restarts the tasks by its restart strategy. The marker file (shared by
    the task managers of the compose cluster) keeps it from failing again after the restart."""

    def __init__(self, node, subtask, after):
        self.node, self.subtask, self.after = node, subtask, after
        self.index, self.seen = 0, 0

    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        if self.index != self.subtask:
            return value
        self.seen += 1
        marker = os.path.join(MARKERS, self.node)
        if self.seen > self.after and not os.path.exists(marker):
            os.makedirs(MARKERS, exist_ok=True)
            open(marker, "w").close()
            raise RuntimeError("streamlab: %s killed after %d records" % (self.node, self.after))
        return value


class Count(ProcessWindowFunction):
    """One row per key and event-time window: the lab's results row."""

    def process(self, key, context, elements):
        w = context.window()
        yield {"window_start": w.start, "window_end": w.end, "key": key, "value": sum(1 for _ in elements)}


class Append(MapFunction):
    """The log sink: appends each row to LOG as one JSON object a line, as it is processed, so a
    row processed again after a restore shows twice, as in the lab's append-only log."""

    def open(self, runtime_context):
        self.log = open(LOG, "a")

    def map(self, row):
        self.log.write(json.dumps(row, sort_keys=True) + "\n")
        self.log.flush()
        return row

    def close(self):
        self.log.close()


def main():
    shutil.rmtree(MARKERS, ignore_errors=True)
    open(LOG, "w").close()
    config = Configuration()
    config.set_string("restart-strategy.type", "exponential-delay")
    config.set_string("restart-strategy.exponential-delay.initial-backoff", "1000 ms")
    config.set_string("restart-strategy.exponential-delay.max-backoff", "60000 ms")
    config.set_string("restart-strategy.exponential-delay.backoff-multiplier", "1.5")
    config.set_string("restart-strategy.exponential-delay.reset-backoff-threshold", "3600000 ms")
    config.set_string("restart-strategy.exponential-delay.jitter-factor", "0.1")
    config.set_string("execution.checkpointing.interval", "10000 ms")
    config.set_string("execution.checkpointing.mode", "AT_LEAST_ONCE")
    config.set_string("pipeline.auto-watermark-interval", "1000 ms")
    # The Python workers run with this program's interpreter (the one PyFlink is installed in).
    config.set_string("python.executable", sys.executable)
    # One Python worker per operator rather than one per slot: when a kill fails a task whose
    # worker the slot's other Python operators share, PyFlink 2.3 can release the shared worker
    # twice ("Reference count must not be negative") and stop the whole task manager, which a
    # local run cannot replace.
    config.set_string("python.fn-execution.memory.managed", "false")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(1)

    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), EVENTS).build()
    events = env.from_source(source, WatermarkStrategy.no_watermarks(), "source").map(Parse()).name("parse-json")
    events = events.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(5000)).with_timestamp_assigner(EventTime()))
    # parse: drops events without an action and keys the rest by action.
    events = events.filter(lambda e: e["action"] != "").map(lambda e: dict(e, key=e["action"])) \
        .name("parse").set_parallelism(1)
    # line 8: kill count[0] at 40 (see the header)
    events = events.key_by(lambda e: e["key"]).map(FailOnce("count[0]", 0, 40)).name("kill count[0]").set_parallelism(2)
    # count: counts per action in event-time windows; a window fires once the watermark passes its end
    # and a record for a window already fired is dropped (allowed lateness 0), as in the lab.
    events = events.key_by(lambda e: e["key"]) \
        .window(TumblingEventTimeWindows.of(Time.milliseconds(5000))) \
        .process(Count()).name("count").set_parallelism(2)
    # The log sink, with one writer.
    events.map(Append()).name("sink").set_parallelism(1).filter(lambda row: False).print()
    env.execute("clicks")


if __name__ == "__main__":
    main()
