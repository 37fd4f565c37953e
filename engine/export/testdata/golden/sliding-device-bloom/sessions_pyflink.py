#!/usr/bin/env python3
# sessions_pyflink.py: job "sessions" of the lab script sliding-device-bloom.lab, for Flink 2.3.0,
# written by `streamlab export --to pyflink`. It reads events.jsonl beside it: the 500 events the
# script's runs admitted, as `streamlab run --dump-source` writes them.
#
# Run it locally (PyFlink starts a Flink mini cluster in the same process; Java 17 needed):
#   python3 -m venv venv && venv/bin/pip install apache-flink==2.3.0
#   venv/bin/python sessions_pyflink.py
# Run it on a cluster of one JobManager and two TaskManagers (docker-compose.yaml beside it,
# in the manner of Flink's Operations Playground; the web UI is on http://localhost:8081):
#   docker compose up -d --build
#   docker compose exec jobmanager flink run -py /opt/streamlab/sessions_pyflink.py
#   docker compose kill taskmanager-2     # a real task manager failure, beside the kills below
#   docker compose down
# STREAMLAB_PACE=0 reads the events as fast as possible; 1 (the default) paces them at
# source.rate, so that checkpoints and watermarks fall where the lab's do.
# Output: SQLite table results in sessions_pyflink.db beside it, replaced at each run.
#
# The lab's settings:
#   semantics exactly-once (in effect: exactly-once), ha passive-standby
#   mode update, sink table
#   restart failure-rate max=3 interval=5m0s delay=10s
#   checkpoint.interval 1000 records, deployment managed, jobmanager.ha standby
#   source.rate 50/s, source.trigger 2s, source.watermark 3s
#   filter bloom
#   operator parse: parse, parallelism 1
#   operator views: filter, parallelism 1, drops view,scroll
#   operator count: window-count, parallelism 2, window 20s slide 5s, per device
#
# What does not carry over as the lab does it:
#   - sink.commit transactional: the table is written by idempotent upserts (one row per window and
#     key, replaced in place), not a two-phase commit: SQLite has no XA transactions, which Flink's
#     exactly-once JDBC sink needs. Replayed rows overwrite themselves, so the table ends the same.
#   - checkpoint.interval 1000 records: Flink checkpoints by time, so the interval is the time the
#     source takes to emit 1000 records at source.rate 50/s: 20000 ms (the source is paced to that rate).
#   - deployment managed: a resource manager (Kubernetes, YARN) would replace a lost task manager
#     after about 5s; the compose cluster is standalone, and here a kill is a task failure, so no
#     task manager is lost.
#   - jobmanager.ha standby (lease 10s): needs high-availability.type zookeeper or kubernetes and a
#     standby job manager; the compose cluster has one job manager and no HA services.
#   - line 12, kill jobmanager: not carried over: a job manager failure is not a record-level event: on the compose cluster run `docker compose kill jobmanager` (without high availability the job fails with it, as in the lab's jobmanager.ha none).
#   - mode update: a Flink event-time window fires once, when the watermark passes its end (Spark's
#     append mode); the lab's update mode also writes each trigger's partial counts. The final count
#     of each window is the same; the log shows fewer rows.
#   - source.watermark 3s: Flink's bounded out-of-orderness watermark is the largest event time minus
#     3000 ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, 2s);
#     which late records a real run drops depends on that cadence.
#   - Flink assigns keys to subtasks by key group (murmur hash), not by the lab's hash: count[i] here
#     counts other keys than the lab's count[i].
#   - filter bloom: neither Flink nor Spark has a built-in Bloom or rotating membership filter;
#     the dedup stage here is exact (keyed state per id): it keeps every id and has no false positives.
#   - the dedup stage runs on the input ids before the window: Spark refuses a stateful operator
#     after an aggregation outside append mode, and Flink's window results carry no record ids.
#   - executor concurrent: the lab's own scheduling; the real engine schedules its tasks itself.

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
MARKERS = os.path.join(HERE, "sessions_pyflink.fired")
DATABASE = os.path.join(HERE, "sessions_pyflink.db")
RATE = 50  # source.rate: events per second
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


class Count(ProcessWindowFunction):
    """One row per key and event-time window: the lab's results row."""

    def process(self, key, context, elements):
        w = context.window()
        yield {"window_start": w.start, "window_end": w.end, "key": key, "value": sum(1 for _ in elements)}


class Dedup(KeyedProcessFunction):
    """The dedup stage, keyed by record id: keeps the first of each id (exact, in keyed state)."""

    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.BOOLEAN()))

    def process_element(self, value, ctx):
        if not self.seen.value():
            self.seen.update(True)
            yield value


class Upsert(MapFunction):
    """The table sink: each row replaces the row of its key in SQLite table results (idempotent,
    so rows replayed after a restore overwrite themselves)."""

    def open(self, runtime_context):
        self.db = sqlite3.connect(DATABASE, timeout=60)
        self.db.execute("CREATE TABLE IF NOT EXISTS results (window_start INTEGER NOT NULL, window_end INTEGER NOT NULL, key TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (window_start, key))")

    def map(self, row):
        self.db.execute("INSERT INTO results (window_start, window_end, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (window_start, key) DO UPDATE SET window_end = excluded.window_end, value = excluded.value", (row["window_start"], row["window_end"], row["key"], row["value"]))
        self.db.commit()
        return row

    def close(self):
        self.db.close()


def main():
    shutil.rmtree(MARKERS, ignore_errors=True)
    if os.path.exists(DATABASE):
        os.remove(DATABASE)
    config = Configuration()
    config.set_string("restart-strategy.type", "failure-rate")
    config.set_string("restart-strategy.failure-rate.max-failures-per-interval", "3")
    config.set_string("restart-strategy.failure-rate.failure-rate-interval", "300000 ms")
    config.set_string("restart-strategy.failure-rate.delay", "10000 ms")
    config.set_string("execution.checkpointing.interval", "20000 ms")
    config.set_string("execution.checkpointing.mode", "EXACTLY_ONCE")
    config.set_string("pipeline.auto-watermark-interval", "2000 ms")
    # The Python workers run with this program's interpreter (the one PyFlink is installed in).
    config.set_string("python.executable", sys.executable)
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(1)

    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), EVENTS).build()
    events = env.from_source(source, WatermarkStrategy.no_watermarks(), "source").map(Parse()).name("parse-json")
    events = events.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(3000)).with_timestamp_assigner(EventTime()))
    # parse: drops events without an action and keys the rest by action.
    events = events.filter(lambda e: e["action"] != "").map(lambda e: dict(e, key=e["action"])) \
        .name("parse").set_parallelism(1)
    # views: drops the actions view, scroll.
    events = events.filter(lambda e: e["action"] not in ["view", "scroll"]).name("views").set_parallelism(1)
    # dedup: the dedup stage; the first of each record id passes.
    events = events.key_by(lambda e: e["id"]).process(Dedup()).name("dedup").set_parallelism(1)
    # count: counts per device in event-time windows; a window fires once the watermark passes its end
    # and a record for a window already fired is dropped (allowed lateness 0), as in the lab.
    events = events.key_by(lambda e: "device-%d" % e["device"]) \
        .window(SlidingEventTimeWindows.of(Time.milliseconds(20000), Time.milliseconds(5000))) \
        .process(Count()).name("count").set_parallelism(2)
    # The table sink, with one writer.
    events.map(Upsert()).name("sink").set_parallelism(1).filter(lambda row: False).print()
    env.execute("sessions")


if __name__ == "__main__":
    main()
