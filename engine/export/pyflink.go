package export

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// code builds a program line by line.
type code struct{ strings.Builder }

// l writes one line: format with args, indented by four spaces a level.
func (c *code) l(indent int, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if line != "" {
		c.WriteString(strings.Repeat("    ", indent))
	}
	c.WriteString(line + "\n")
}

// flinkDuration writes d as Flink's configuration reads durations.
func flinkDuration(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + " ms" }

// FlinkConfig is the Flink configuration of plan p, as ordered key-value
// pairs: the restart strategy, checkpointing and the watermark cadence.
// Keys are Flink 2.3's (RestartStrategyOptions, CheckpointingOptions,
// PipelineOptions).
func FlinkConfig(p *Plan) [][2]string {
	var kv [][2]string
	set := func(k, v string) { kv = append(kv, [2]string{k, v}) }
	r := p.Config.Restart
	if !p.RestartUnset {
		set("restart-strategy.type", string(r.Kind))
	}
	switch {
	case p.RestartUnset:
		// Nothing set: Flink's default is the lab's.
	case r.Kind == restart.FixedDelay:
		set("restart-strategy.fixed-delay.attempts", strconv.Itoa(r.Attempts))
		set("restart-strategy.fixed-delay.delay", flinkDuration(r.Delay))
	case r.Kind == restart.FailureRate:
		set("restart-strategy.failure-rate.max-failures-per-interval", strconv.Itoa(r.Max))
		set("restart-strategy.failure-rate.failure-rate-interval", flinkDuration(r.Interval))
		set("restart-strategy.failure-rate.delay", flinkDuration(r.Delay))
	case r.Kind == restart.Exponential:
		set("restart-strategy.exponential-delay.initial-backoff", flinkDuration(r.Initial))
		set("restart-strategy.exponential-delay.max-backoff", flinkDuration(r.MaxBackoff))
		set("restart-strategy.exponential-delay.backoff-multiplier", strconv.FormatFloat(r.Multiplier, 'g', -1, 64))
		set("restart-strategy.exponential-delay.reset-backoff-threshold", flinkDuration(r.Reset))
		set("restart-strategy.exponential-delay.jitter-factor", strconv.FormatFloat(r.Jitter, 'g', -1, 64))
		if r.Attempts > 0 {
			set("restart-strategy.exponential-delay.attempts-before-reset-backoff", strconv.Itoa(r.Attempts))
		}
	}
	if p.Config.Semantics != engine.AtMostOnce {
		set("execution.checkpointing.interval", strconv.FormatInt(checkpointMillis(p), 10)+" ms")
		set("execution.checkpointing.mode", checkpointMode(p))
	}
	set("pipeline.auto-watermark-interval", flinkDuration(p.Spec.Source.Trigger))
	return kv
}

// checkpointMode is Flink's execution.checkpointing.mode for the guarantee
// asked: barriers aligned (exactly-once) or not (at-least-once).
func checkpointMode(p *Plan) string {
	if p.Config.Semantics == engine.ExactlyOnce {
		return "EXACTLY_ONCE"
	}
	return "AT_LEAST_ONCE"
}

// header writes the comment that opens every program: what it is, how to
// run it, the lab's settings and every caveat.
func header(b *code, p *Plan, target, prefix string, run []string) {
	name := ProgramName(p, target)
	eng := "Flink " + FlinkVersion
	if target == PySpark {
		eng = "Spark " + SparkVersion
	}
	var t strings.Builder
	fmt.Fprintf(&t, "%s: job %q of the lab script %s, for %s,\n", name, p.Spec.Name, p.Script, eng)
	fmt.Fprintf(&t, "written by `streamlab export --to %s`. It reads %s beside it: the %d events the\n", target, EventsFile, p.Records)
	t.WriteString("script's runs admitted, as `streamlab run --dump-source` writes them.\n\n")
	for _, l := range run {
		t.WriteString(l + "\n")
	}
	t.WriteString("\nThe lab's settings:\n")
	for _, s := range settingLines(p) {
		t.WriteString("  " + s + "\n")
	}
	t.WriteString("\nWhat does not carry over as the lab does it:\n")
	cs := Caveats(p, target)
	if len(cs) == 0 {
		t.WriteString("  nothing: every setting of this script has its counterpart here.\n")
	}
	for _, c := range cs {
		lines := strings.Split(c.Text, "\n")
		t.WriteString("  - " + lines[0] + "\n")
		for _, l := range lines[1:] {
			t.WriteString("    " + l + "\n")
		}
	}
	comment(&b.Builder, prefix, t.String())
}

// settingLines are the lab settings a program carries, one a line.
func settingLines(p *Plan) []string {
	c, s := p.Config, p.Spec.Source
	lines := []string{
		fmt.Sprintf("semantics %s (in effect: %s), ha %s", c.Semantics, p.Semantics, p.HA),
		fmt.Sprintf("mode %s, sink %s", c.Mode, c.Sink),
		restartLine(p),
		fmt.Sprintf("checkpoint.interval %d records, deployment %s, jobmanager.ha %s", c.CheckpointInterval, c.Deployment, c.JobManagerHA),
		fmt.Sprintf("source.rate %d/s, source.trigger %s, source.watermark %s", s.Rate, s.Trigger, watermarkText(s.Watermark)),
	}
	if c.Filter.Kind != "" && c.Filter.Kind != filter.KindNone {
		lines = append(lines, "filter "+c.Filter.Kind)
	}
	for _, o := range p.Spec.Operators {
		lines = append(lines, "operator "+operatorText(o))
	}
	return lines
}

// restartLine is the header's restart strategy: the one set, or the
// default both the lab and Flink take when none is.
func restartLine(p *Plan) string {
	if p.RestartUnset {
		return "restart not set: the default, " + restartText(p.Config.Restart)
	}
	return "restart " + restartText(p.Config.Restart)
}

func restartText(r restart.Strategy) string {
	switch r.Kind {
	case restart.FixedDelay:
		return fmt.Sprintf("fixed-delay attempts=%d delay=%s", r.Attempts, r.Delay)
	case restart.FailureRate:
		return fmt.Sprintf("failure-rate max=%d interval=%s delay=%s", r.Max, r.Interval, r.Delay)
	case restart.Exponential:
		s := fmt.Sprintf("exponential-delay initial=%s max=%s multiplier=%g reset=%s jitter=%g", r.Initial, r.MaxBackoff, r.Multiplier, r.Reset, r.Jitter)
		if r.Attempts > 0 {
			s += fmt.Sprintf(" attempts=%d", r.Attempts)
		}
		return s
	}
	return string(r.Kind)
}

func watermarkText(d time.Duration) string {
	if d == jobspec.NoWatermark {
		return "none"
	}
	return d.String()
}

func operatorText(o jobspec.Operator) string {
	s := fmt.Sprintf("%s: %s, parallelism %d", o.Name, o.Kind, o.Parallelism)
	switch o.Kind {
	case jobspec.KindWindowCount:
		s += fmt.Sprintf(", window %s slide %s, per %s", o.Window, o.Slide, keyName(o))
	case jobspec.KindFilter:
		s += ", drops " + strings.Join(o.Drop, ",")
	}
	return s
}

func keyName(o jobspec.Operator) string {
	if o.Key == jobspec.KeyDevice {
		return jobspec.KeyDevice
	}
	return jobspec.KeyAction
}

// hasDedup reports whether the plan has a dedup stage (a filter setting or
// a dedup operator in the job).
func hasDedup(p *Plan) bool {
	if p.Config.Filter.Kind != "" && p.Config.Filter.Kind != filter.KindNone {
		return true
	}
	for _, o := range p.Spec.Operators {
		if o.Kind == jobspec.KindDedup {
			return true
		}
	}
	return false
}

// pyflink renders the PyFlink DataStream program of p.
func pyflink(p *Plan) string {
	var b code
	name := ProgramName(p, PyFlink)
	b.l(0, "#!/usr/bin/env python3")
	header(&b, p, PyFlink, "# ", []string{
		"Run it locally (PyFlink starts a Flink mini cluster in the same process; Java 17 needed):",
		"  python3 -m venv venv && venv/bin/pip install apache-flink==" + FlinkVersion,
		"  venv/bin/python " + name,
		"Run it on a cluster of one JobManager and two TaskManagers (" + ComposeFile + " beside it,",
		"in the manner of Flink's Operations Playground; the web UI is on http://localhost:8081):",
		"  docker compose up -d --build",
		"  docker compose exec jobmanager flink run -py /opt/streamlab/" + name,
		"  docker compose kill taskmanager-2     # a real task manager failure, beside the kills below",
		"  docker compose down",
		"STREAMLAB_PACE=0 reads the events as fast as possible; 1 (the default) paces them at",
		"source.rate, so that checkpoints and watermarks fall where the lab's do.",
		"Output: " + sinkText(p, PyFlink),
	})
	b.l(0, "")
	b.l(0, "import json")
	b.l(0, "import os")
	b.l(0, "import shutil")
	b.l(0, "import sqlite3")
	b.l(0, "import sys")
	b.l(0, "import time")
	b.l(0, "")
	b.l(0, "from pyflink.common import Configuration, Duration, Time, Types, WatermarkStrategy")
	b.l(0, "from pyflink.common.watermark_strategy import TimestampAssigner")
	b.l(0, "from pyflink.datastream import StreamExecutionEnvironment")
	b.l(0, "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat")
	b.l(0, "from pyflink.datastream.functions import KeyedProcessFunction, MapFunction, ProcessWindowFunction")
	b.l(0, "from pyflink.datastream.state import ValueStateDescriptor")
	b.l(0, "from pyflink.datastream.window import SlidingEventTimeWindows, TumblingEventTimeWindows")
	b.l(0, "")
	b.l(0, "HERE = os.path.dirname(os.path.abspath(__file__))")
	b.l(0, "EVENTS = os.path.join(HERE, %s)", pyString(EventsFile))
	b.l(0, "# Kills that have fired: one empty file per kill line (node and count), so that each fails")
	b.l(0, "# once across restarts, and a node failed by several lines fails once for each.")
	b.l(0, "MARKERS = os.path.join(HERE, %s)", pyString(strings.TrimSuffix(name, ".py")+".fired"))
	if p.Config.Sink == engine.SinkTable {
		b.l(0, "DATABASE = os.path.join(HERE, %s)", pyString(strings.TrimSuffix(name, ".py")+".db"))
	} else {
		b.l(0, "LOG = os.path.join(HERE, %s)", pyString(LogName(p, PyFlink)))
	}
	b.l(0, "RATE = %d  # source.rate: events per second", p.Spec.Source.Rate)
	b.l(0, "PACE = float(os.environ.get(\"STREAMLAB_PACE\", \"1\"))")
	b.l(0, "")
	b.l(0, "")
	b.l(0, "class Parse(MapFunction):")
	b.l(1, "\"\"\"Reads one line of the events file, at the lab's source.rate unless PACE is 0.\"\"\"")
	b.l(0, "")
	b.l(1, "def map(self, line):")
	b.l(2, "if PACE > 0:")
	b.l(3, "time.sleep(1.0 / (RATE * PACE))")
	b.l(2, "return json.loads(line)")
	b.l(0, "")
	b.l(0, "")
	b.l(0, "class EventTime(TimestampAssigner):")
	b.l(1, "def extract_timestamp(self, value, record_timestamp):")
	b.l(2, "return value[\"time\"]")
	if p.Config.Sink == engine.SinkTable && !aggregates(p.Spec) {
		signedFunc(&b)
	}
	if len(p.Kills) > 0 {
		b.l(0, "")
		b.l(0, "")
		b.l(0, "class FailOnce(MapFunction):")
		b.l(1, "\"\"\"The lab's kill NODE at N: subtask `subtask` raises instead of passing on its record")
		b.l(1, "N+1, once. This is a task failure standing in for a lost task manager: the task manager")
		b.l(1, "stays up and Flink restarts the tasks by its restart strategy. The marker file (shared by")
		b.l(1, "the task managers of the compose cluster) keeps it from failing again after the restart.\"\"\"")
		b.l(0, "")
		b.l(1, "def __init__(self, node, subtask, after):")
		b.l(2, "self.node, self.subtask, self.after = node, subtask, after")
		b.l(2, "self.index, self.seen = 0, 0")
		b.l(0, "")
		b.l(1, "def open(self, runtime_context):")
		b.l(2, "self.index = runtime_context.get_index_of_this_subtask()")
		b.l(0, "")
		b.l(1, "def map(self, value):")
		b.l(2, "if self.index != self.subtask:")
		b.l(3, "return value")
		b.l(2, "self.seen += 1")
		b.l(2, "marker = os.path.join(MARKERS, \"%%s@%%d\" %% (self.node, self.after))")
		b.l(2, "if self.seen > self.after and not os.path.exists(marker):")
		b.l(3, "os.makedirs(MARKERS, exist_ok=True)")
		b.l(3, "open(marker, \"w\").close()")
		b.l(3, "raise RuntimeError(\"streamlab: %%s killed after %%d records\" %% (self.node, self.after))")
		b.l(2, "return value")
	}
	if aggregates(p.Spec) {
		b.l(0, "")
		b.l(0, "")
		b.l(0, "class Count(ProcessWindowFunction):")
		b.l(1, "\"\"\"One row per key and event-time window: the lab's results row.\"\"\"")
		b.l(0, "")
		b.l(1, "def process(self, key, context, elements):")
		b.l(2, "w = context.window()")
		b.l(2, "yield {\"window_start\": w.start, \"window_end\": w.end, \"key\": key, \"value\": sum(1 for _ in elements)}")
	}
	if hasDedup(p) {
		b.l(0, "")
		b.l(0, "")
		b.l(0, "class Dedup(KeyedProcessFunction):")
		b.l(1, "\"\"\"The dedup stage, keyed by record id: keeps the first of each id (exact, in keyed state).\"\"\"")
		b.l(0, "")
		b.l(1, "def open(self, runtime_context):")
		b.l(2, "self.seen = runtime_context.get_state(ValueStateDescriptor(\"seen\", Types.BOOLEAN()))")
		b.l(0, "")
		b.l(1, "def process_element(self, value, ctx):")
		b.l(2, "if not self.seen.value():")
		b.l(3, "self.seen.update(True)")
		b.l(3, "yield value")
	}
	if p.Config.Sink == engine.SinkTable {
		table, ddl, upsert, cols := sqliteTable(p)
		b.l(0, "")
		b.l(0, "")
		b.l(0, "class Upsert(MapFunction):")
		b.l(1, "\"\"\"The table sink: each row replaces the row of its key in SQLite table %s (idempotent,", table)
		b.l(1, "so rows replayed after a restore overwrite themselves).\"\"\"")
		b.l(0, "")
		b.l(1, "def open(self, runtime_context):")
		b.l(2, "self.db = sqlite3.connect(DATABASE, timeout=60)")
		b.l(2, "self.db.execute(%s)", pyString(ddl))
		b.l(0, "")
		b.l(1, "def map(self, row):")
		b.l(2, "self.db.execute(%s, (%s))", pyString(upsert), cols)
		b.l(2, "self.db.commit()")
		b.l(2, "return row")
		b.l(0, "")
		b.l(1, "def close(self):")
		b.l(2, "self.db.close()")
	}
	if p.Config.Sink != engine.SinkTable {
		b.l(0, "")
		b.l(0, "")
		b.l(0, "class Append(MapFunction):")
		b.l(1, "\"\"\"The log sink: appends each row to LOG as one JSON object a line, as it is processed, so a")
		b.l(1, "row processed again after a restore shows twice, as in the lab's append-only log.\"\"\"")
		b.l(0, "")
		b.l(1, "def open(self, runtime_context):")
		b.l(2, "self.log = open(LOG, \"a\")")
		b.l(0, "")
		b.l(1, "def map(self, row):")
		b.l(2, "self.log.write(json.dumps(row, sort_keys=True) + \"\\n\")")
		b.l(2, "self.log.flush()")
		b.l(2, "return row")
		b.l(0, "")
		b.l(1, "def close(self):")
		b.l(2, "self.log.close()")
	}
	b.l(0, "")
	b.l(0, "")
	b.l(0, "def main():")
	b.l(1, "shutil.rmtree(MARKERS, ignore_errors=True)")
	emptyOutput(&b, p)
	b.l(1, "config = Configuration()")
	for _, kv := range FlinkConfig(p) {
		b.l(1, "config.set_string(%s, %s)", pyString(kv[0]), pyString(kv[1]))
	}
	b.l(1, "# The Python workers run with this program's interpreter (the one PyFlink is installed in).")
	b.l(1, "config.set_string(\"python.executable\", sys.executable)")
	if len(p.Kills) > 0 {
		b.l(1, "# One Python worker per operator rather than one per slot: when a kill fails a task whose")
		b.l(1, "# worker the slot's other Python operators share, PyFlink 2.3 can release the shared worker")
		b.l(1, "# twice (\"Reference count must not be negative\") and stop the whole task manager, which a")
		b.l(1, "# local run cannot replace.")
		b.l(1, "config.set_string(\"python.fn-execution.memory.managed\", \"false\")")
	}
	b.l(1, "env = StreamExecutionEnvironment.get_execution_environment(config)")
	b.l(1, "env.set_parallelism(1)")
	b.l(0, "")
	b.l(1, "source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), EVENTS).build()")
	b.l(1, "events = env.from_source(source, WatermarkStrategy.no_watermarks(), \"source\").map(Parse()).name(\"parse-json\")")
	wm := "WatermarkStrategy.no_watermarks()"
	if d := p.Spec.Source.Watermark; d != jobspec.NoWatermark {
		wm = fmt.Sprintf("WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(%d))", millis(d))
	}
	b.l(1, "events = events.assign_timestamps_and_watermarks(")
	b.l(2, "%s.with_timestamp_assigner(EventTime()))", wm)
	failBefore(&b, p, "source", 1, "")
	for _, o := range dedupFirst(p) {
		keyFn := ""
		if o.Kind == jobspec.KindWindowCount {
			keyFn = windowKey(o)
		}
		if o.Kind == jobspec.KindDedup {
			keyFn = "lambda e: e[\"id\"]"
		}
		failBefore(&b, p, o.Name, o.Parallelism, keyFn)
		pl := o.Parallelism
		switch o.Kind {
		case jobspec.KindParse:
			b.l(1, "# %s: drops events without an action and keys the rest by action.", o.Name)
			b.l(1, "events = events.filter(lambda e: e[\"action\"] != \"\").map(lambda e: dict(e, key=e[\"action\"])) \\")
			b.l(2, ".name(%s).set_parallelism(%d)", pyString(o.Name), pl)
		case jobspec.KindMap:
			b.l(1, "# %s: lower-cases the action.", o.Name)
			b.l(1, "events = events.map(lambda e: dict(e, action=e[\"action\"].lower())).name(%s).set_parallelism(%d)", pyString(o.Name), pl)
		case jobspec.KindFilter:
			b.l(1, "# %s: drops the actions %s.", o.Name, strings.Join(o.Drop, ", "))
			b.l(1, "events = events.filter(lambda e: e[\"action\"] not in %s).name(%s).set_parallelism(%d)", pyList(o.Drop), pyString(o.Name), pl)
		case jobspec.KindDedup:
			b.l(1, "# %s: the dedup stage; the first of each record id passes.", o.Name)
			b.l(1, "events = events.key_by(lambda e: e[\"id\"]).process(Dedup()).name(%s).set_parallelism(%d)", pyString(o.Name), pl)
		case jobspec.KindWindowCount:
			assigner := fmt.Sprintf("TumblingEventTimeWindows.of(Time.milliseconds(%d))", millis(o.Window))
			if o.Slide != o.Window {
				assigner = fmt.Sprintf("SlidingEventTimeWindows.of(Time.milliseconds(%d), Time.milliseconds(%d))", millis(o.Window), millis(o.Slide))
			}
			b.l(1, "# %s: counts per %s in event-time windows; a window fires once the watermark passes its end", o.Name, keyName(o))
			b.l(1, "# and a record for a window already fired is dropped (allowed lateness 0), as in the lab.")
			b.l(1, "events = events.key_by(%s) \\", keyFn)
			b.l(2, ".window(%s) \\", assigner)
			b.l(2, ".process(Count()).name(%s).set_parallelism(%d)", pyString(o.Name), pl)
		case jobspec.KindBreachCheck:
			b.l(1, "# %s: the lab's breach check against a list of compromised passwords is not exported;", o.Name)
			b.l(1, "# its events pass unchanged.")
		}
	}
	failBefore(&b, p, "sink", 1, "")
	if p.Config.Sink == engine.SinkTable {
		b.l(1, "# The table sink, with one writer.")
		b.l(1, "events.map(Upsert()).name(\"sink\").set_parallelism(1).filter(lambda row: False).print()")
	} else {
		b.l(1, "# The log sink, with one writer.")
		b.l(1, "events.map(Append()).name(\"sink\").set_parallelism(1).filter(lambda row: False).print()")
	}
	b.l(1, "env.execute(%s)", pyString(p.Spec.Name))
	b.l(0, "")
	b.l(0, "")
	b.l(0, "if __name__ == \"__main__\":")
	b.l(1, "main()")
	return b.String()
}

// dedupFirst is the job's operators in the order the program applies them:
// for an aggregating job a dedup stage (set filter) goes before the first
// window (see the filter caveat); otherwise it goes last, before the sink,
// as in the lab.
func dedupFirst(p *Plan) []jobspec.Operator {
	ops := append([]jobspec.Operator{}, p.Spec.Operators...)
	f := p.Config.Filter.Kind
	if f == "" || f == filter.KindNone {
		return ops
	}
	for _, o := range ops {
		if o.Kind == jobspec.KindDedup {
			return ops
		}
	}
	dedup := jobspec.Operator{Name: "dedup", Kind: jobspec.KindDedup, Parallelism: 1}
	for i, o := range ops {
		if o.Kind == jobspec.KindWindowCount {
			return append(ops[:i], append([]jobspec.Operator{dedup}, ops[i:]...)...)
		}
	}
	return append(ops, dedup)
}

// windowKey is the Python key selector of a window-count.
func windowKey(o jobspec.Operator) string {
	if o.Key == jobspec.KeyDevice {
		return "lambda e: \"device-%d\" % e[\"device\"]"
	}
	return "lambda e: e[\"key\"]"
}

// failBefore writes the maps that replay the kills of op's nodes, placed
// before op with op's parallelism (and its key, keyFn, when op is keyed, so
// that subtask i of the map sees what subtask i of op sees). Kills with no
// `at` are all placed after the source.
func failBefore(b *code, p *Plan, op string, parallelism int, keyFn string) {
	for _, k := range p.Kills {
		// A kill with no `at` happened when the source had emitted After
		// records; the node's own count at that moment is unknown, so it
		// is replayed right after the source.
		if k.Immediate && op != "source" || !k.Immediate && k.Op != op {
			continue
		}
		if k.Immediate {
			parallelism, keyFn = 1, ""
		}
		b.l(1, "# line %d: %s (see the header)", k.Line, killLine(k))
		in := "events"
		if keyFn != "" {
			in = "events.key_by(" + keyFn + ")"
		}
		b.l(1, "events = %s.map(FailOnce(%s, %d, %d)).name(%s).set_parallelism(%d)",
			in, pyString(k.Node), k.Subtask, k.After, pyString("kill "+k.Node), parallelism)
	}
}

// sinkText says where a program's output goes.
func sinkText(p *Plan, target string) string {
	if p.Config.Sink == engine.SinkTable {
		table, _, _, _ := sqliteTable(p)
		switch target {
		case FlinkSQL:
			return "table " + table + " through the JDBC connector (see the sink below)."
		case PySpark:
			return "SQLite table " + table + " in " + strings.TrimSuffix(ProgramName(p, target), ".py") + ".db beside it, replaced at each run."
		}
		return "SQLite table " + table + " in " + strings.TrimSuffix(ProgramName(p, target), ".py") + ".db beside it, replaced at each run."
	}
	if target == FlinkSQL {
		return "the print connector: one row a line on standard output."
	}
	return "one JSON object a line appended to " + LogName(p, target) + " beside it, emptied at each run."
}

// LogName is the file a Python program's log sink appends to.
func LogName(p *Plan, target string) string {
	return strings.TrimSuffix(ProgramName(p, target), ".py") + ".out.jsonl"
}

// sqliteTable is the lab's table for p (results for an aggregating job,
// events otherwise): its name, its CREATE TABLE, the upsert statement and
// the Python tuple of a row's values for it.
func sqliteTable(p *Plan) (name, ddl, upsert, values string) {
	if aggregates(p.Spec) {
		return "results",
			"CREATE TABLE IF NOT EXISTS results (window_start INTEGER NOT NULL, window_end INTEGER NOT NULL, key TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (window_start, key))",
			"INSERT INTO results (window_start, window_end, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (window_start, key) DO UPDATE SET window_end = excluded.window_end, value = excluded.value",
			"row[\"window_start\"], row[\"window_end\"], row[\"key\"], row[\"value\"]"
	}
	return "events",
		"CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, time INTEGER NOT NULL, action TEXT NOT NULL, key TEXT NOT NULL, \"offset\" INTEGER NOT NULL)",
		"INSERT INTO events (id, time, action, key, \"offset\") VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET time = excluded.time, action = excluded.action, key = excluded.key, \"offset\" = excluded.\"offset\"",
		"signed(row[\"id\"]), row[\"time\"], row[\"action\"], row[\"key\"], row[\"offset\"]"
}

// signedFunc writes the Python function that stores an event id as the
// lab's table does: ids are unsigned 64-bit numbers, SQLite's integers are
// signed, so the lab keeps the same 64 bits as a signed integer.
func signedFunc(b *code) {
	b.l(0, "")
	b.l(0, "")
	b.l(0, "def signed(i):")
	b.l(1, "\"\"\"An event id (unsigned, 64 bits) as the lab's table stores it: the same bits, signed.\"\"\"")
	b.l(1, "return i - (1 << 64) if i >= 1 << 63 else i")
}
