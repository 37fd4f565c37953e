"""streamlab against Spark 4.3.0: every scenario runs the lab's script with the built binary and
the equivalent PySpark query on the lab's dumped source, and prints one table row
| spark | scenario | streamlab | Spark 4.3.0 | agree |. Logs go to standard error.

Usage: python scenarios.py --streamlab BIN --work DIR --repo DIR
"""

import argparse
import json
import os
import shutil
import sys
import time
import traceback

T0 = 1767268800000  # 2026-01-01T12:00:00Z, the lessons' origin


BACKLOG_NOTE = ("differs: the lab moves its watermark at every trigger, as Spark does when a no-data batch "
                "runs between two triggers; with data in every batch Spark 3.4+ filters late input with the "
                "watermark of two batches back and emits a final window one batch later")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def cell(s):
    return str(s).replace("|", "/").replace("\n", " ")


def emit(scenario, lab_cell, spark_cell, agree, note=""):
    """One row. NOTE, said only when the two differ, names a difference the lab makes by design."""
    if note and not agree:
        lab_cell = "%s (%s)" % (lab_cell, note)
    print("| spark | %s | %s | %s | %s |" % (cell(scenario), cell(lab_cell), cell(spark_cell),
                                              "yes" if agree else "no"), flush=True)


def jsonl(events):
    return "".join(json.dumps(e) + "\n" for e in events)


def ev(i, sec, action, ms=0):
    """Event id I at SEC seconds (and MS ms) after 12:00:00."""
    return {"id": i, "time": T0 + sec * 1000 + ms, "action": action}


def file_job(name, ops, watermark="5s"):
    """A job file replaying NAME.jsonl one event a second, with a 1 s trigger (the lessons' shape)."""
    lines = ["name: %s" % name, "source:", "  file: %s.jsonl" % name, "  rate: 1",
             "  watermark: %s" % watermark, "operators:"]
    for op in ops:
        lines.append("  - name: %s" % op[0])
        lines.append("    kind: %s" % op[1])
        if len(op) > 2:
            lines.append("    window: %s" % op[2])
    return "\n".join(lines) + "\n"


def fmt_ms(t):
    s = (t - T0) / 1000.0
    return ("%+.3fs" % s).rstrip("0").rstrip(".") if s % 1 else "%+ds" % s


def fmt_result(r):
    return "[%s,%s) %s=%s" % (fmt_ms(r[0]), fmt_ms(r[1]), r[2], r[3])


def read_order(checkpoint):
    """The input files of a file-source query, in the order its micro-batches read them (from the
    source's log in the checkpoint): the number in each file's name, batch by batch."""
    import re
    d = os.path.join(checkpoint, "sources", "0")
    by_batch = {}
    if not os.path.isdir(d):
        return []
    for name in os.listdir(d):
        if name.startswith("."):
            continue
        with open(os.path.join(d, name)) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    e = json.loads(line)
                    m = re.search(r"(\d+)\.json$", e.get("path", ""))
                    if m:
                        by_batch.setdefault(e["batchId"], set()).add(int(m.group(1)))
    return [i for b in sorted(by_batch) for i in sorted(by_batch[b])]


class Harness:
    def __init__(self, args):
        from lab import Lab
        import sparkside
        self.sp = sparkside
        self.repo = args.repo
        self.work = args.work
        shutil.rmtree(os.path.join(self.work, "lab"), ignore_errors=True)
        shutil.rmtree(os.path.join(self.work, "spark"), ignore_errors=True)
        self.lab = Lab(args.streamlab, self.work, log)
        t = time.time()
        self.spark = sparkside.session()
        log("spark session started in %.1f s" % (time.time() - t))
        self.broken = []

    def lesson_files(self, lesson, job):
        d = os.path.join(self.repo, "lessons", "content", lesson)
        out = {}
        for ext in ("yaml", "jsonl"):
            with open(os.path.join(d, "%s.%s" % (job, ext))) as f:
                out["%s.%s" % (job, ext)] = f.read()
        return out

    # ---------------------------------------------------------------- acceptance matrix

    def modes(self, scenario, lab_head, files, build, note=""):
        """Which output modes each side accepts for one query."""
        sp = self.sp
        events = self.lab.run("modes-source", "job clicks\nset sink table\nrun 200\n").source[:200]
        lab_cells, spark_cells, agree = [], [], True
        for mode in ("append", "update", "complete"):
            r = self.lab.run("modes", "%s\nset mode %s\nset sink table\nrun 200\n" % (lab_head, mode), files)
            if r.rc == 0:
                lab_ok, lab_why = True, ""
            elif r.rc == 2:
                lab_ok, lab_why = False, r.err.split(": ", 2)[-1]
            else:
                raise RuntimeError("lab exit %d in %s %s: %s" % (r.rc, scenario, mode, r.err))
            refused = sp.try_start(self.spark, self.work, "modes", build, mode, events)
            spark_ok = refused is None
            if not spark_ok:
                log("spark refused %s %s: %s" % (scenario, mode, refused.message))
            lab_cells.append("%s %s" % (mode, "runs" if lab_ok else "refused"))
            spark_cells.append("%s %s" % (mode, "runs" if spark_ok else "refused (%s)" % refused.condition))
            if lab_ok != spark_ok:
                agree = False
                log("DISAGREE %s %s: lab %s%s, spark %s" % (
                    scenario, mode, "runs" if lab_ok else "refuses", (": " + lab_why) if lab_why else "",
                    "runs" if spark_ok else "refuses: " + refused.message))
        emit(scenario, "; ".join(lab_cells), "; ".join(spark_cells), agree, note)

    def acceptance(self):
        sp = self.sp
        F = sp.F
        count = lambda wm: (lambda df: sp.windowed_count(df, 10000, wm))
        windowed = lambda df, wm: df.withColumn("ts", F.timestamp_millis("time")).withWatermark("ts", "%d milliseconds" % wm)
        self.modes("modes: window count with a 5 s watermark (clicks)", "job clicks", None, count(5000))
        self.modes("modes: window count without a watermark (clicks, source.watermark none)",
                   "job clicks\nset source.watermark none", None, count(None))
        self.modes("modes: no aggregation (passthrough)", "job passthrough", None,
                   lambda df: df.select("id", "time", F.lower("action").alias("action")).where("action != 'scroll'"))
        self.modes("modes: window count, then a dedup of its result rows (clicks, set filter exact)",
                   "job clicks\nset filter exact", None,
                   lambda df: sp.result_columns(
                       windowed(df, 5000).groupBy(F.window("ts", "10 seconds"), "key").count()
                       .dropDuplicates(["window", "key", "count"])),
                   note="by design: the dedup stage filters result rows at the sink, as a foreachBatch could; "
                        "as a dropDuplicates after the aggregation Spark refuses it outside append")
        job = ("name: dedupcount\nsource:\n  watermark: 5s\noperators:\n  - name: parse\n    kind: parse\n"
               "  - name: dedup\n    kind: dedup\n  - name: count\n    kind: window-count\n    window: 10s\n")

        def dedup_then_count(df):
            df = df.withColumn("ts", F.timestamp_millis("time")).withWatermark("ts", "5 seconds").dropDuplicates(["id"])
            return sp.result_columns(df.groupBy(F.window("ts", "10 seconds"), "key").count())
        self.modes("modes: dedup of input ids, then window count (job parse, dedup, window-count; set filter exact)",
                   "job dedupcount.yaml\nset filter exact", {"dedupcount.yaml": job}, dedup_then_count)

    # ---------------------------------------------------------------- rows per trigger

    def per_trigger(self, name, head, files, mode, prefixes, final, build, count_late=True, backlog=False):
        """Run the lab's script cut after each trigger (PREFIXES[k] holds the runs of the first k+1
        triggers) and whole (FINAL), and Spark on the same events one file per trigger."""
        sp = self.sp
        tables, opens, bounds = [], [], [0]
        for k, runs in enumerate(prefixes):
            r = self.lab.run(name, "%s\nset mode %s\nset sink table\n%s\n" % (head, mode, runs), files)
            if r.rc != 0:
                raise RuntimeError("lab exit %d: %s" % (r.rc, r.err))
            if r.get("sink.batches") != k + 1:
                raise RuntimeError("prefix %d of %s wrote %d batches, not one a trigger" % (k + 1, name, r.get("sink.batches")))
            tables.append(r.results)
            opens.append(r.get("window.open"))
            bounds.append(r.get("source.records"))
        whole = self.lab.run(name, "%s\nset mode %s\nset sink table\n%s\n" % (head, mode, final), files)
        if whole.rc != 0:
            raise RuntimeError("lab exit %d: %s" % (whole.rc, whole.err))
        from lab import trigger_rows
        lab_rows = trigger_rows(tables, mode)
        source = whole.source
        q = sp.Query(self.spark, self.work, "%s-%s%s" % (name, mode, "-backlog" if backlog else ""), build, mode)
        parts = [source[bounds[k]:bounds[k + 1]] for k in range(len(prefixes))]
        spark_rows, spark_state, spark_dropped, spark_batches = [], [], 0, []
        try:
            if backlog:
                steps = q.backlog(parts)
            else:
                q.start()
                steps = (q.step(part) for part in parts)
            for k, (calls, progress) in enumerate(steps):
                log("spark %s %s step %d: batches %s" % (name, mode, k + 1, [b for b, _ in calls]))
                if mode == "complete":
                    rows = calls[-1][1] if calls else []
                else:
                    rows = [r for _, rs in calls for r in rs]
                spark_rows.append(sorted([tuple(r) for r in rows], key=repr))
                spark_batches.append(len(calls))
                spark_state.append(sp.state_rows(progress))
                spark_dropped += sp.dropped(progress)
        finally:
            q.stop()
        spark_table = q.table()
        lab_table = whole.results
        same_rows = lab_rows == spark_rows
        same_table = sorted(lab_table, key=repr) == sorted(spark_table, key=repr)
        for k, (a, b) in enumerate(zip(lab_rows, spark_rows)):
            if a != b:
                log("DISAGREE %s %s trigger %d: lab %s, spark %s" % (
                    name, mode, k + 1, [fmt_result(r) for r in a], [fmt_result(r) for r in b]))
        if not same_table:
            log("DISAGREE %s %s table: lab %s, spark %s" % (
                name, mode, [fmt_result(r) for r in lab_table], [fmt_result(r) for r in spark_table]))

        def summary(per, table, late):
            s = "rows per trigger %s; table %d rows" % (" ".join(str(len(x)) for x in per), len(table))
            if count_late:
                s += "; %d dropped late" % late
            return s
        lab_late = whole.get("window.dropped_late")
        agree = same_rows and same_table and (not count_late or lab_late == spark_dropped)
        return dict(lab_cell=summary(lab_rows, lab_table, lab_late),
                    spark_cell=summary(spark_rows, spark_table, spark_dropped)
                    + "; micro-batches per trigger " + " ".join(str(n) for n in spark_batches), agree=agree,
                    lab_rows=lab_rows, spark_rows=spark_rows, lab_table=lab_table, spark_table=spark_table,
                    lab_state=opens, spark_state=spark_state)

    def lesson_rows(self):
        sp = self.sp
        build = lambda df: sp.windowed_count(df, 10000, 5000)
        for lesson, job, title in (("01-streams", "watermark", "lesson 1 watermark.yaml (the guide's example in seconds)"),
                                   ("02-output-modes", "late-open", "lesson 2 late-open.yaml")):
            files = self.lesson_files(lesson, job)
            for mode in ("append", "update", "complete"):
                res = self.per_trigger(job, "job %s.yaml" % job, files, mode,
                                       ["run %d" % k for k in range(1, 7)], "run 6\nrun 5s", build)
                emit("rows per trigger: %s, %s" % (title, mode), res["lab_cell"], res["spark_cell"], res["agree"])
                if job == "late-open" and mode in ("update", "complete"):
                    self.state_row("state after each trigger: %s, %s" % (title, mode), res)
                if mode != "complete":
                    # Files that wait for Spark: every micro-batch has data, no no-data batch runs
                    # between two of them.
                    res = self.per_trigger(job, "job %s.yaml" % job, files, mode,
                                           ["run %d" % k for k in range(1, 7)], "run 6\nrun 5s", build, backlog=True)
                    emit("rows per trigger: %s, %s, all files waiting (data in every micro-batch)" % (title, mode),
                         res["lab_cell"], res["spark_cell"], res["agree"], BACKLOG_NOTE)

    def state_row(self, scenario, res):
        """Groups (window, key) held in state after each trigger: the lab's window.open, Spark's
        numRowsTotal after the trigger's batches."""
        lab = " ".join(str(x) for x in res["lab_state"])
        spark = " ".join(str(x) for x in res["spark_state"])
        emit(scenario, "groups held " + lab, "groups held " + spark, res["lab_state"] == res["spark_state"])

    def clicks_rows(self):
        sp = self.sp
        build = lambda df: sp.windowed_count(df, 10000, 5000)
        head = "job clicks\nset seed 7\nset source.trigger 1h"
        n = 10
        for mode in ("append", "update", "complete"):
            res = self.per_trigger("clicks", head, None, mode,
                                   ["run 200\n" * k for k in range(1, n + 1)], "run 200\n" * n, build,
                                   count_late=False)
            emit("rows per trigger: clicks seed 7, 10 triggers of 200 events (id, time, action), %s" % mode,
                 res["lab_cell"], res["spark_cell"], res["agree"])
            if mode == "update":
                self.state_row("state after each trigger: clicks seed 7, update", res)
        # The guide's watermark example slides its windows: 10 s windows every 5 s here.
        slide = lambda df: sp.windowed_count(df, 10000, 5000, slide_ms=5000)
        for mode in ("append", "update"):
            res = self.per_trigger("clicks-sliding", head + "\nset window 10s\nset window.slide 5s", None, mode,
                                   ["run 200\n" * k for k in range(1, n + 1)], "run 200\n" * n, slide,
                                   count_late=False)
            emit("rows per trigger: clicks seed 7, sliding windows 10 s every 5 s, %s" % mode,
                 res["lab_cell"], res["spark_cell"], res["agree"])

    # ---------------------------------------------------------------- late data at the boundary

    def late_rows(self):
        sp = self.sp
        events = [ev(1, 15, "open"),            # watermark 12:00:10
                  ev(2, 10, "open"),            # exactly at the watermark: its window [10 s, 20 s) is open
                  ev(3, 9, "click", ms=999),    # its window [0 s, 10 s) ends at the watermark: final
                  ev(4, 12, "close")]
        files = {"boundary.yaml": file_job("boundary", [("parse", "parse"), ("count", "window-count", "10s")]),
                 "boundary.jsonl": jsonl(events)}
        build = lambda df: sp.windowed_count(df, 10000, 5000)
        for mode in ("append", "update", "complete"):
            res = self.per_trigger("boundary", "job boundary.yaml", files, mode,
                                   ["run %d" % k for k in range(1, 5)], "run 4\nrun 5s", build)
            emit("late: an event at the watermark (12:00:10) and one in a window ending there (12:00:09.999), %s" % mode,
                 res["lab_cell"], res["spark_cell"], res["agree"])

    # ---------------------------------------------------------------- deduplication

    def dedup_row(self, scenario, name, events, lab_filter, build, note=""):
        sp = self.sp
        files = {"%s.yaml" % name: file_job(name, [("map", "map")]), "%s.jsonl" % name: jsonl(events)}
        head = "job %s.yaml\nset filter %s" % (name, lab_filter)
        lab_per, bounds, before = [], [0], []
        for k in range(1, len(events) + 1):
            r = self.lab.run(name, "%s\nset mode append\nset sink table\nrun %d\n" % (head, k), files)
            if r.rc != 0:
                raise RuntimeError("lab exit %d: %s" % (r.rc, r.err))
            lab_per.append(r.events[len(before):])
            before = r.events
            bounds.append(r.get("source.records"))
        source = r.source
        q = sp.Query(self.spark, self.work, name + "-" + scenario[:20].replace(" ", "_"), build, "append",
                     sink="events").start()
        spark_per = []
        try:
            for k in range(len(events)):
                calls, _ = q.step(source[bounds[k]:bounds[k + 1]])
                spark_per.append([(str(x[0]), x[1], x[2]) for _, rs in calls for x in rs])
        finally:
            q.stop()
        ids = lambda per: " ".join("+".join(x[0] for x in rows) or "-" for rows in per)
        agree = lab_per == spark_per
        if not agree:
            log("DISAGREE %s: lab wrote per trigger %s, spark %s" % (scenario, lab_per, spark_per))
        emit(scenario, "ids written per trigger " + ids(lab_per), "ids written per trigger " + ids(spark_per), agree, note)

    def dedup_rows(self):
        sp = self.sp
        F = sp.F
        replay = [ev(1, 1, "open"), ev(2, 2, "click"),
                  ev(1, 1, "open"),     # a replayed duplicate
                  ev(3, 20, "close"),   # watermark 12:00:15
                  ev(2, 2, "click"),    # a replayed duplicate, now behind the watermark
                  ev(4, 8, "open"),     # a new id behind the watermark
                  ev(5, 21, "click"),
                  ev(3, 20, "close")]   # a replayed duplicate within the watermark
        cols = lambda df: df.select("id", "time", F.lower("action").alias("action"))
        ts = lambda df: df.withColumn("ts", F.timestamp_millis("time"))
        self.dedup_row('dedup: dropDuplicates("id") (state kept for ever) vs filter exact', "replay", replay, "exact",
                       lambda df: cols(df.dropDuplicates(["id"])))
        self.dedup_row('dedup: dropDuplicates("id", "time") with a 5 s watermark vs filter exact', "replay", replay,
                       "exact",
                       lambda df: cols(ts(df).withWatermark("ts", "5 seconds").dropDuplicates(["id", "ts"])),
                       note="by design: the lab's filters have no watermark; Spark drops a new id behind it")
        self.dedup_row('dedup: dropDuplicatesWithinWatermark("id") with a 5 s watermark vs filter exact', "replay",
                       replay, "exact",
                       lambda df: cols(ts(df).withWatermark("ts", "5 seconds").dropDuplicatesWithinWatermark(["id"])),
                       note="by design: the lab's filters have no watermark; Spark drops a new id behind it")
        # In order, each id replayed right after the next one: within both horizons.
        near = []
        for i in range(1, 7):
            near.append(ev(i, i, "open"))
            if i > 1:
                near.append(ev(i - 1, i - 1, "open"))
        within = lambda df: cols(ts(df).withWatermark("ts", "5 seconds").dropDuplicatesWithinWatermark(["id"]))
        self.dedup_row('dedup: replays one id later, dropDuplicatesWithinWatermark("id") vs filter rotating n=2',
                       "near", near, "rotating n=2 p=0.001", within)
        # The first id replayed after ten newer ones: past the rotating filter's horizon (2 to 4 new
        # ids) and past the watermark.
        far = [ev(i, i, "open") for i in range(1, 12)] + [ev(1, 1, "open")]
        self.dedup_row('dedup: a replay past the horizon, dropDuplicatesWithinWatermark("id") vs filter rotating n=2',
                       "far", far, "rotating n=2 p=0.001", within,
                       note="by design: the rotating filter forgets after 2 to 4 new ids and lets the replay through; "
                            "Spark forgets by event time and drops the replay as late")

    # ---------------------------------------------------------------- restart from the checkpoint

    def restart_rows(self):
        sp = self.sp
        F = sp.F
        passthrough = lambda df: df.select("id", "time", F.lower("action").alias("action")).where("action != 'scroll'")

        def lab_side(script):
            r = self.lab.run("restart", "job passthrough\n%s\nrun 300\nrun 10s\n" % script)
            if r.rc != 0:
                raise RuntimeError("lab exit %d: %s" % (r.rc, r.err))
            return r, "lost %d, duplicates %d (%d failure)" % (r.get("sink.lost"), r.get("sink.duplicates"),
                                                                 r.get("recovery.failures"))

        def truth(source):
            return sorted((str(e["id"]), e["time"], e["action"].lower()) for e in source if e["action"].lower() != "scroll")

        def compare(expected, got):
            from collections import Counter
            want, have = Counter(expected), Counter(got)
            lost = sum((want - have).values())
            dup = sum((have - want).values())
            return lost, dup

        def files(source, k=6):
            n = (len(source) + k - 1) // k
            return [source[i:i + n] for i in range(0, len(source), n)]

        # File sink, stopped mid-stream; the commit of the last batch before the stop removed, as a
        # crash between the sink's write and the checkpoint's commit leaves it.
        r, lab_cell = lab_side("set semantics exactly-once\nset sink table\nkill sink at commit")
        parts = files(r.source[:300])
        d = os.path.join(self.work, "spark", "file-sink")
        shutil.rmtree(d, ignore_errors=True)
        inp, out, ck = os.path.join(d, "input"), os.path.join(d, "out"), os.path.join(d, "checkpoint")
        os.makedirs(inp)

        def start():
            df = self.spark.readStream.schema(sp.SCHEMA).option("maxFilesPerTrigger", 1).json(inp)
            return (passthrough(df).writeStream.format("json").option("path", out)
                    .option("checkpointLocation", ck).outputMode("append").start())

        def put(i, evs):
            tmp = os.path.join(d, "f%d" % i)
            with open(tmp, "w") as f:
                f.write("".join(json.dumps(sp.spark_event(e)) + "\n" for e in evs))
            os.rename(tmp, os.path.join(inp, "f%05d.json" % i))
        q = start()
        for i in range(3):
            put(i, parts[i])
            q.processAllAvailable()
        q.stop()
        commits = sorted(int(x) for x in os.listdir(os.path.join(ck, "commits")) if x.isdigit())
        for f in (str(commits[-1]), ".%d.crc" % commits[-1]):
            if os.path.exists(os.path.join(ck, "commits", f)):
                os.remove(os.path.join(ck, "commits", f))
        log("file sink: removed the commit of batch %d; restarting" % commits[-1])
        q = start()
        q.processAllAvailable()
        rerun = sorted(json.loads(p.json)["batchId"] for p in q.recentProgress)
        log("file sink: the restarted query ran batches %s before new input" % rerun)
        for i in range(3, len(parts)):
            put(i, parts[i])
            q.processAllAvailable()
        q.stop()
        got = [(r_.id, r_.time, r_.action) for r_ in self.spark.read.schema("id STRING, time LONG, action STRING").json(out).collect()]
        lost, dup = compare(truth(r.source[:300]), got)
        emit("restart: file sink stopped mid-stream, last commit missing, restarted from checkpointLocation "
             "vs exactly-once table, kill sink at commit",
             lab_cell, "lost %d, duplicates %d (batch %d %s)" % (
                 lost, dup, commits[-1], "run again" if commits[-1] in rerun else "not run again"),
             (r.get("sink.lost"), r.get("sink.duplicates")) == (0, 0) and (lost, dup) == (0, 0)
             and commits[-1] in rerun and r.get("recovery.failures") > 0)

        # foreachBatch: a crash after the write of batch 2 and before its commit; the restarted
        # query runs batch 2 again.
        for idem, script, what in (
                (False, "set semantics at-least-once\nset ha passive-standby\nset sink log\nkill sink at 150",
                 "restart: foreachBatch without batchId, crash between write and commit vs at-least-once log, kill sink at 150"),
                (True, "set semantics exactly-once\nset sink table\nset sink.commit idempotent\nkill sink at 150",
                 "restart: foreachBatch skipping a committed batchId vs exactly-once idempotent table, kill sink at 150")):
            r, lab_cell = lab_side(script)
            parts = files(r.source[:300])
            name = "fb-idempotent" if idem else "fb-plain"
            q = sp.Query(self.spark, self.work, name, passthrough, "append", sink="events", fail_batch=2,
                         idempotent=idem).start()
            crashed = False
            for i, part in enumerate(parts):
                try:
                    q.step(part)
                except Exception as e:  # the query stopped with the crash: start it again from its checkpoint
                    log("%s: query stopped: %s" % (name, str(e).splitlines()[0]))
                    crashed = True
                    q.q = None
                    q.start()
                    q.q.processAllAvailable()
            q.stop()
            lost, dup = compare(truth(r.source[:300]), [(x[0], x[1], x[2]) for x in q.table()])
            reruns = len(q.calls) - len({b for b, _ in q.calls})
            spark_cell = "lost %d, duplicates %d (%s; %d batch run again)" % (
                lost, dup, "crashed" if crashed else "no crash", reruns)
            lab_pair = (r.get("sink.lost") == 0, r.get("sink.duplicates") > 0)
            spark_pair = (lost == 0, dup > 0)
            emit(what, lab_cell, spark_cell, crashed and lab_pair == spark_pair and r.get("recovery.failures") > 0)

    # ---------------------------------------------------------------- exported programs

    EXPORTS = (
        ("export: lesson 2 late-open.yaml, update, table", ("02-output-modes", "late-open"),
         "job late-open.yaml\nset mode update\nset sink table\nrun 6\nrun 5s\n"),
        ("export: clicks seed 7, update, table", None,
         "job clicks\nset seed 7\nset mode update\nset sink table\nrun 1000\n"),
        ("export: clicks seed 7, exactly-once table, count[1] killed at 300", None,
         "job clicks\nset seed 7\nset semantics exactly-once\nset sink table\nkill count[1] at 300\nrun 1000\nrun 10s\n"),
    )

    def start_exports(self):
        """Export each script with `streamlab export --to pyspark` and run the programs, one at a
        time, in a thread beside the other scenarios: each program starts its own Spark, as a
        learner would run it."""
        import subprocess
        import threading
        probe = subprocess.run([self.lab.binary, "export", "--help"], capture_output=True, text=True)
        if probe.returncode != 0:
            log("streamlab has no export command: no export rows")
            self.exports = None
            return
        self.exports = []

        def work():
            for scenario, lesson, script in self.EXPORTS:
                t = time.time()
                d = os.path.join(self.work, "export", "%d" % len(self.exports))
                shutil.rmtree(d, ignore_errors=True)
                src, out = os.path.join(d, "src"), os.path.join(d, "out")
                os.makedirs(src)
                files = self.lesson_files(*lesson) if lesson else {}
                for name, text in files.items():
                    with open(os.path.join(src, name), "w") as f:
                        f.write(text)
                with open(os.path.join(src, "script.lab"), "w") as f:
                    f.write(script)
                res = {"scenario": scenario, "script": script, "files": files, "error": None}
                p = subprocess.run([self.lab.binary, "export", os.path.join(src, "script.lab"), "--to", "pyspark",
                                    "--out", out], capture_output=True, text=True)
                if p.returncode != 0:
                    res["error"] = "export exit %d: %s" % (p.returncode, p.stderr.strip())
                else:
                    progs = [x for x in os.listdir(out) if x.endswith("_pyspark.py")]
                    with open(os.path.join(d, "program.log"), "w") as logf:
                        p = subprocess.run([sys.executable, os.path.join(out, progs[0])], cwd=out,
                                           stdout=logf, stderr=subprocess.STDOUT, timeout=900)
                    db = os.path.join(out, progs[0][:-3] + ".db")
                    res["order"] = read_order(os.path.join(out, progs[0][:-3] + ".work", "checkpoint"))
                    if p.returncode != 0 or not os.path.exists(db):
                        res["error"] = "program exit %d (log %s)" % (p.returncode, os.path.join(d, "program.log"))
                    else:
                        import sqlite3
                        con = sqlite3.connect(db)
                        res["table"] = [tuple(r) for r in con.execute(
                            "SELECT window_start, window_end, key, value FROM results ORDER BY window_start, key, value")]
                        con.close()
                log("export %s: %.1f s%s" % (scenario, time.time() - t, (" " + res["error"]) if res["error"] else ""))
                self.exports.append(res)

        self.export_thread = threading.Thread(target=work, daemon=True)
        self.export_thread.start()

    def export_rows(self):
        if self.exports is None:
            return
        self.export_thread.join()
        for res in self.exports:
            r = self.lab.run("export", res["script"], res["files"])
            if r.rc != 0:
                raise RuntimeError("lab exit %d: %s" % (r.rc, r.err))
            lab_cell = "table %d rows, sum %d; lost %d, duplicates %d" % (
                len(r.results), sum(x[3] for x in r.results), r.get("sink.lost"), r.get("sink.duplicates"))
            if res["error"]:
                emit(res["scenario"], lab_cell, res["error"], False)
                continue
            t = res["table"]
            agree = sorted(r.results) == sorted(t)
            if not agree:
                labset, sparkset = set(r.results), set(t)
                log("DISAGREE %s: only in the lab %s; only in Spark %s" % (
                    res["scenario"], [fmt_result(x) for x in sorted(labset - sparkset)],
                    [fmt_result(x) for x in sorted(sparkset - labset)]))
            spark_cell = "table %d rows, sum %d" % (len(t), sum(x[3] for x in t))
            if not agree:
                spark_cell += "; %d rows differ" % len(set(r.results) ^ set(t))
            order = res.get("order") or []
            if order != sorted(order):
                spark_cell += "; input files read out of order (%s)" % " ".join(str(i) for i in order)
                log("%s: Spark read the program's input files in the order %s (by modification time, "
                    "in milliseconds: the program wrote them within the same ms)" % (res["scenario"], order))
            emit(res["scenario"], lab_cell, spark_cell, agree)

    def all(self, only=None):
        if not only or "export_rows" in only:
            self.start_exports()
        for part in (self.acceptance, self.lesson_rows, self.clicks_rows, self.late_rows, self.dedup_rows,
                     self.restart_rows, self.export_rows):
            if only and part.__name__ not in only:
                continue
            t = time.time()
            try:
                part()
            except Exception:
                log("BROKEN %s:\n%s" % (part.__name__, traceback.format_exc()))
                self.broken.append(part.__name__)
            log("%s took %.1f s" % (part.__name__, time.time() - t))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--streamlab", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    h = Harness(args)
    h.all(args.only.split(",") if args.only else None)
    h.spark.stop()
    if h.broken:
        log("the harness broke in: " + ", ".join(h.broken))
        sys.exit(1)


if __name__ == "__main__":
    main()
