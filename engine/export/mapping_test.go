package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/restart"
	"github.com/streamlab/streamlab/internal/poserr"
)

// plan loads an inline script.
func plan(t *testing.T, src string) *Plan {
	t.Helper()
	p, err := Load(context.Background(), "t.lab", []byte(src), nil)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return p
}

// program renders target's program of p.
func program(t *testing.T, p *Plan, target string) string {
	t.Helper()
	files, err := Files(p, target)
	if err != nil {
		t.Fatal(err)
	}
	return string(files[0].Data)
}

// TestFlinkConfigMapsEverySetting: each restart strategy and its
// parameters become Flink 2.3's keys, checkpointing follows the semantics,
// and the interval in records becomes time at source.rate.
func TestFlinkConfigMapsEverySetting(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   [][2]string
	}{
		{"set restart none", [][2]string{{"restart-strategy.type", "none"}, {"pipeline.auto-watermark-interval", "1000 ms"}}},
		{"set restart fixed-delay attempts=3 delay=10s", [][2]string{
			{"restart-strategy.type", "fixed-delay"},
			{"restart-strategy.fixed-delay.attempts", "3"},
			{"restart-strategy.fixed-delay.delay", "10000 ms"},
			{"pipeline.auto-watermark-interval", "1000 ms"}}},
		{"set restart failure-rate max=3 interval=5m delay=10s", [][2]string{
			{"restart-strategy.type", "failure-rate"},
			{"restart-strategy.failure-rate.max-failures-per-interval", "3"},
			{"restart-strategy.failure-rate.failure-rate-interval", "300000 ms"},
			{"restart-strategy.failure-rate.delay", "10000 ms"},
			{"pipeline.auto-watermark-interval", "1000 ms"}}},
		{"set restart exponential-delay initial=2s max=1m multiplier=2 reset=30m jitter=0 attempts=4\nset source.trigger 500ms", [][2]string{
			{"restart-strategy.type", "exponential-delay"},
			{"restart-strategy.exponential-delay.initial-backoff", "2000 ms"},
			{"restart-strategy.exponential-delay.max-backoff", "60000 ms"},
			{"restart-strategy.exponential-delay.backoff-multiplier", "2"},
			{"restart-strategy.exponential-delay.reset-backoff-threshold", "1800000 ms"},
			{"restart-strategy.exponential-delay.jitter-factor", "0"},
			{"restart-strategy.exponential-delay.attempts-before-reset-backoff", "4"},
			{"pipeline.auto-watermark-interval", "500 ms"}}},
		// No strategy set: none is set in Flink either, so that Flink's
		// default (exponential-delay with checkpoints, none without) is the
		// lab's.
		{"set semantics exactly-once\nset checkpoint.interval 500", [][2]string{
			{"execution.checkpointing.interval", "5000 ms"},
			{"execution.checkpointing.mode", "EXACTLY_ONCE"},
			{"pipeline.auto-watermark-interval", "1000 ms"}}},
		{"set restart none\nset semantics at-least-once\nset source.rate 1000000\nset checkpoint.interval 1", [][2]string{
			{"restart-strategy.type", "none"},
			{"execution.checkpointing.interval", "10 ms"}, // Flink's minimum
			{"execution.checkpointing.mode", "AT_LEAST_ONCE"},
			{"pipeline.auto-watermark-interval", "1000 ms"}}},
	} {
		p := plan(t, "job clicks\n"+tc.script+"\nrun 10\n")
		if got := FlinkConfig(p); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got %v\nwant %v", tc.script, got, tc.want)
		}
		prog := program(t, p, PyFlink)
		sql := program(t, p, FlinkSQL)
		for _, kv := range tc.want {
			if !strings.Contains(prog, "config.set_string("+pyString(kv[0])+", "+pyString(kv[1])+")") {
				t.Errorf("%q: the PyFlink program does not set %s = %s", tc.script, kv[0], kv[1])
			}
			if !strings.Contains(sql, "SET "+sqlString(kv[0])+" = "+sqlString(kv[1])+";") {
				t.Errorf("%q: the SQL script does not set %s = %s", tc.script, kv[0], kv[1])
			}
		}
	}
}

// TestSparkMapsEverySetting: the task retries per restart strategy, the
// output mode, the watermark, the window and the sink.
func TestSparkMapsEverySetting(t *testing.T) {
	for _, tc := range []struct {
		kind     restart.Kind
		attempts int
		want     int
	}{{restart.None, 0, 1}, {restart.FixedDelay, 3, 4}, {restart.FailureRate, 0, 4}, {restart.Exponential, 0, 4}} {
		if got := SparkMaxFailures(restart.Strategy{Kind: tc.kind, Attempts: tc.attempts}); got != tc.want {
			t.Errorf("%s attempts=%d: maxFailures %d, want %d", tc.kind, tc.attempts, got, tc.want)
		}
	}
	for _, tc := range []struct {
		script string
		want   []string
		not    []string
	}{
		{"job clicks\nset mode append", []string{`outputMode("append")`, `.master("local[2,1]")`, `withWatermark("ts", "5000 milliseconds")`, `F.window("ts", "10000 milliseconds")`, "LOG = "}, []string{"DATABASE"}},
		{"job clicks\nset mode complete\nset sink table\nset restart fixed-delay attempts=2", []string{`outputMode("complete")`, `.master("local[2,3]")`, `db.execute("DELETE FROM results")`, "PRIMARY KEY (window_start, key)"}, []string{"LOG = "}},
		{"job clicks\nset sink table\nset restart none\nset window 6s\nset window.slide 2s\nset source.watermark none", []string{`outputMode("update")`, `.master("local[2,1]")`, `F.window("ts", "6000 milliseconds", "2000 milliseconds")`, "INSERT INTO results"}, []string{"withWatermark", "DELETE FROM"}},
		{"job passthrough\nset sink table\nset filter exact", []string{"INSERT INTO events", "dropDuplicates([\"id\"])", `isin(["scroll"])`, `F.lower("action")`, `.select("id", "time", "action", "key", "offset")`, "`id` STRING", `(signed(int(r["id"])), r["time"]`}, []string{"groupBy"}},
		{"job passthrough", []string{`row["id"] = int(row["id"])`}, []string{"def signed"}},
		{"job clicks\nset source.trigger 2s\nset source.rate 30", []string{"PER_BATCH = 60"}, nil},
	} {
		prog := program(t, plan(t, tc.script+"\nrun 10\n"), PySpark)
		for _, w := range tc.want {
			if !strings.Contains(prog, w) {
				t.Errorf("%q: the PySpark program lacks %s", tc.script, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(prog, w) {
				t.Errorf("%q: the PySpark program has %s", tc.script, w)
			}
		}
	}
}

// TestPyFlinkMapsOperators: windows, keys, watermarks, dedup and sinks.
func TestPyFlinkMapsOperators(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []string
		not    []string
	}{
		{"job clicks", []string{"TumblingEventTimeWindows.of(Time.milliseconds(10000))", `key_by(lambda e: e["key"])`, "for_bounded_out_of_orderness(Duration.of_millis(5000))", `.process(Count()).name("count").set_parallelism(2)`, "class Append", "LOG = "}, []string{"execution.checkpointing", "Upsert", "Dedup()"}},
		{"job clicks\nset window 6s\nset window.slide 2s\nset source.watermark none\nset sink table", []string{"SlidingEventTimeWindows.of(Time.milliseconds(6000), Time.milliseconds(2000))", "WatermarkStrategy.no_watermarks().with_timestamp_assigner", "events.map(Upsert())", "INSERT INTO results"}, []string{"for_bounded_out_of_orderness"}},
		{"job passthrough\nset filter bloom n=100 p=0.01", []string{`events.filter(lambda e: e["action"] not in ["scroll"])`, `e["action"].lower()`, `key_by(lambda e: e["id"]).process(Dedup())`}, []string{"window("}},
		// A dedup stage of an aggregating job goes before the window.
		{"job clicks\nset filter exact", []string{"process(Dedup())"}, nil},
	} {
		prog := program(t, plan(t, tc.script+"\nrun 10\n"), PyFlink)
		for _, w := range tc.want {
			if !strings.Contains(prog, w) {
				t.Errorf("%q: the PyFlink program lacks %s", tc.script, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(prog, w) {
				t.Errorf("%q: the PyFlink program has %s", tc.script, w)
			}
		}
		if strings.Contains(tc.script, "filter exact") && strings.Index(prog, "process(Dedup())") > strings.Index(prog, ".window(TumblingEventTimeWindows") {
			t.Errorf("%q: the dedup stage should come before the window", tc.script)
		}
	}
}

// TestKillsArePlaced: a kill by position fails the node's own subtask,
// placed before its operator with the operator's key and parallelism; a
// kill with no `at` fails after the records admitted before its line; the
// Spark program fails at the same offset.
func TestKillsArePlaced(t *testing.T) {
	p := plan(t, "job clicks\nset semantics at-least-once\nset deployment managed provision=0s\nkill count[1] at 40\nkill parse at 7\nrun 100\nkill source\nrun 50\nkill sink at 3\nkill count[0]\nrun 10\n")
	want := []Kill{
		{Line: 4, Node: "count[1]", Op: "count", Subtask: 1, After: 40},
		{Line: 5, Node: "parse", Op: "parse", After: 7},
		{Line: 7, Node: "source", Op: "source", After: 100, Immediate: true},
		{Line: 9, Node: "sink", Op: "sink", After: 3},
		{Line: 10, Node: "count[0]", Op: "count", After: 150, Immediate: true},
	}
	if !slices.Equal(p.Kills, want) {
		t.Fatalf("kills %+v\nwant %+v", p.Kills, want)
	}
	prog := program(t, p, PyFlink)
	order := []string{
		`events = events.map(FailOnce("source", 0, 100)).name("kill source").set_parallelism(1)`,
		`events = events.map(FailOnce("count[0]", 0, 150)).name("kill count[0]").set_parallelism(1)`,
		`events = events.map(FailOnce("parse", 0, 7)).name("kill parse").set_parallelism(1)`,
		`events = events.filter(lambda e: e["action"] != "")`,
		`events = events.key_by(lambda e: e["key"]).map(FailOnce("count[1]", 1, 40)).name("kill count[1]").set_parallelism(2)`,
		`.window(TumblingEventTimeWindows`,
		`events = events.map(FailOnce("sink", 0, 3)).name("kill sink").set_parallelism(1)`,
		`events.map(Append())`,
	}
	at := 0
	for _, w := range order {
		i := strings.Index(prog[at:], w)
		if i < 0 {
			t.Fatalf("the PyFlink program lacks, or has out of order, %s\n%s", w, prog)
		}
		at += i
	}
	spark := program(t, p, PySpark)
	if !strings.Contains(spark, `KILLS = {3: "sink", 7: "parse", 40: "count[1]", 100: "source", 150: "count[0]"}`) || !strings.Contains(spark, `F.udf(fail_once, BooleanType()).asNondeterministic()("offset")`) {
		t.Errorf("the PySpark program's kills are wrong:\n%s", spark)
	}
	if sql := program(t, p, FlinkSQL); strings.Contains(sql, "FailOnce") {
		t.Error("the SQL script cannot fail at a record")
	}
	if none := program(t, plan(t, "job clicks\nrun 10\n"), PyFlink); strings.Contains(none, "FailOnce") {
		t.Error("a script without kills exports a FailOnce")
	}
}

// caveatTopics returns the topics of target's caveats for script.
func caveat(p *Plan, target, topic string) (string, bool) {
	for _, c := range Caveats(p, target) {
		if c.Topic == topic {
			return c.Text, true
		}
	}
	return "", false
}

// TestEveryUnsupportedThingIsSaid: each setting or line that does not
// carry over yields its caveat, with the words that say why, on the
// targets it concerns, and the program's header carries it.
func TestEveryUnsupportedThingIsSaid(t *testing.T) {
	all := Targets
	flink := []string{PyFlink, FlinkSQL}
	for _, tc := range []struct {
		script  string
		targets []string
		topic   string
		says    string
	}{
		{"set semantics at-least-once", flink, "ha", "upstream-backup (the lab's at-least-once default) has no Flink equivalent"},
		{"set semantics at-least-once", []string{PySpark}, "ha", "upstream-backup has no Spark equivalent"},
		{"set semantics at-least-once\nset ha active-standby", all, "ha", "active-standby has no"},
		{"set semantics at-most-once", flink, "semantics", "reads its source from the start again"},
		{"set semantics at-most-once", []string{PySpark}, "semantics", "replays the failed micro-batch"},
		{"set semantics exactly-once", all, "guarantee", "the log sink is append-only"},
		{"set semantics exactly-once\nset sink table", all, "sink.commit", "two-phase commit"},
		{"set semantics exactly-once", flink, "checkpoint.interval", "Flink checkpoints by time"},
		{"", []string{PySpark}, "checkpoint.interval", "every micro-batch"},
		{"set semantics exactly-once\nset restart none", flink, "restart", "the first failure fails the job"},
		{"set restart exponential-delay", flink, "restart", "with checkpointing off and nothing set, Flink\ndoes not restart"},
		{"fail count[0] at 5", []string{PyFlink}, "kill", "a task failure, as in the lab"},
		{"set restart none", []string{PySpark}, "restart", "local[N,1]"},
		{"set restart fixed-delay attempts=2 delay=3s", []string{PySpark}, "restart", "delay=3s does not carry over"},
		{"set restart failure-rate", []string{PySpark}, "restart", "no\nbackoff"},
		{"set deployment standalone", flink, "deployment", "slot.request.timeout"},
		{"set deployment standalone", []string{PySpark}, "deployment", "no executors to lose"},
		{"set deployment managed", flink, "deployment", "resource manager"},
		{"set jobmanager.ha standby", flink, "jobmanager.ha", "high-availability.type"},
		{"set jobmanager.ha standby", []string{PySpark}, "jobmanager.ha", "driver has no standby"},
		{"kill count[0] at 5", []string{PyFlink}, "kill", "task failure standing in\nfor a lost task manager"},
		{"kill count[0] at 5", []string{PySpark}, "kill", "Spark has no nodes to kill"},
		{"kill count[0] at 5", []string{FlinkSQL}, "kill", "not replayed"},
		{"run 5\nkill jobmanager", all, "dropped", "docker compose kill jobmanager"},
		{"set semantics exactly-once\nset sink table\nrun 5\nkill sink at commit", all, "dropped", "cannot be picked from user code"},
		{"run 5\nkill count[0]\nrestart count[0]", all, "dropped", "restarts failed tasks itself"},
		{"expect sink.lost == 0", all, "dropped", "compare this program's output"},
		{"step 2", all, "dropped", "stepping the lab's scheduler"},
		{"set mode update", flink, "mode", "fires once"},
		{"set mode complete", flink, "mode", "rewrites every window every trigger"},
		{"", flink, "watermark", "minus 1 ms"},
		{"set source.watermark none", flink, "watermark", "never fires without a watermark"},
		{"", []string{FlinkSQL}, "sql", "parallelism.default"},
		{"", flink, "keys", "key group"},
		{"set filter bloom n=100 p=0.01", all, "filter", "has a built-in Bloom"},
		{"set filter exact", all, "filter", "before the window"},
		{"set executor concurrent", all, "executor", "the lab's own scheduling"},
		{"kill count[0] at 5", []string{FlinkSQL}, "kill", "Use the PyFlink export"},
		{"kill count[0] at 5000", all, "kill", "never fires here: the events file has 10 events"},
	} {
		p := plan(t, "job clicks\n"+tc.script+"\nrun 10\n")
		for _, target := range tc.targets {
			var found bool
			for _, c := range Caveats(p, target) {
				if c.Topic == tc.topic && strings.Contains(c.Text, tc.says) {
					found = true
					// Every line of the caveat is in the header.
					prog := program(t, p, target)
					prefix := "# "
					if target == FlinkSQL {
						prefix = "-- "
					}
					for _, l := range strings.Split(c.Text, "\n") {
						if !strings.Contains(prog, prefix) || !strings.Contains(prog, l) {
							t.Errorf("%q --to %s: the header lacks %q", tc.script, target, l)
						}
					}
				}
			}
			if !found {
				t.Errorf("%q --to %s: no %s caveat saying %q; have %v", tc.script, target, tc.topic, tc.says, Caveats(p, target))
			}
		}
	}
	if _, ok := caveat(plan(t, "job passwords\nrun 10\n"), PySpark, "breach-check"); !ok {
		t.Error("the passwords job's breach check is dropped without a caveat")
	}
	// And what does carry over says nothing.
	p := plan(t, "job passthrough\nset semantics exactly-once\nset ha passive-standby\nset sink table\nset sink.commit idempotent\nrun 10\n")
	for _, topic := range []string{"ha", "semantics", "guarantee", "sink.commit", "mode", "filter", "executor", "kill", "dropped", "jobmanager.ha", "keys"} {
		if text, ok := caveat(p, PyFlink, topic); ok {
			t.Errorf("a caveat on %s where none is due: %s", topic, text)
		}
	}
}

// TestLoadRefusesWhatTheLabRefuses: a bad script is a positioned
// bad-input error, as from streamlab run.
func TestLoadRefusesWhatTheLabRefuses(t *testing.T) {
	for src, at := range map[string]string{
		"job clicks\nset mode sometimes\n": "t.lab:2:10:",
		"job nosuch\n":                     "t.lab:1:5:",
		"job clicks\nfrobnicate\n":         "t.lab:2:1:",
		"job clicks\nset semantics exactly-once\nset ha none\nrun 5\n": "t.lab:",
	} {
		_, err := Load(context.Background(), "t.lab", []byte(src), nil)
		if !errors.Is(err, lab.ErrBadInput) || !strings.Contains(err.Error(), at) {
			t.Errorf("%q: %v; want a bad-input error at %s", src, err, at)
		}
		if _, ok := poserr.As(err, lab.ErrBadInput); !ok && !strings.Contains(src, "ha none") {
			t.Errorf("%q: %v is not positioned", src, err)
		}
	}
	if _, err := Files(plan(t, "run 1\n"), "storm"); !errors.Is(err, ErrTarget) {
		t.Errorf("an unknown target: %v", err)
	}
}

// TestConnectorIsSaid: a job that declares a connector and driver (the
// lab's job-submission failures) is exported with a caveat that the
// program needs neither.
func TestConnectorIsSaid(t *testing.T) {
	dir := t.TempDir()
	job := "name: jdbcjob\noperators:\n  - name: parse\n    kind: parse\nconnector: jdbc\ndriver: org.postgresql.Driver\ndependencies:\n  - name: flink-connector-jdbc-core\n    kind: connector\n    version: 4.0.0-2.0\n    provides: jdbc\n  - name: postgresql\n    kind: driver\n    version: \"42.7.4\"\n    provides: org.postgresql.Driver\n"
	if err := os.WriteFile(filepath.Join(dir, "j.yaml"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.lab")
	p, err := Load(context.Background(), path, []byte("job j.yaml\nrun 10\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range Targets {
		if text, ok := caveat(p, target, "connector"); !ok || !strings.Contains(text, `"jdbc"`) {
			t.Errorf("--to %s: connector caveat %q", target, text)
		}
	}
}

// TestSQLInterval: interval literals Flink 2.3 accepts (checked with its
// planner: '120' SECOND is refused, SECOND(3) is not; SECOND(4) is
// unsupported).
func TestSQLInterval(t *testing.T) {
	for ms, want := range map[int64]string{
		500:         "INTERVAL '0.5' SECOND(3)",
		1250:        "INTERVAL '1.25' SECOND(3)",
		10_000:      "INTERVAL '10' SECOND(3)",
		120_000:     "INTERVAL '120' SECOND(3)",
		999_500:     "INTERVAL '999.5' SECOND(3)",
		7_200_000:   "INTERVAL '120' MINUTE(3)",
		172_800_000: "INTERVAL '48' HOUR(3)",
		93_784_500:  "INTERVAL '1 02:03:04.500' DAY(3) TO SECOND(3)",
	} {
		if got := sqlInterval(ms); got != want {
			t.Errorf("%d ms: %s, want %s", ms, got, want)
		}
	}
}
