# sessions_pyspark.py: job "sessions" of the lab script sliding-device-bloom.lab, for Spark 4.3.0,
# written by `streamlab export --to pyspark`. It reads events.jsonl beside it: the 500 events the
# script's runs admitted, as `streamlab run --dump-source` writes them.
#
# Run it (Spark local mode in the same process; Java 17 needed):
#   python3 -m venv venv && venv/bin/pip install pyspark==4.3.0
#   venv/bin/python sessions_pyspark.py
# It splits the events into one file per trigger (100 events, the lab's micro-batch) under sessions_pyspark.work/,
# reads one file per micro-batch (maxFilesPerTrigger 1) until all are read (availableNow),
# and keeps its checkpoint there too; each run starts afresh.
# Output: SQLite table results in sessions_pyspark.db beside it, replaced at each run.
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
#   - sink.commit transactional: foreachBatch writes each micro-batch in one SQLite transaction of
#     upserts, not a two-phase commit; a batch run again after a failure overwrites its own rows.
#   - checkpoint.interval: Spark records progress at every micro-batch (one file of 100 events, the
#     lab's trigger of 2s at source.rate 50/s); it has no separate checkpoint interval.
#   - restart failure-rate: Spark has no restart strategy; a failed task is retried within the running query
#     up to spark.task.maxFailures times (4, Spark's default on a cluster; local[N,4] here), with no
#     backoff.
#   - deployment managed: Spark local mode has no executors to replace; a kill is a task failure.
#   - jobmanager.ha standby: Spark's driver has no standby; a lost driver ends the query, which
#     resumes from checkpointLocation when started again.
#   - line 12, kill jobmanager: not carried over: a job manager failure is not a record-level event: on the compose cluster run `docker compose kill jobmanager` (without high availability the job fails with it, as in the lab's jobmanager.ha none).
#   - filter bloom: neither Flink nor Spark has a built-in Bloom or rotating membership filter;
#     the dedup stage here is exact (dropDuplicates("id")): it keeps every id and has no false positives.
#   - the dedup stage runs on the input ids before the window: Spark refuses a stateful operator
#     after an aggregation outside append mode, and Flink's window results carry no record ids.
#   - executor concurrent: the lab's own scheduling; the real engine schedules its tasks itself.

import json
import os
import shutil
import sqlite3
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import BooleanType

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = os.path.join(HERE, "events.jsonl")
WORK = os.path.join(HERE, "sessions_pyspark.work")
MARKERS = os.path.join(WORK, "fired")
DATABASE = os.path.join(HERE, "sessions_pyspark.db")
PER_BATCH = 100  # source.rate x source.trigger
# An id is an unsigned 64-bit number, beyond Spark's LONG: it is read as text.
SCHEMA = "`id` STRING, `time` LONG, `action` STRING, `key` STRING, `offset` LONG, `device` INT"


def split_events():
    """Writes the events as one file per trigger, read one per micro-batch."""
    shutil.rmtree(WORK, ignore_errors=True)
    folder = os.path.join(WORK, "input")
    os.makedirs(folder)
    with open(EVENTS) as f:
        lines = [line for line in f if line.strip()]
    # Spark's file source takes files in order of modification time, in milliseconds: the files
    # are written within one, so each gets its own second, in trigger order.
    start = int(time.time()) - len(lines) // PER_BATCH - 1
    for i in range(0, len(lines), PER_BATCH):
        path = os.path.join(folder, "batch-%06d.json" % (i // PER_BATCH))
        with open(path, "w") as out:
            out.writelines(lines[i:i + PER_BATCH])
        os.utime(path, (start + i // PER_BATCH, start + i // PER_BATCH))
    return folder


def write(batch, batch_id):
    """The table sink: the micro-batch's rows, upserted into SQLite table results in one transaction.
    A batch run again after a failure overwrites its own rows."""
    rows = [tuple(r[c] for c in ("window_start", "window_end", "key", "value")) for r in batch.collect()]
    db = sqlite3.connect(DATABASE, timeout=60)
    with db:
        db.execute("CREATE TABLE IF NOT EXISTS results (window_start INTEGER NOT NULL, window_end INTEGER NOT NULL, key TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (window_start, key))")
        db.executemany("INSERT INTO results (window_start, window_end, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (window_start, key) DO UPDATE SET window_end = excluded.window_end, value = excluded.value", rows)
    db.close()


def main():
    folder = split_events()
    if os.path.exists(DATABASE):
        os.remove(DATABASE)
    # local[threads,maxFailures]: how often a failed task is tried (see the header on restart).
    spark = (SparkSession.builder.master("local[2,4]").appName("sessions")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    events = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(folder)
    events = events.withColumn("ts", F.timestamp_millis("time"))
    # source.watermark: the largest event time seen minus 3000 ms, moved at the end of each batch.
    events = events.withWatermark("ts", "3000 milliseconds")
    # parse: drops events without an action and keys the rest by action.
    events = events.filter(F.col("action") != "").withColumn("key", F.col("action"))
    # views: drops the actions view, scroll.
    events = events.filter(~F.col("action").isin(["view", "scroll"]))
    # dedup: the dedup stage; the first of each record id passes (its state is kept for ever).
    events = events.dropDuplicates(["id"])
    # count: counts per device in event-time windows.
    events = (events.groupBy(F.window("ts", "20000 milliseconds", "5000 milliseconds"), F.concat(F.lit("device-"), F.col("device").cast("string")).alias("key")).count()
        .select(F.unix_millis(F.col("window.start")).alias("window_start"),
            F.unix_millis(F.col("window.end")).alias("window_end"),
            F.col("key"), F.col("count").alias("value")))
    query = (events.writeStream.outputMode("update")
        .option("checkpointLocation", os.path.join(WORK, "checkpoint"))
        .foreachBatch(write)
        .trigger(availableNow=True)
        .start())
    query.awaitTermination()
    spark.stop()


if __name__ == "__main__":
    main()
