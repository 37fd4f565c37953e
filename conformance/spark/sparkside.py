"""The Spark side: one local session, queries over a directory of JSON files read one file per
micro-batch, and a foreachBatch sink that keeps every batch and a SQLite table like the lab's.
"""

import json
import os
import shutil
import sqlite3
import time

from pyspark.sql import SparkSession, functions as F
from pyspark.errors import AnalysisException

SCHEMA = "id STRING, time LONG, action STRING, key STRING"


def session():
    spark = (SparkSession.builder.master("local[1]").appName("streamlab-conformance")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "1")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_event(e):
    """An event of the lab's dumped source as Spark reads it: the id as text (the lab's ids are
    unsigned 64-bit, beyond Spark's LONG), the time in Unix ms."""
    return {"id": str(e["id"]), "time": e["time"], "action": e["action"], "key": e.get("key") or e["action"]}


def windowed_count(df, window_ms, watermark_ms, slide_ms=None):
    """The lab's window-count: event-time windows per key (tumbling, or sliding by SLIDE_MS), as
    (window_start, window_end, key, value) in Unix ms."""
    df = df.withColumn("ts", F.timestamp_millis("time"))
    if watermark_ms is not None:
        df = df.withWatermark("ts", "%d milliseconds" % watermark_ms)
    if slide_ms:
        w = F.window("ts", "%d milliseconds" % window_ms, "%d milliseconds" % slide_ms)
    else:
        w = F.window("ts", "%d milliseconds" % window_ms)
    return result_columns(df.groupBy(w, "key").count())


def result_columns(df):
    return df.select(F.unix_millis(F.col("window.start")).alias("window_start"),
                     F.unix_millis(F.col("window.end")).alias("window_end"),
                     F.col("key"), F.col("count").alias("value"))


class Refused(Exception):
    def __init__(self, condition, message):
        super().__init__(message)
        self.condition = condition
        self.message = message


class Query:
    """A streaming query over its own input directory, stepped one file (one micro-batch) at a time.

    sink "table": foreachBatch keeps each batch's rows and applies them to a SQLite table
    results(window_start, window_end, key, value) the way the lab's table sink does (append:
    insert; update: upsert by window and key; complete: rewrite). sink "events": rows (id, time,
    action) appended to table events. The batch id is ignored unless idempotent is set, which skips a
    batch id the table already committed (in the same SQLite transaction as the rows).
    """

    def __init__(self, spark, work, name, build, mode, sink="table", fail_batch=None, idempotent=False):
        self.spark = spark
        self.dir = os.path.join(work, "spark", name)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.input = os.path.join(self.dir, "input")
        self.checkpoint = os.path.join(self.dir, "checkpoint")
        os.makedirs(self.input)
        self.db = os.path.join(self.dir, "sink.db")
        self.build = build
        self.mode = mode
        self.sink = sink
        self.fail_batch = fail_batch  # raise after writing this batch, once: a crash before the commit
        self.idempotent = idempotent
        self.calls = []  # (batch id, rows) for every foreachBatch call, re-runs included
        self.files = 0
        self.q = None
        self.seen_progress = -1
        con = sqlite3.connect(self.db)
        con.execute("CREATE TABLE IF NOT EXISTS results (window_start INTEGER, window_end INTEGER, key TEXT, value INTEGER)")
        con.execute("CREATE TABLE IF NOT EXISTS events (id TEXT, time INTEGER, action TEXT)")
        con.execute("CREATE TABLE IF NOT EXISTS batches (batch INTEGER)")
        con.commit()
        con.close()

    def start(self):
        df = self.spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(self.input)
        out = self.build(df)
        if "window_start" not in out.columns:
            self.sink = "events"
        self.q = (out.writeStream.outputMode(self.mode).option("checkpointLocation", self.checkpoint)
                  .foreachBatch(self._batch).start())
        return self

    def _batch(self, df, batch_id):
        rows = [tuple(r) for r in df.collect()]
        self.calls.append((batch_id, rows))
        con = sqlite3.connect(self.db)
        with con:
            if self.idempotent and con.execute("SELECT 1 FROM batches WHERE batch = ?", (batch_id,)).fetchone():
                return
            if self.sink == "events":
                con.executemany("INSERT INTO events VALUES (?, ?, ?)", [(r[0], r[1], r[2]) for r in rows])
            elif self.mode == "complete":
                con.execute("DELETE FROM results")
                con.executemany("INSERT INTO results VALUES (?, ?, ?, ?)", rows)
            elif self.mode == "update":
                for r in rows:
                    con.execute("DELETE FROM results WHERE window_start = ? AND key = ?", (r[0], r[2]))
                con.executemany("INSERT INTO results VALUES (?, ?, ?, ?)", rows)
            else:
                con.executemany("INSERT INTO results VALUES (?, ?, ?, ?)", rows)
            con.execute("INSERT INTO batches VALUES (?)", (batch_id,))
        con.close()
        if self.fail_batch is not None and batch_id == self.fail_batch:
            self.fail_batch = None
            raise RuntimeError("crash after the write of batch %d, before its commit" % batch_id)

    def step(self, events):
        """Write EVENTS as the next file and process until quiet: that file's micro-batch and the
        no-data batch Spark runs after it when the watermark moved. Returns (rows written, by
        batch; progress of those batches)."""
        before = len(self.calls)
        self.files += 1
        tmp = os.path.join(self.dir, "part-%05d.json" % self.files)
        with open(tmp, "w") as f:
            for e in events:
                f.write(json.dumps(spark_event(e)) + "\n")
        os.rename(tmp, os.path.join(self.input, "part-%05d.json" % self.files))
        self.q.processAllAvailable()
        return self.calls[before:], self.new_progress()

    def backlog(self, parts):
        """Write every part as a file before the query starts, then process them all: each
        micro-batch has data, so Spark runs no no-data batch between two of them (only after the
        last). Returns, per part, (rows written by batch; progress), the batches after the last
        part's counted with it."""
        for i, events in enumerate(parts):
            path = os.path.join(self.input, "part-%05d.json" % i)
            with open(path, "w") as f:
                for e in events:
                    f.write(json.dumps(spark_event(e)) + "\n")
            os.utime(path, (1000000000 + i, 1000000000 + i))  # read in this order, one a batch
        self.start()
        self.q.processAllAvailable()
        progress = self.new_progress()
        out = []
        for k in range(len(parts)):
            last = k == len(parts) - 1
            pick = lambda b: b == k or (last and b > k)
            out.append(([c for c in self.calls if pick(c[0])], [p for p in progress if pick(p["batchId"])]))
        for p in progress:
            if p["batchId"] < len(parts) and p["numInputRows"] != len(parts[p["batchId"]]):
                raise RuntimeError("batch %d read %d rows, not file %d's %d" % (
                    p["batchId"], p["numInputRows"], p["batchId"], len(parts[p["batchId"]])))
        return out

    def new_progress(self):
        out = []
        for p in self.q.recentProgress:
            p = json.loads(p.json) if hasattr(p, "json") else p
            if p["batchId"] > self.seen_progress:
                out.append(p)
        if out:
            self.seen_progress = max(p["batchId"] for p in out)
        return out

    def stop(self):
        if self.q is not None:
            self.q.stop()
            self.q = None

    def table(self):
        con = sqlite3.connect(self.db)
        if self.sink == "events":
            rows = [tuple(r) for r in con.execute("SELECT id, time, action FROM events ORDER BY rowid")]
        else:
            rows = [tuple(r) for r in con.execute(
                "SELECT window_start, window_end, key, value FROM results ORDER BY window_start, key, value")]
        con.close()
        return rows


def try_start(spark, work, name, build, mode, events):
    """Start the query in MODE and run one micro-batch: None when it ran, else Refused."""
    q = Query(spark, work, name, build, mode)
    try:
        q.start()
        q.step(events)
        return None
    except AnalysisException as e:
        cond = e.getCondition() if hasattr(e, "getCondition") else e.getErrorClass()
        return Refused(cond, str(e).splitlines()[0])
    finally:
        q.stop()


def dropped(progress):
    return sum(op.get("numRowsDroppedByWatermark", 0) for p in progress for op in p.get("stateOperators", []))


def state_rows(progress):
    """Rows held in state after the last of these batches, summed over stateful operators."""
    if not progress:
        return None
    return sum(op.get("numRowsTotal", 0) for op in progress[-1].get("stateOperators", []))


def timed(f):
    t = time.time()
    r = f()
    return r, time.time() - t
