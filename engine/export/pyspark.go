package export

import (
	"fmt"
	"sort"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// SparkMaxFailures is spark.task.maxFailures for the lab's restart
// strategy: Spark has no restart strategy, only task retries within a
// running query (see the restart caveat).
func SparkMaxFailures(r restart.Strategy) int {
	switch r.Kind {
	case restart.None:
		return 1
	case restart.FixedDelay:
		return r.Attempts + 1
	}
	return 4
}

// pyspark renders the PySpark Structured Streaming program of p.
func pyspark(p *Plan) string {
	var b code
	name := ProgramName(p, PySpark)
	stem := strings.TrimSuffix(name, ".py")
	agg := aggregates(p.Spec)
	header(&b, p, PySpark, "# ", []string{
		"Run it (Spark local mode in the same process; Java 17 needed):",
		"  python3 -m venv venv && venv/bin/pip install pyspark==" + SparkVersion,
		"  venv/bin/python " + name,
		"It splits the events into one file per trigger (" + fmt.Sprint(recordsPerTrigger(p)) + " events, the lab's micro-batch) under " + stem + ".work/,",
		"reads one file per micro-batch (maxFilesPerTrigger 1) until all are read (availableNow),",
		"and keeps its checkpoint there too; each run starts afresh.",
		"Output: " + sinkText(p, PySpark),
	})
	b.l(0, "")
	b.l(0, "import json")
	b.l(0, "import os")
	b.l(0, "import shutil")
	b.l(0, "import sqlite3")
	b.l(0, "import time")
	b.l(0, "")
	b.l(0, "from pyspark.sql import SparkSession")
	b.l(0, "from pyspark.sql import functions as F")
	b.l(0, "from pyspark.sql.types import BooleanType")
	b.l(0, "")
	b.l(0, "HERE = os.path.dirname(os.path.abspath(__file__))")
	b.l(0, "EVENTS = os.path.join(HERE, %s)", pyString(EventsFile))
	b.l(0, "WORK = os.path.join(HERE, %s)", pyString(stem+".work"))
	b.l(0, "MARKERS = os.path.join(WORK, \"fired\")")
	if p.Config.Sink == engine.SinkTable {
		b.l(0, "DATABASE = os.path.join(HERE, %s)", pyString(stem+".db"))
	} else {
		b.l(0, "LOG = os.path.join(HERE, %s)", pyString(LogName(p, PySpark)))
	}
	b.l(0, "PER_BATCH = %d  # source.rate x source.trigger", recordsPerTrigger(p))
	b.l(0, "# An id is an unsigned 64-bit number, beyond Spark's LONG: it is read as text.")
	b.l(0, "SCHEMA = \"`id` STRING, `time` LONG, `action` STRING, `key` STRING, `offset` LONG, `device` INT\"")
	if len(p.Kills) > 0 {
		kills := map[int64][]string{}
		for _, k := range p.Kills {
			kills[k.After] = append(kills[k.After], k.Node)
		}
		offs := make([]int64, 0, len(kills))
		for o := range kills {
			offs = append(offs, o)
		}
		sort.Slice(offs, func(i, j int) bool { return offs[i] < offs[j] })
		var items []string
		for _, o := range offs {
			items = append(items, fmt.Sprintf("%d: %s", o, pyString(strings.Join(kills[o], " "))))
		}
		b.l(0, "# The kills, by the offset of the event at which each fails (see the header).")
		b.l(0, "KILLS = {%s}", strings.Join(items, ", "))
		b.l(0, "")
		b.l(0, "")
		b.l(0, "def fail_once(offset):")
		b.l(1, "\"\"\"Raises once at each kill's event: a task failure standing in for a lost executor. Spark")
		b.l(1, "retries the task (spark.task.maxFailures); the marker file keeps the retry from failing.\"\"\"")
		b.l(1, "node = KILLS.get(offset)")
		b.l(1, "if node is None:")
		b.l(2, "return True")
		b.l(1, "marker = os.path.join(MARKERS, node)")
		b.l(1, "if os.path.exists(marker):")
		b.l(2, "return True")
		b.l(1, "os.makedirs(MARKERS, exist_ok=True)")
		b.l(1, "open(marker, \"w\").close()")
		b.l(1, "raise RuntimeError(\"streamlab: %%s killed at offset %%d\" %% (node, offset))")
	}
	if p.Config.Sink == engine.SinkTable && !agg {
		signedFunc(&b)
	}
	b.l(0, "")
	b.l(0, "")
	b.l(0, "def split_events():")
	b.l(1, "\"\"\"Writes the events as one file per trigger, read one per micro-batch.\"\"\"")
	b.l(1, "shutil.rmtree(WORK, ignore_errors=True)")
	b.l(1, "folder = os.path.join(WORK, \"input\")")
	b.l(1, "os.makedirs(folder)")
	b.l(1, "with open(EVENTS) as f:")
	b.l(2, "lines = [line for line in f if line.strip()]")
	b.l(1, "# Spark's file source takes files in order of modification time, in milliseconds: the files")
	b.l(1, "# are written within one, so each gets its own second, in trigger order.")
	b.l(1, "start = int(time.time()) - len(lines) // PER_BATCH - 1")
	b.l(1, "for i in range(0, len(lines), PER_BATCH):")
	b.l(2, "path = os.path.join(folder, \"batch-%%06d.json\" %% (i // PER_BATCH))")
	b.l(2, "with open(path, \"w\") as out:")
	b.l(3, "out.writelines(lines[i:i + PER_BATCH])")
	b.l(2, "os.utime(path, (start + i // PER_BATCH, start + i // PER_BATCH))")
	b.l(1, "return folder")
	table, ddl, upsert, _ := sqliteTable(p)
	b.l(0, "")
	b.l(0, "")
	b.l(0, "def write(batch, batch_id):")
	if p.Config.Sink == engine.SinkTable {
		b.l(1, "\"\"\"The table sink: the micro-batch's rows, upserted into SQLite table %s in one transaction.", table)
		if p.Config.Mode == engine.ModeComplete {
			b.l(1, "Complete mode: the table is replaced by the batch, the whole result.\"\"\"")
		} else {
			b.l(1, "A batch run again after a failure overwrites its own rows.\"\"\"")
		}
		cols := "\"id\", \"time\", \"action\", \"key\", \"offset\""
		if agg {
			cols = "\"window_start\", \"window_end\", \"key\", \"value\""
		}
		if agg {
			b.l(1, "rows = [tuple(r[c] for c in (%s)) for r in batch.collect()]", cols)
		} else {
			b.l(1, "rows = [(signed(int(r[\"id\"])), r[\"time\"], r[\"action\"], r[\"key\"], r[\"offset\"]) for r in batch.collect()]")
		}
		b.l(1, "db = sqlite3.connect(DATABASE, timeout=60)")
		b.l(1, "with db:")
		b.l(2, "db.execute(%s)", pyString(ddl))
		if p.Config.Mode == engine.ModeComplete {
			b.l(2, "db.execute(%s)", pyString("DELETE FROM "+table))
		}
		b.l(2, "db.executemany(%s, rows)", pyString(upsert))
		b.l(1, "db.close()")
	} else {
		b.l(1, "\"\"\"The log sink: appends the micro-batch's rows to LOG, one JSON object a line; a batch run")
		b.l(1, "again after a failure appends its rows again (foreachBatch is at-least-once).\"\"\"")
		b.l(1, "with open(LOG, \"a\") as log:")
		b.l(2, "for r in batch.collect():")
		b.l(3, "row = r.asDict()")
		if !agg {
			b.l(3, "row[\"id\"] = int(row[\"id\"])  # read as text: print the number, as in the events")
		}
		b.l(3, "log.write(json.dumps(row, sort_keys=True) + \"\\n\")")
	}
	b.l(0, "")
	b.l(0, "")
	b.l(0, "def main():")
	b.l(1, "folder = split_events()")
	emptyOutput(&b, p)
	par := 1
	for _, o := range p.Spec.Operators {
		par = max(par, o.Parallelism)
	}
	b.l(1, "# local[threads,maxFailures]: how often a failed task is tried (see the header on restart).")
	b.l(1, "spark = (SparkSession.builder.master(%s).appName(%s)", pyString(fmt.Sprintf("local[%d,%d]", par, SparkMaxFailures(p.Config.Restart))), pyString(p.Spec.Name))
	b.l(2, ".config(\"spark.ui.enabled\", \"false\")")
	b.l(2, ".config(\"spark.sql.session.timeZone\", \"UTC\")")
	b.l(2, ".config(\"spark.sql.shuffle.partitions\", %s)", pyString(fmt.Sprint(par)))
	b.l(2, ".getOrCreate())")
	b.l(1, "spark.sparkContext.setLogLevel(\"WARN\")")
	b.l(1, "events = spark.readStream.schema(SCHEMA).option(\"maxFilesPerTrigger\", 1).json(folder)")
	b.l(1, "events = events.withColumn(\"ts\", F.timestamp_millis(\"time\"))")
	if len(p.Kills) > 0 {
		b.l(1, "events = events.filter(F.udf(fail_once, BooleanType()).asNondeterministic()(\"offset\"))")
	}
	if d := p.Spec.Source.Watermark; d != jobspec.NoWatermark {
		b.l(1, "# source.watermark: the largest event time seen minus %d ms, moved at the end of each batch.", millis(d))
		b.l(1, "events = events.withWatermark(\"ts\", \"%d milliseconds\")", millis(d))
	}
	for _, o := range dedupFirst(p) {
		switch o.Kind {
		case jobspec.KindParse:
			b.l(1, "# %s: drops events without an action and keys the rest by action.", o.Name)
			b.l(1, "events = events.filter(F.col(\"action\") != \"\").withColumn(\"key\", F.col(\"action\"))")
		case jobspec.KindMap:
			b.l(1, "# %s: lower-cases the action.", o.Name)
			b.l(1, "events = events.withColumn(\"action\", F.lower(\"action\"))")
		case jobspec.KindFilter:
			b.l(1, "# %s: drops the actions %s.", o.Name, strings.Join(o.Drop, ", "))
			b.l(1, "events = events.filter(~F.col(\"action\").isin(%s))", pyList(o.Drop))
		case jobspec.KindDedup:
			b.l(1, "# %s: the dedup stage; the first of each record id passes (its state is kept for ever).", o.Name)
			b.l(1, "events = events.dropDuplicates([\"id\"])")
		case jobspec.KindWindowCount:
			key := "F.col(\"key\")"
			if o.Key == jobspec.KeyDevice {
				key = "F.concat(F.lit(\"device-\"), F.col(\"device\").cast(\"string\"))"
			}
			win := fmt.Sprintf("F.window(\"ts\", \"%d milliseconds\")", millis(o.Window))
			if o.Slide != o.Window {
				win = fmt.Sprintf("F.window(\"ts\", \"%d milliseconds\", \"%d milliseconds\")", millis(o.Window), millis(o.Slide))
			}
			b.l(1, "# %s: counts per %s in event-time windows.", o.Name, keyName(o))
			b.l(1, "events = (events.groupBy(%s, %s.alias(\"key\")).count()", win, key)
			b.l(2, ".select(F.unix_millis(F.col(\"window.start\")).alias(\"window_start\"),")
			b.l(3, "F.unix_millis(F.col(\"window.end\")).alias(\"window_end\"),")
			b.l(3, "F.col(\"key\"), F.col(\"count\").alias(\"value\")))")
		case jobspec.KindBreachCheck:
			b.l(1, "# %s: the lab's breach check is not exported; its events pass unchanged.", o.Name)
		}
	}
	if !agg {
		b.l(1, "events = events.select(\"id\", \"time\", \"action\", \"key\", \"offset\")")
	}
	b.l(1, "query = (events.writeStream.outputMode(%s)", pyString(string(p.Config.Mode)))
	b.l(2, ".option(\"checkpointLocation\", os.path.join(WORK, \"checkpoint\"))")
	b.l(2, ".foreachBatch(write)")
	b.l(2, ".trigger(availableNow=True)")
	b.l(2, ".start())")
	b.l(1, "query.awaitTermination()")
	b.l(1, "spark.stop()")
	b.l(0, "")
	b.l(0, "")
	b.l(0, "if __name__ == \"__main__\":")
	b.l(1, "main()")
	return b.String()
}

// emptyOutput writes the lines that empty a Python program's output at
// its start (the SQLite file, or the log), so that each run stands alone.
func emptyOutput(b *code, p *Plan) {
	if p.Config.Sink == engine.SinkTable {
		b.l(1, "if os.path.exists(DATABASE):")
		b.l(2, "os.remove(DATABASE)")
		return
	}
	b.l(1, "open(LOG, \"w\").close()")
}
