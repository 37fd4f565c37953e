# clicks_pyspark.py: job "clicks" of the lab script active-standby.lab, for Spark 4.3.0,
# written by `streamlab export --to pyspark`. It reads events.jsonl beside it: the 400 events the
# script's runs admitted, as `streamlab run --dump-source` writes them.
#
# Run it (Spark local mode in the same process; Java 17 needed):
#   python3 -m venv venv && venv/bin/pip install pyspark==4.3.0
#   venv/bin/python clicks_pyspark.py
# It splits the events into one file per trigger (100 events, the lab's micro-batch) under clicks_pyspark.work/,
# reads one file per micro-batch (maxFilesPerTrigger 1) until all are read (availableNow),
# and keeps its checkpoint there too; each run starts afresh.
# Output: one JSON object a line appended to clicks_pyspark.out.jsonl beside it, emptied at each run.
#
# The lab's settings:
#   semantics at-least-once (in effect: at-least-once), ha active-standby
#   mode append, sink log
#   restart not set: the default, exponential-delay initial=1s max=1m0s multiplier=1.5 reset=1h0m0s jitter=0.1
#   checkpoint.interval 1000 records, deployment managed, jobmanager.ha none
#   source.rate 100/s, source.trigger 1s, source.watermark 5s
#   operator parse: parse, parallelism 1
#   operator count: window-count, parallelism 2, window 5s slide 5s, per action
#
# What does not carry over as the lab does it:
#   - ha active-standby has no Spark equivalent: no replica processes the same input beside the job.
#     This program recovers from checkpoints (the lab's passive standby) instead.
#   - checkpoint.interval: Spark records progress at every micro-batch (one file of 100 events, the
#     lab's trigger of 1s at source.rate 100/s); it has no separate checkpoint interval.
#   - restart exponential-delay: Spark has no restart strategy; a failed task is retried within the running query
#     up to spark.task.maxFailures times (4, Spark's default on a cluster; local[N,4] here), with no
#     backoff.
#   - deployment managed: Spark local mode has no executors to replace; a kill is a task failure.
#   - line 8, kill count[0] at 40: Spark has no nodes to kill; a UDF raises once, at the event at offset 40 (after 40 records),
#     a task failure standing in for a lost executor; a marker file keeps it from failing again
#     when the task is retried. For a node behind a filter or a shuffle the lab counts only that
#     node's records, so there the failure comes earlier than in the lab.

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
WORK = os.path.join(HERE, "clicks_pyspark.work")
MARKERS = os.path.join(WORK, "fired")
LOG = os.path.join(HERE, "clicks_pyspark.out.jsonl")
PER_BATCH = 100  # source.rate x source.trigger
# An id is an unsigned 64-bit number, beyond Spark's LONG: it is read as text.
SCHEMA = "`id` STRING, `time` LONG, `action` STRING, `key` STRING, `offset` LONG, `device` INT"
# The kills, by the offset of the event at which each fails (see the header).
KILLS = {40: "count[0]"}


def fail_once(offset):
    """Raises once at each kill's event: a task failure standing in for a lost executor. Spark
    retries the task (spark.task.maxFailures); the marker file keeps the retry from failing."""
    node = KILLS.get(offset)
    if node is None:
        return True
    marker = os.path.join(MARKERS, node)
    if os.path.exists(marker):
        return True
    os.makedirs(MARKERS, exist_ok=True)
    open(marker, "w").close()
    raise RuntimeError("streamlab: %s killed at offset %d" % (node, offset))


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
    """The log sink: appends the micro-batch's rows to LOG, one JSON object a line; a batch run
    again after a failure appends its rows again (foreachBatch is at-least-once)."""
    with open(LOG, "a") as log:
        for r in batch.collect():
            row = r.asDict()
            log.write(json.dumps(row, sort_keys=True) + "\n")


def main():
    folder = split_events()
    open(LOG, "w").close()
    # local[threads,maxFailures]: how often a failed task is tried (see the header on restart).
    spark = (SparkSession.builder.master("local[2,4]").appName("clicks")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    events = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(folder)
    events = events.withColumn("ts", F.timestamp_millis("time"))
    events = events.filter(F.udf(fail_once, BooleanType()).asNondeterministic()("offset"))
    # source.watermark: the largest event time seen minus 5000 ms, moved at the end of each batch.
    events = events.withWatermark("ts", "5000 milliseconds")
    # parse: drops events without an action and keys the rest by action.
    events = events.filter(F.col("action") != "").withColumn("key", F.col("action"))
    # count: counts per action in event-time windows.
    events = (events.groupBy(F.window("ts", "5000 milliseconds"), F.col("key").alias("key")).count()
        .select(F.unix_millis(F.col("window.start")).alias("window_start"),
            F.unix_millis(F.col("window.end")).alias("window_end"),
            F.col("key"), F.col("count").alias("value")))
    query = (events.writeStream.outputMode("append")
        .option("checkpointLocation", os.path.join(WORK, "checkpoint"))
        .foreachBatch(write)
        .trigger(availableNow=True)
        .start())
    query.awaitTermination()
    spark.stop()


if __name__ == "__main__":
    main()
