# passthrough_pyspark.py: job "passthrough" of the lab script builtin-passthrough.lab, for Spark 4.3.0,
# written by `streamlab export --to pyspark`. It reads events.jsonl beside it: the 300 events the
# script's runs admitted, as `streamlab run --dump-source` writes them.
#
# Run it (Spark local mode in the same process; Java 17 needed):
#   python3 -m venv venv && venv/bin/pip install pyspark==4.3.0
#   venv/bin/python passthrough_pyspark.py
# It splits the events into one file per trigger (100 events, the lab's micro-batch) under passthrough_pyspark.work/,
# reads one file per micro-batch (maxFilesPerTrigger 1) until all are read (availableNow),
# and keeps its checkpoint there too; each run starts afresh.
# Output: one JSON object a line appended to passthrough_pyspark.out.jsonl beside it, emptied at each run.
#
# The lab's settings:
#   semantics at-most-once (in effect: at-most-once), ha none
#   mode update, sink log
#   restart not set: the default, none
#   checkpoint.interval 1000 records, deployment managed, jobmanager.ha none
#   source.rate 100/s, source.trigger 1s, source.watermark 5s
#   operator map: map, parallelism 1
#   operator filter: filter, parallelism 1, drops scroll
#
# What does not carry over as the lab does it:
#   - at-most-once (gap recovery) has no Spark equivalent: a streaming query always records its
#     offsets in checkpointLocation and replays the failed micro-batch, so nothing is lost.
#   - checkpoint.interval: Spark records progress at every micro-batch (one file of 100 events, the
#     lab's trigger of 1s at source.rate 100/s); it has no separate checkpoint interval.
#   - restart none: Spark has no restart strategy; a task is tried once (local[N,1]), so the first
#     failure fails the query. Restarting a failed query is left to whoever runs it.
#   - deployment managed: Spark local mode has no executors to replace; a kill is a task failure.

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
WORK = os.path.join(HERE, "passthrough_pyspark.work")
MARKERS = os.path.join(WORK, "fired")
LOG = os.path.join(HERE, "passthrough_pyspark.out.jsonl")
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
    """The log sink: appends the micro-batch's rows to LOG, one JSON object a line; a batch run
    again after a failure appends its rows again (foreachBatch is at-least-once)."""
    with open(LOG, "a") as log:
        for r in batch.collect():
            row = r.asDict()
            row["id"] = int(row["id"])  # read as text: print the number, as in the events
            log.write(json.dumps(row, sort_keys=True) + "\n")


def main():
    folder = split_events()
    open(LOG, "w").close()
    # local[threads,maxFailures]: how often a failed task is tried (see the header on restart).
    spark = (SparkSession.builder.master("local[1,1]").appName("passthrough")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    events = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(folder)
    events = events.withColumn("ts", F.timestamp_millis("time"))
    # source.watermark: the largest event time seen minus 5000 ms, moved at the end of each batch.
    events = events.withWatermark("ts", "5000 milliseconds")
    # map: lower-cases the action.
    events = events.withColumn("action", F.lower("action"))
    # filter: drops the actions scroll.
    events = events.filter(~F.col("action").isin(["scroll"]))
    events = events.select("id", "time", "action", "key", "offset")
    query = (events.writeStream.outputMode("update")
        .option("checkpointLocation", os.path.join(WORK, "checkpoint"))
        .foreachBatch(write)
        .trigger(availableNow=True)
        .start())
    query.awaitTermination()
    spark.stop()


if __name__ == "__main__":
    main()
