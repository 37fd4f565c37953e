package engine_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/internal/refmodel"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
)

// admission is one `run` of a schedule: n records, or d of virtual time.
type admission struct {
	n int64
	d time.Duration
}

func (a admission) String() string {
	if a.d > 0 {
		return "run " + a.d.String()
	}
	return fmt.Sprintf("run %d", a.n)
}

// admit applies a to the runtime and to the model's schedule alike.
func (a admission) admit(rt *engine.Runtime, m *refmodel.Admissions) {
	if a.d > 0 {
		rt.AdmitFor(a.d)
		m.For(a.d)
		return
	}
	rt.Admit(a.n)
	m.Records(a.n)
}

// fataler is what both *testing.T and *rapid.T offer.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// table is what a SQLite sink file holds, read back with SQL.
type table struct {
	rows   []refmodel.Row
	events []refmodel.Event
}

// readTable reads table `results` or `events` of the SQLite file at path,
// ordered as the model orders its output.
func readTable(t fataler, path string, events bool) table {
	t.Helper()
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var out table
	q := `SELECT window_start, window_end, "key", value FROM results ORDER BY window_start, "key", rowid`
	if events {
		q = `SELECT id, time, "action", "key", "offset" FROM events ORDER BY "offset", rowid`
	}
	rows, err := conn.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		if events {
			var e refmodel.Event
			var id int64
			if err := rows.Scan(&id, &e.Time, &e.Action, &e.Key, &e.Offset); err != nil {
				t.Fatal(err)
			}
			e.ID = uint64(id)
			out.events = append(out.events, e)
			continue
		}
		var r refmodel.Row
		if err := rows.Scan(&r.WindowStart, &r.WindowEnd, &r.Key, &r.Value); err != nil {
			t.Fatal(err)
		}
		out.rows = append(out.rows, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// modelRun is a failure-free run into a table sink and what the reference
// model says it must end with.
type modelRun struct {
	rep   report.Report
	got   table
	want  refmodel.Output
	sched []admission
}

// runAgainstModel runs spec under cfg (table sink, a file of its own) over
// the schedule, dumps the source and computes the model's output from the
// dump.
func runAgainstModel(t fataler, dir string, spec jobspec.Spec, cfg engine.Config, sched []admission) modelRun {
	t.Helper()
	cfg.Sink = engine.SinkTable
	cfg.DBPath = filepath.Join(dir, fmt.Sprintf("%s-%s.db", spec.Name, cfg.Executor))
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	adm := refmodel.NewAdmissions(spec.Source.Rate)
	if n := rt.Source().Len(); n >= 0 {
		adm.Bound(n)
	}
	for _, a := range sched {
		a.admit(rt, adm)
		if err := rt.Run(context.Background()); err != nil {
			rt.Close()
			t.Fatal(err)
		}
	}
	var dump bytes.Buffer
	if err := rt.DumpSource(&dump); err != nil {
		t.Fatal(err)
	}
	rep := rt.Report()
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	events, err := refmodel.ReadDump(&dump)
	if err != nil {
		t.Fatal(err)
	}
	want, err := refmodel.Run(spec, string(cfg.Mode), events, adm.Bounds)
	if err != nil {
		t.Fatal(err)
	}
	return modelRun{rep: rep, got: readTable(t, cfg.DBPath, !want.Windowed), want: want, sched: sched}
}

// diff describes how the table differs from the model, or "" when equal.
func (m modelRun) diff() string {
	if m.want.Windowed {
		if slices.Equal(m.got.rows, m.want.Rows) {
			return ""
		}
		return fmt.Sprintf("results table has %d rows, the model %d; first difference: %s",
			len(m.got.rows), len(m.want.Rows), firstDiff(m.got.rows, m.want.Rows))
	}
	if slices.Equal(m.got.events, m.want.Events) {
		return ""
	}
	return fmt.Sprintf("events table has %d rows, the model %d; first difference: %s",
		len(m.got.events), len(m.want.Events), firstDiff(m.got.events, m.want.Events))
}

func firstDiff[T comparable](got, want []T) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("row %d: table %+v, model %+v", i, got[i], want[i])
		}
	}
	if len(got) > len(want) {
		return fmt.Sprintf("extra row %+v", got[len(want)])
	}
	if len(want) > len(got) {
		return fmt.Sprintf("missing row %+v", want[len(got)])
	}
	return "none"
}

// check fails t when the run differs from the model, in the table or in
// the late drops and watermark the report gives.
func (m modelRun) check(t fataler, what string) {
	t.Helper()
	if d := m.diff(); d != "" {
		t.Fatalf("%s, after %v: %s", what, m.sched, d)
	}
	if m.want.Windowed {
		if m.rep.Window.DroppedLate != m.want.DroppedLate {
			t.Fatalf("%s, after %v: dropped late %d, the model %d", what, m.sched, m.rep.Window.DroppedLate, m.want.DroppedLate)
		}
		if m.want.HasWatermark && m.rep.Window.Watermark != m.want.Watermark {
			t.Fatalf("%s, after %v: watermark %d, the model %d", what, m.sched, m.rep.Window.Watermark, m.want.Watermark)
		}
	}
}

// The built-in jobs without failures end with the table the reference
// model computes from the dumped source, in every output mode they allow,
// on both executors.
func TestBuiltinJobsMatchTheModel(t *testing.T) {
	sched := []admission{{n: 2500}, {d: 10 * time.Second}, {n: 777}, {d: 30 * time.Second}}
	for _, name := range []string{"clicks", "passthrough"} { // passwords: a breach check, outside the model
		spec, _ := jobspec.Builtin(name)
		for _, mode := range engine.Modes {
			if engine.CheckMode(spec, mode, true) != nil {
				continue
			}
			for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
				t.Run(fmt.Sprintf("%s/%s/%s", name, mode, exec), func(t *testing.T) {
					cfg := engine.DefaultConfig()
					cfg.Seed, cfg.Mode, cfg.Executor = 7, mode, exec
					m := runAgainstModel(t, t.TempDir(), spec, cfg, sched)
					m.check(t, "")
					if len(m.want.Rows)+len(m.want.Events) == 0 {
						t.Fatal("the model expects an empty table: the test would prove nothing")
					}
					if name == "clicks" && mode != engine.ModeComplete && m.want.DroppedLate == 0 {
						t.Fatal("the clicks job drops late records at this seed; the model drops none")
					}
				})
			}
		}
	}
}

// drawSource varies what the model has to get right: disorder and late
// events against the watermark delay, the trigger interval, the rate, the
// devices (a key of their own), and
// actions in upper case (map lower-cases them, parse keys by them).
func drawSource(t *rapid.T, spec *jobspec.Spec) {
	src := &spec.Source
	src.Rate = rapid.SampledFrom([]int{7, 50, 100, 333, 1000}).Draw(t, "rate")
	src.Devices = rapid.SampledFrom([]int{1, 3, 50}).Draw(t, "devices")
	src.Disorder = time.Duration(rapid.IntRange(0, 8000).Draw(t, "disorder")) * time.Millisecond
	src.LateFraction = rapid.SampledFrom([]float64{0, 0.02, 0.2}).Draw(t, "late")
	src.LateBy = time.Duration(rapid.IntRange(1, 40).Draw(t, "lateBy")) * time.Second
	src.Watermark = time.Duration(rapid.SampledFrom([]int{0, 1000, 2000, 5000, 10000}).Draw(t, "watermark")) * time.Millisecond
	triggers := []int{250, 1000, 3000}
	if src.Rate <= 50 {
		triggers = append(triggers, 1) // a trigger between every two records: a micro-batch each
	}
	src.Trigger = time.Duration(rapid.SampledFrom(triggers).Draw(t, "trigger")) * time.Millisecond
	if src.Trigger == time.Millisecond {
		// As often as records come, no more: a trigger every millisecond
		// would be up to 142 empty ones a record, and complete mode
		// rewrites the whole table at each (a case took 65 s, 12 min
		// under -race).
		src.Trigger = time.Second / time.Duration(src.Rate)
	}
	if rapid.Bool().Draw(t, "upper") {
		src.Actions = []string{"open", "Close", "CLICK", "scroll", "view"}
	}
}

func drawSchedule(t *rapid.T) []admission {
	var out []admission
	for i := range rapid.IntRange(1, 4).Draw(t, "admissions") {
		if rapid.Bool().Draw(t, fmt.Sprintf("timed%d", i)) {
			out = append(out, admission{d: time.Duration(rapid.IntRange(1, 4000).Draw(t, "ms")) * time.Millisecond})
		} else {
			out = append(out, admission{n: rapid.Int64Range(0, 800).Draw(t, "n")})
		}
	}
	return out
}

// Generated job shapes, sources and admission schedules, without failures,
// end with the model's table on both executors.
func TestGeneratedJobsMatchTheModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		spec := drawSpec(rt)
		drawSource(rt, &spec)
		if err := spec.Validate(); err != nil {
			rt.Fatalf("drew an invalid spec: %v", err)
		}
		cfg := engine.DefaultConfig()
		cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(rt, "seed")
		modes := []engine.Mode{}
		for _, m := range engine.Modes {
			if engine.CheckMode(spec, m, true) == nil {
				modes = append(modes, m)
			}
		}
		cfg.Mode = rapid.SampledFrom(modes).Draw(rt, "mode")
		cfg.Executor = rapid.SampledFrom([]engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent}).Draw(rt, "executor")
		sched := drawSchedule(rt)
		m := runAgainstModel(rt, t.TempDir(), spec, cfg, sched)
		m.check(rt, fmt.Sprintf("%s %s %+v", cfg.Mode, cfg.Executor, spec.Operators))
	})
}
