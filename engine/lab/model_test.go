package lab_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/internal/refmodel"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
)

// The files a learner gets from a lab run, --dump-source and --db, agree
// with the reference model: the results table read back with SQL is what
// the model computes from the dumped source alone, in each output mode.
func TestDumpAndTableAgreeWithTheModel(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	for _, mode := range []string{"append", "update", "complete"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			db, dump := filepath.Join(dir, "out.db"), filepath.Join(dir, "source.jsonl")
			seed := int64(11)
			runIn(t, dir, "job clicks\nset sink table\nset mode "+mode+"\nrun 3000\nrun 30s\n", lab.Options{Seed: &seed, DBPath: db, DumpSource: dump})
			f, err := os.Open(dump)
			if err != nil {
				t.Fatal(err)
			}
			events, err := refmodel.ReadDump(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			adm := refmodel.NewAdmissions(spec.Source.Rate)
			adm.Records(3000)
			adm.For(30 * time.Second)
			want, err := refmodel.Run(spec, mode, events, adm.Bounds)
			if err != nil {
				t.Fatal(err)
			}
			got := resultRows(t, db)
			if len(want.Rows) == 0 || !slices.Equal(got, want.Rows) {
				t.Fatalf("results table has %d rows, the model %d:\n%v\n%v", len(got), len(want.Rows), got, want.Rows)
			}
		})
	}
}

// resultRows reads table `results` of a SQLite file.
func resultRows(t *testing.T, db string) []refmodel.Row {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT window_start, window_end, "key", value FROM results ORDER BY window_start, "key", rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []refmodel.Row
	for rows.Next() {
		var r refmodel.Row
		if err := rows.Scan(&r.WindowStart, &r.WindowEnd, &r.Key, &r.Value); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
