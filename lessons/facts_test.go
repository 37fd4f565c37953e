package lessons_test

import (
	"context"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/deps"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/restart"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/lessons"
)

// A fact is a number a lesson states, as it states it, and a check of the
// number against its source: the engine's code and defaults, or — for what
// the engine cannot know, such as Flink's documentation — the fact as
// written in REFERENCES.md (quoted in ref).
type fact struct {
	text  string
	check func() bool
	ref   string
}

func spec(t *testing.T, job string) jobspec.Spec {
	s, ok := jobspec.Builtin(job)
	if !ok {
		t.Fatalf("no built-in job %s", job)
	}
	return s
}

func countOp(t *testing.T) jobspec.Operator {
	for _, op := range spec(t, "clicks").Operators {
		if op.Kind == jobspec.KindWindowCount {
			return op
		}
	}
	t.Fatal("clicks has no window-count")
	return jobspec.Operator{}
}

func bloom(t *testing.T, s filter.Spec) filter.Stats {
	f, err := filter.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return f.Stats()
}

func restartDefaults(t *testing.T, kind restart.Kind) restart.Strategy {
	s, err := restart.Default(kind)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func lessonFacts(t *testing.T) map[string][]fact {
	src := spec(t, "clicks").Source
	cfg := engine.DefaultConfig()
	return map[string][]fact{
		"streams": {
			{text: "parallelism of 2", check: func() bool { return countOp(t).Parallelism == 2 }},
			{text: "100 events per virtual second", check: func() bool { return src.Rate == 100 }},
			{text: "up to 2 s", check: func() bool { return src.Disorder == 2*time.Second }},
			{text: "2% of the events", check: func() bool { return src.LateFraction == 0.02 }},
			{text: "up to 30 s more", check: func() bool { return src.LateBy == 30*time.Second }},
			{text: "of 10 s of event time", check: func() bool { return countOp(t).Window == 10*time.Second && countOp(t).Slide == countOp(t).Window }},
			{text: "5 s in `clicks`", check: func() bool { return src.Watermark == 5*time.Second }},
			{text: "10-minute windows", ref: "Watermark example (10-minute windows sliding every 5, 10-minute threshold)"},
			{text: "1 s of\n  virtual time by default", check: func() bool { return src.Trigger == time.Second }},
			{text: "Since Spark 3.4", ref: "Since Spark 3.4 (multiple stateful operators, `spark.sql.streaming.statefulOperator.allowMultiple`, default true) state is evicted with the watermark of the previous batch but late input rows are filtered with the one before that"},
			{text: "measured on Spark 4.3.0", ref: "Measured here on Flink 2.3.0 and Spark 4.3.0: The watermark is computed at the end of a batch."},
			{text: "200 ms by default", ref: "Which records a real job drops as late depends on how often the watermark moves (`pipeline.auto-watermark-interval`, 200 ms by default)"},
		},
		"output-modes": {
			{text: "measured on Spark 4.3", ref: "Spark 4.3.0 (local[1], file source with one file per micro-batch): Mode acceptance as the guide's tables: append refused for an aggregation without a watermark"},
		},
		"node-failure": {
			{text: "provision=5s", check: func() bool { return cfg.Deployment == engine.DeployManaged && cfg.Provision == 5*time.Second }},
			{text: "its first wait is shorter than the provisioning, so here the 5 s decide", check: func() bool {
				s := restartDefaults(t, restart.Exponential)
				return s.Initial*11/10 < cfg.Provision
			}},
			{text: "`NoRestartBackoffTimeStrategy`, as Flink 2.3 does", check: func() bool {
				return engine.DefaultRestart(engine.HANone).Kind == restart.None
			}},
			{text: "4 by default (three retries)", ref: "Spark documentation, Configuration: spark.task.maxFailures, default 4, the number of failures of any particular task before giving up on the job; allowed retries = this value - 1"},
			{text: "measured on Flink\n  2.3.0", ref: "Measured here on Flink 2.3.0: Checkpointing off and no restart strategy: the first failure fails the job, `Recovery is suppressed by NoRestartBackoffTimeStrategy`"},
		},
		"rollback": {
			{text: "counts 1 000 clicks", ref: "6 pages × 1 000 clicks per 15-second window, so every count must be exactly 1 000"},
		},
		"membership": {
			{text: "about 1.44·log₂(1/p)", check: func() bool {
				// −ln p / (ln 2)² = log₂(1/p) / ln 2, and 1/ln 2 ≈ 1.4427.
				return math.Abs(filter.BitsFor(1, 0.001)/math.Log2(1000)-1.44) < 0.005
			}},
			{text: "9.6 at 1%", check: func() bool { return math.Abs(filter.BitsFor(1, 0.01)-9.585) < 0.01 }},
			{text: "(m/n)·ln 2", check: func() bool { return filter.OptimalK(100, 10) == 10*math.Ln2 }},
			{text: "−n·ln p / (ln 2)²", check: func() bool { return filter.BitsFor(10, 0.5) == -10*math.Log(0.5)/(math.Ln2*math.Ln2) }},
			{text: "95851 bits and 7 hash functions", check: func() bool {
				st := bloom(t, filter.Spec{Kind: filter.KindBloom, N: 10000, P: 0.01})
				return st.M == 95851 && st.K == 7
			}},
			{text: "a sorted array of the 64-bit ids\nholds exactly 64 bits an id", check: func() bool { return filter.KeyBytes*8 == 64 }},
			{text: "holds about\n302 bits an id", ref: "a Go map[uint64]struct{} of the same ids takes 37.7 MB (302 bits per id)"},
			{text: "synthetic list of ten thousand", check: func() bool { return engine.PasswordListSize == 10_000 }},
			{text: "one login in twenty", check: func() bool { return spec(t, "passwords").Source.Compromised == 0.05 }},
			{text: "a share p = 0.05 is flagged by mistake, about 4.75", check: func() bool {
				c := spec(t, "passwords").Source.Compromised
				return math.Abs(100*(1-c)*0.05-4.75) < 1e-9
			}},
			{text: "about 4.75 of every 9.75 flagged logins", check: func() bool {
				c := spec(t, "passwords").Source.Compromised
				return math.Abs(100*(1-c)*0.05+100*c-9.75) < 1e-9
			}},
			{text: "Since Spark 3.5", ref: "Spark's guide deduplicates on the id and the event-time column, or (3.5+) dropDuplicatesWithinWatermark(\"id\")"},
		},
		"precise": {
			{text: "(`1000` by default here)", check: func() bool { return cfg.CheckpointInterval == 1000 }},
			{text: "in Flink 2.0;", ref: "`TwoPhaseCommitSinkFunction` and every `SinkFunction` API were removed in Flink 2.0; the current two-phase-commit API is Sink V2 with a `Committer` (`SupportsCommitter`)."},
			{text: "in Flink 2.x a Sink V2", ref: "the current two-phase-commit API is Sink V2 with a `Committer` (`SupportsCommitter`). The behaviour is unchanged."},
			{text: "Flink 2.0 release notes", ref: "`TwoPhaseCommitSinkFunction` and every `SinkFunction` API were removed in Flink 2.0"},
			{text: "(Flink 1.11 and later)", ref: "Unaligned checkpoints (Flink 1.11+) let barriers overtake in-flight records, which are stored in the checkpoint, and stay exactly-once"},
		},
		"high-availability": {},
		"restarts": {
			{text: "0.1–0.2 s after the restart, with a timeout of 3 s or of\n  60 s alike", ref: "make conformance, row standalone-tm-missing: task manager lost, none started, resource manager past its start-up period; slot.request.timeout 3.0 s and 60.0 s: the restarted job failed at once with NoResourceAvailableException"},
			{text: "These are the defaults of Flink 2.3 (Flink\n1.19 set them", check: func() bool {
				return engine.DefaultRestart(engine.HAPassiveStandby) == restartDefaults(t, restart.Exponential)
			}},
			{text: "With no strategy configured, Flink 2.3 picks one by checkpointing", check: func() bool {
				return engine.DefaultRestart(engine.HANone).Kind == restart.None && engine.DefaultRestart(engine.HAPassiveStandby).Kind == restart.Exponential
			}},
			{text: "by default `slot.request.timeout`, 5 min)", check: func() bool { return engine.DefaultSlotRequestTimeout == 5*time.Minute }},
			{text: "`slot.request.timeout`, 5 minutes", check: func() bool { return engine.DefaultSlotRequestTimeout == 5*time.Minute }},
			{text: "Flink 2.3, measured", ref: "Measured here on Flink 2.3.0: A task that throws (its task manager alive) restarts after the strategy's backoff only; … fixed-delay attempts=1 fails the job, exponential-delay cycles RESTARTING/RUNNING for ever. `slot.request.timeout` defaults to 5 min."},
			{text: "within 12% of", check: func() bool {
				s := restartDefaults(t, restart.Exponential)
				// Three backoffs of 1, 1.5 and 2.25 s, each within ±jitter:
				// the total is within ±10% of 4.75 s, so 12% of the engine's
				// total always reaches the prediction.
				return s.Jitter == 0.1 && s.Multiplier == 1.5 && 0.12*4750*(1-s.Jitter) > 4750*s.Jitter
			}},
			{text: "4.75 in all", check: func() bool {
				s := restartDefaults(t, restart.Exponential)
				first := s.Initial.Seconds()
				return first+first*s.Multiplier+first*s.Multiplier*s.Multiplier == 4.75
			}},
			{text: "up to ±10%", check: func() bool { return restartDefaults(t, restart.Exponential).Jitter == 0.1 }},
			{text: "FLINK-33736 changed the max from 5 min and the multiplier\nfrom 2", ref: "Before 1.19 the max backoff was 5 min and the multiplier 2.0 (FLINK-33736 changed both"},
			{text: "FLINK-32895 added the attempts", ref: "FLINK-32895 added the attempts limit"},
			{text: "with the default\n  5 s of provisioning", check: func() bool {
				return cfg.Provision == 5*time.Second && restartDefaults(t, restart.Exponential).Initial < cfg.Provision
			}},
			{text: "Flink's default since 1.19", ref: "exponential-delay (Flink 1.19 and later): initial backoff 1 s, max backoff 1 min, multiplier 1.5"},
			{text: "2.25 seconds", check: func() bool {
				s := restartDefaults(t, restart.Exponential)
				return s.Initial.Seconds()*s.Multiplier*s.Multiplier == 2.25
			}},
		},
		"jobmanager": {
			{text: "above its default of 1", ref: "on Kubernetes standbys are optional (`kubernetes.jobmanager.replicas`, default 1) and the Deployment restarts the pod"},
			{text: "ZooKeeper's session times out (60 s by default)", ref: "ZooKeeper session timeout 60 s by default"},
			{text: "`heartbeat.timeout` (50 s by default)", ref: "Failure detection: task managers by heartbeat (`heartbeat.timeout`, default 50 s)"},
			{text: "the lease lasts 15 s, the leader\nmust renew it within a deadline of 15 s, and a standby retries every 5 s", ref: "Kubernetes HA's leader election (KubernetesHighAvailabilityOptions): lease duration 15 s, renew deadline 15 s, retry period 5 s"},
			{text: "its last renewal\nplus 15 s", ref: "a follower takes over once the leader's lease (renew time + 15 s) has passed"},
			{text: "takes the 15 s lease", check: func() bool { return engine.DefaultConfig().Lease == 15*time.Second }},
			{text: "lease\n  duration 15 s, renew deadline 15 s, retry period 5 s", ref: "lease duration 15 s, renew deadline 15 s, retry period 5 s"},
			{text: "from offset 0", check: func() bool {
				// Upstream backup under a new leader reads every record again.
				res, err := lab.RunScript(context.Background(), "t.lab", []byte("job clicks\nset semantics at-least-once\nset jobmanager.ha standby\nrun 2500\nkill jobmanager\nrun 20s\n"), lab.Options{})
				rep := res.Report
				return err == nil && rep.Recovery.Replayed == 2500 && rep.Checkpoints.Restores == 0
			}},
		},
		"job-start": {
			{text: "streamlab models Flink 2.3", check: func() bool { return deps.FlinkVersion == "2.3" }},
			{text: "for Flink 2.x", check: func() bool { return deps.FlinkMajor == "2" }},
			{text: "measured on Flink 2.3.0", ref: "Measured here on Flink 2.3.0: JDBC connector present, driver class missing: planning succeeds, the job runs, the sink task fails on open"},
			{text: "built for Flink 1.x (`3.2.0-1.19` on Flink 2.3)", ref: "1.x connector jars (`3.2.0-1.19`, `3.1.2-1.17`) fail on 2.3 at planning with `NoClassDefFoundError: org/apache/flink/streaming/api/functions/sink/SinkFunction`"},
			{text: "Flink 2.0 removed the `SinkFunction` API", ref: "`TwoPhaseCommitSinkFunction` and every `SinkFunction` API were removed in Flink 2.0"},
			{text: "waiting about 1, 1.5, 2.25 s and longer each time", check: func() bool {
				s := restartDefaults(t, restart.Exponential)
				return s.Initial == time.Second && s.Multiplier == 1.5 && engine.DefaultRestart(engine.HAPassiveStandby) == s
			}},
			{text: "waiting 1, 1.5, 2.25 s and longer", check: func() bool {
				s := restartDefaults(t, restart.Exponential)
				return s.Initial == time.Second && s.Multiplier == 1.5
			}},
			{text: "Flink 2.3's strategy is", check: func() bool { return engine.DefaultRestart(engine.HAPassiveStandby).Kind == restart.Exponential }},
			{text: "(release 4.0 moved the", ref: "For Flink 2.x the JDBC connector is `flink-connector-jdbc-core` 4.0.0-2.0 (dialects are separate artifacts)"},
			{text: "measured on Flink 2.3.0: the\n  missing factory and the 1.x connector's", ref: "Missing connector: `ValidationException … Could not find any factory`, raised by `execute_sql` at planning; 1.x connector jars fail on 2.3 at planning"},
			{text: "was built for Flink 1.19", ref: "1.x connector jars (`3.2.0-1.19`, `3.1.2-1.17`)"},
		},
	}
}

// citations are years in source citations, not claims.
var citations = []string{"1970", "2004", "2005", "2009", "2015", "2016", "2020"}

var (
	fence      = regexp.MustCompile("(?s)```.*?```")
	indented   = regexp.MustCompile(`(?m)^(    |\t).*$`)
	codeSpan   = regexp.MustCompile("`[^`]*`")
	filled     = regexp.MustCompile(`\{[a-z0-9_.]+\}`)
	numberWord = regexp.MustCompile(`\d+(?:[.,]\d+)*`)
)

// prose is everything a lesson says to people, and its prose without code.
func prose(l *lessons.Lesson) (all, words string) {
	parts := []string{l.Title, l.Summary, l.Text, l.RealWorld, l.Check.Question, l.Check.Explanation}
	parts = append(parts, l.Check.Options...)
	for _, st := range l.Steps {
		parts = append(parts, st.Title, st.Instruction)
		parts = append(parts, st.Hints...)
	}
	all = strings.Join(parts, "\n")
	words = fence.ReplaceAllString(all, "")
	words = indented.ReplaceAllString(words, "")
	words = codeSpan.ReplaceAllString(words, "")
	words = filled.ReplaceAllString(words, "")
	return all, words
}

// Every number a lesson states in prose is vouched for by a fact, and
// every fact holds against its source.
func TestEveryNumberIsVouchedFor(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	facts := lessonFacts(t)
	for _, l := range ls {
		fs, ok := facts[l.ID]
		if !ok {
			t.Errorf("lesson %s has no facts entry", l.ID)
		}
		all, words := prose(l)
		var vouched []string
		for _, f := range fs {
			if !strings.Contains(all, f.text) {
				t.Errorf("lesson %s no longer says %q", l.ID, f.text)
			}
			if f.check != nil && !f.check() {
				t.Errorf("lesson %s says %q, and its source disagrees", l.ID, f.text)
			}
			if f.check == nil && f.ref == "" {
				t.Errorf("lesson %s: fact %q has no check and no reference", l.ID, f.text)
			}
			vouched = append(vouched, numberWord.FindAllString(f.text, -1)...)
		}
		for _, n := range numberWord.FindAllString(words, -1) {
			if !slices.Contains(vouched, n) && !slices.Contains(citations, n) {
				t.Errorf("lesson %s states %s in its prose, and no fact vouches for it", l.ID, n)
			}
		}
	}
}

// Flink's restart strategy defaults, as REFERENCES.md gives them from
// Flink's documentation ("Task Failure Recovery"), are the engine's.
func TestFlinkRestartDefaults(t *testing.T) {
	want := map[restart.Kind]restart.Strategy{
		restart.None:        {Kind: restart.None},
		restart.FixedDelay:  {Kind: restart.FixedDelay, Attempts: 1, Delay: time.Second},
		restart.FailureRate: {Kind: restart.FailureRate, Max: 1, Interval: time.Minute, Delay: time.Second},
		// Flink 2.3, as 1.19 set them (FLINK-33736).
		restart.Exponential: {Kind: restart.Exponential, Initial: time.Second, MaxBackoff: time.Minute, Multiplier: 1.5, Reset: time.Hour, Jitter: 0.1},
	}
	for kind, w := range want {
		if got := restartDefaults(t, kind); got != w {
			t.Errorf("%s: engine %+v, Flink %+v", kind, got, w)
		}
	}
	// The defaults table of lesson 8 writes them in lab-script form.
	l, err := lessons.Find("restarts")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{
		"| `fixed-delay` | `attempts=1 delay=1s` |",
		"| `failure-rate` | `max=1 interval=1m delay=1s` |",
		"| `exponential-delay` | `initial=1s max=1m multiplier=1.5 reset=1h jitter=0.1` |",
	} {
		if !strings.Contains(l.Text, row) {
			t.Errorf("lesson 8's table has no row %q", row)
		}
	}
	// The README's table says the same, in the same form.
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{
		"| `fixed-delay` | `attempts=1 delay=1s` |",
		"| `failure-rate` | `max=1 interval=1m delay=1s`",
		"| `exponential-delay` | `initial=1s max=1m multiplier=1.5 reset=1h jitter=0.1`",
		"These are the defaults of Flink 2.3",
	} {
		if !strings.Contains(string(readme), row) {
			t.Errorf("the README's restart table has no %q", row)
		}
	}
	// Nothing configured: Flink 2.3's choice, by checkpointing.
	if engine.DefaultRestart(engine.HAPassiveStandby) != want[restart.Exponential] || engine.DefaultRestart(engine.HANone) != want[restart.None] {
		t.Error("the engine's default strategies are not Flink 2.3's: exponential-delay with checkpoints, none without")
	}
	// The documentation's examples, as lesson 8 uses them.
	s, err := restart.Parse(restart.FixedDelay, map[string]string{"attempts": "3", "delay": "10s"})
	if err != nil || s.String() != "fixed-delay attempts=3 delay=10s" {
		t.Errorf("%v %v", s, err)
	}
}

// The engine's own words, quoted by lessons 2, 7 and 8.
func TestLessonsQuoteTheEngine(t *testing.T) {
	ctx := context.Background()
	run := func(src string) (*report.Report, error) {
		res, err := lab.RunScript(ctx, "t.lab", []byte(src), lab.Options{})
		return res.Report, err
	}
	rep, err := run("job clicks\nset restart none\nkill count[1] at 1200\nrun 3000\n")
	if err != nil || rep.Job.Error != "count[1] failed and recovery is suppressed by NoRestartBackoffTimeStrategy" {
		t.Errorf("restart none: %v %q", err, rep.Job.Error)
	}
	if err := engine.CheckMode(spec(t, "clicks"), engine.ModeAppend, false); err == nil || !strings.Contains(err.Error(), "append mode needs a watermark") {
		t.Errorf("append without a watermark: %v", err)
	}
	// Lesson 2 has the learner take the watermark away and ask for append.
	if _, err := run("job clicks\nset source.watermark none\nset mode append\n"); err == nil || !strings.Contains(err.Error(), "append mode needs a watermark") {
		t.Errorf("append without a watermark: %v", err)
	}
	if _, err := run("job passthrough\nset mode complete\n"); err == nil || !strings.Contains(err.Error(), "complete mode is not supported") {
		t.Errorf("complete on passthrough: %v", err)
	}
	// In complete mode the engine keeps every window.
	upd, err1 := run("job clicks\nset mode update\nrun 3000\n")
	cpl, err2 := run("job clicks\nset mode complete\nrun 3000\n")
	if err1 != nil || err2 != nil || cpl.Window.DroppedLate != 0 || cpl.Window.Open <= upd.Window.Open {
		t.Errorf("complete mode: %v %v, open %d (update %d), dropped %d", err1, err2, cpl.Window.Open, upd.Window.Open, cpl.Window.DroppedLate)
	}
	// Exactly-once into the log is at-least-once, and the report says why.
	rep, err = run("job passthrough\nset semantics exactly-once\nrun 10\n")
	if err != nil || rep.Config.Semantics != string(engine.AtLeastOnce) || !strings.Contains(rep.Config.Note, "the log sink is append-only") {
		t.Errorf("exactly-once into a log: %v %+v", err, rep.Config)
	}
}

// Lesson 1's replay drops the scroll, not the click: the only rows of
// [12:00:00, 12:00:10) are open and click.
func TestWatermarkExampleDropsTheScroll(t *testing.T) {
	l, err := lessons.Find("streams")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := l.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	cfgSrc := "job watermark.yaml\nset sink table\nrun 6\nrun 5s\n"
	s := lab.NewSession(dir+"/t.lab", lab.Options{})
	defer s.Close()
	for _, line := range strings.Split(strings.TrimSpace(cfgSrc), "\n") {
		c, err := script.ParseLine("t.lab", 1, line)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Exec(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	var keys []string
	for _, r := range s.Running().SinkRows() {
		if r.WindowStart == start {
			keys = append(keys, r.Key)
		}
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"click", "open"}) {
		t.Fatalf("rows of the first window: %v", keys)
	}
}

// The actions and node names lessons show in code are the engine's.
func TestNamesAreTheEngines(t *testing.T) {
	actions := spec(t, "clicks").Source.Actions
	for _, a := range []string{"open", "close", "click", "scroll"} {
		if !slices.Contains(actions, a) {
			t.Errorf("clicks has no action %q; it has %v", a, actions)
		}
	}
	if !slices.Contains(spec(t, "passthrough").Operators[1].Drop, "scroll") {
		t.Error("passthrough's filter no longer drops scroll, as lesson 4 says")
	}
	nodes := func(job string) []string {
		rt, err := engine.New(spec(t, job), engine.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		var names []string
		for _, n := range rt.Snapshot().Nodes {
			names = append(names, n.Name)
		}
		return names
	}
	if got, want := nodes("clicks"), []string{"source", "parse", "count[0]", "count[1]", "sink"}; !slices.Equal(got, want) {
		t.Errorf("clicks nodes %v, lessons say %v", got, want)
	}
	if got, want := nodes("passthrough"), []string{"source", "map", "filter", "sink"}; !slices.Equal(got, want) {
		t.Errorf("passthrough nodes %v, lessons say %v", got, want)
	}
}

// Every lesson cites its sources in its real-world section, and names a
// Flink or Spark setting there.
func TestRealWorldSectionsCiteSources(t *testing.T) {
	ls, _ := lessons.Catalog()
	for _, l := range ls {
		if !regexp.MustCompile(`\((?:[^()]*(?:documentation|guide|blog|Hwang|Carbone|Bloom|ICDE|troubleshooting|pages)[^()]*)\)|ICDE|, \d{4}`).MatchString(l.RealWorld) {
			t.Errorf("lesson %s: the real-world section cites no source", l.ID)
		}
		if !strings.Contains(l.RealWorld, "Flink") && !strings.Contains(l.RealWorld, "Spark") {
			t.Errorf("lesson %s: the real-world section names neither Flink nor Spark", l.ID)
		}
	}
}
