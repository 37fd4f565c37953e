package lab_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
)

func runScript(t *testing.T, src string, opts lab.Options) []byte {
	t.Helper()
	res, err := lab.RunScript(context.Background(), "test.lab", []byte(src), opts)
	rep := res.Report
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The same script and seed give byte-identical JSON reports, run after run,
// whatever GOMAXPROCS and executor.
func TestReportsAreDeterministic(t *testing.T) {
	scripts := map[string]string{
		"clicks-update-table": "job clicks\nset mode update\nset sink table\nrun 3000\nrun 20s\nexpect sink.correct == true\n",
		"clicks-append":       "job clicks\nset mode append\nrun 2500\n",
		"passthrough":         "job passthrough\nset mode append\nrun 4000\nexpect duplicates == 0\n",
	}
	failures := map[string]string{
		"at-least-once-kill": "job passthrough\nset semantics at-least-once\nset mode append\nset filter bloom n=5000 p=0.01\nkill map at 1500\nrun 3000\nrun 10s\n",
		"exactly-once-kill":  "job clicks\nset semantics exactly-once\nset sink table\nset checkpoint.interval 300\nkill count[1] at 700\nrun 2000\nkill jobmanager\nrun 20s\n",
		"at-most-once-kill":  "job clicks\nset restart fixed-delay attempts=3 delay=2s\nkill parse at 500\nrun 1500\nrun 10s\n",
	}
	for name, src := range failures {
		scripts[name] = src // failures need the deterministic executor
	}
	for name, src := range scripts {
		for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
			if failures[name] != "" && exec == engine.ExecConcurrent {
				continue
			}
			t.Run(name+"/"+string(exec), func(t *testing.T) {
				want := runScript(t, src, lab.Options{Executor: exec})
				for _, procs := range []int{1, 2} {
					prev := runtime.GOMAXPROCS(procs)
					for i := range 10 {
						if got := runScript(t, src, lab.Options{Executor: exec}); !bytes.Equal(got, want) {
							runtime.GOMAXPROCS(prev)
							t.Fatalf("GOMAXPROCS=%d run %d differs:\n%s\nwant:\n%s", procs, i, got, want)
						}
					}
					runtime.GOMAXPROCS(prev)
				}
			})
		}
	}
}

// Both executors give the same sink contents, a dedup stage's too when it
// merges parallel nodes (a Bloom filter of 512 bits behind a map of
// parallelism 3 fed round robin once wrote 233 rows on the concurrent
// executor, 235 on the deterministic one).
func TestExecutorsAgree(t *testing.T) {
	job := filepath.Join(t.TempDir(), "rebalanced.yaml")
	yaml := "name: rebalanced\noperators:\n  - name: map\n    kind: map\n    parallelism: 3\n    partition: rebalance\n"
	if err := os.WriteFile(job, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"job clicks\nset mode complete\nset sink table\nrun 3000\n",
		"job clicks\nset mode update\nrun 3000\n",
		"job passthrough\nset mode update\nset sink table\nrun 3000\n",
		"job " + job + "\nset filter bloom m=512 k=3\nset sink table\nrun 600\nrun 600\n",
		"job clicks\nset mode update\nset filter rotating n=50 p=0.05\nrun 3000\n",
	} {
		det := runScript(t, src, lab.Options{Executor: "deterministic"})
		conc := runScript(t, src, lab.Options{Executor: "concurrent"})
		det = bytes.Replace(det, []byte(`"deterministic"`), []byte(`"concurrent"`), 1)
		if !bytes.Equal(det, conc) {
			t.Fatalf("%q: executors differ:\n%s\n%s", src, det, conc)
		}
	}
}

// The results table, read back with SQL, equals the counts computed
// straight from the dumped source.
func TestResultsTableMatchesDumpedSource(t *testing.T) {
	dir := t.TempDir()
	db, dump := filepath.Join(dir, "results.db"), filepath.Join(dir, "source.jsonl")
	src := "job clicks\nset source.disorder 0s\nset source.late 0\nset mode update\nset sink table\nrun 2000\nrun 15s\n"
	runScript(t, src, lab.Options{DBPath: db, DumpSource: dump})

	type key struct {
		start  int64
		action string
	}
	want := map[key]int64{}
	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		var e struct {
			ID     uint64 `json:"id"`
			Time   int64  `json:"time"`
			Action string `json:"action"`
			Key    string `json:"key"`
			Offset int64  `json:"offset"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.Offset != int64(lines) || e.Key != e.Action {
			t.Fatalf("line %d: %+v", lines+1, e)
		}
		lines++
		want[key{e.Time / 10000 * 10000, e.Action}]++
	}
	if lines != 3500 {
		t.Fatalf("dump has %d events, want 2000 + 15s at 100/s", lines)
	}

	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q, err := conn.Query("SELECT window_start, window_end, key, value FROM results")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	got := map[key]int64{}
	for q.Next() {
		var start, end, value int64
		var k string
		if err := q.Scan(&start, &end, &k, &value); err != nil {
			t.Fatal(err)
		}
		if end-start != 10000 {
			t.Fatalf("window %d–%d is not 10 s", start, end)
		}
		got[key{start, k}] = value
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows in results, want %d", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("window %d %s: table %d, source %d", k.start, k.action, got[k], v)
		}
	}
}

func TestBadInputNamesLineAndColumn(t *testing.T) {
	cases := map[string]string{
		"job nope\n":                                        "test.lab:1:5: unknown job \"nope\"",
		"set mode sideways\n":                               "test.lab:1:10: unknown output mode",
		"job passthrough\nset mode complete\n":              "test.lab:2:10: complete mode is not supported",
		"set colour red\n":                                  "test.lab:1:5: unknown setting \"colour\"",
		"run 10\nset mode append\n":                         "test.lab:2:1: set mode must come before the first run",
		"run 10\nexpect sink.lots == 0\n":                   "test.lab:2:8: unknown report field \"sink.lots\"",
		"run 10\nexpect job.state > 3\n":                    "test.lab:2:",
		"kill count[7]\n":                                   "test.lab:1:6: no such node \"count[7]\"",
		"set semantics sometimes\n":                         "test.lab:1:15: unknown semantics \"sometimes\"",
		"set semantics exactly-once\nset ha none\nrun 10\n": "test.lab:3:1: invalid configuration: exactly-once needs preserved input",
		"set semantics at-least-once\nset executor concurrent\nrun 10\n":       "test.lab:3:1: invalid configuration: ha upstream-backup needs the deterministic executor",
		"set semantics at-least-once\nrun 100\nkill count[1]\nkill count[1]\n": "test.lab:4:6: count[1] is already down",
		"set restart fixed-delay tries=3\n":                                    "test.lab:1:13: restart fixed-delay has no parameter \"tries\"",
		"run fast\n":                                                           "test.lab:1:5:",
	}
	for src, want := range cases {
		_, err := lab.RunScript(context.Background(), "test.lab", []byte(src), lab.Options{})
		if err == nil || !errors.Is(err, lab.ErrBadInput) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want prefix %q and ErrBadInput", src, err, want)
		}
	}
}

func TestExpectations(t *testing.T) {
	res, err := lab.RunScript(context.Background(), "t.lab", []byte("run 500\nexpect source.records == 500\nexpect lost > 0\nexpect job.state == running\n"), lab.Options{})
	rep := res.Report
	if err != nil {
		t.Fatal(err)
	}
	oks := []bool{true, false, true}
	for i, e := range rep.Expectations {
		if e.OK != oks[i] {
			t.Errorf("expectation %d %q: ok=%t actual %s", i, e.Expr, e.OK, e.Actual)
		}
	}
	if rep.ExpectationsHold() {
		t.Error("a failed expectation must fail the report")
	}
}
