package table_test

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/streamlab/streamlab/engine/table"
)

var (
	results = table.Layout{}
	keyed   = table.Layout{Keyed: true}
	events  = table.Layout{Events: true}
	keyedEv = table.Layout{Events: true, Keyed: true}
)

func open(t *testing.T, path string, l table.Layout) *table.Store {
	t.Helper()
	s, err := table.Open(path, l)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantResults(t *testing.T, s *table.Store, want []table.Result) {
	t.Helper()
	got, err := s.Results()
	must(t, err)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("results:\n got %v\nwant %v", got, want)
	}
}

func r(start int64, key string, v int64) table.Result {
	return table.Result{WindowStart: start, WindowEnd: start + 1000, Key: key, Value: v}
}

func TestUpsertUpdatesInPlace(t *testing.T) {
	s := open(t, "", keyed)
	must(t, s.UpsertResults([]table.Result{r(0, "a", 1), r(0, "b", 1), r(1000, "a", 1)}))
	must(t, s.UpsertResults([]table.Result{r(0, "a", 2), r(0, "a", 3)})) // same key twice in a batch: last wins
	wantResults(t, s, []table.Result{r(0, "a", 3), r(0, "b", 1), r(1000, "a", 1)})
	n, err := s.Count()
	must(t, err)
	if n != 3 {
		t.Fatalf("count = %d, want 3", n)
	}
}

func TestAppendKeepsEveryRow(t *testing.T) {
	s := open(t, "", results)
	must(t, s.AppendResults([]table.Result{r(0, "a", 1), r(0, "b", 1)}))
	must(t, s.AppendResults([]table.Result{r(0, "a", 2)})) // a replayed update is a visible duplicate
	wantResults(t, s, []table.Result{r(0, "a", 1), r(0, "a", 2), r(0, "b", 1)})
}

func TestReplaceRewritesTable(t *testing.T) {
	for _, l := range []table.Layout{results, keyed} {
		t.Run(fmt.Sprint(l.Keyed), func(t *testing.T) {
			s := open(t, "", l)
			must(t, s.ReplaceResults([]table.Result{r(0, "a", 1), r(0, "b", 1)}))
			must(t, s.ReplaceResults([]table.Result{r(0, "a", 2), r(1000, "c", 1)}))
			wantResults(t, s, []table.Result{r(0, "a", 2), r(1000, "c", 1)})
			must(t, s.ReplaceResults(nil))
			wantResults(t, s, nil)
		})
	}
}

func TestEventsRoundTrip(t *testing.T) {
	in := []table.Event{
		{ID: 1<<63 + 5, Time: 1_700_000_000_000, Action: "click", Key: "u1", Offset: 2},
		{ID: 1, Time: 1_700_000_000_001, Action: "view", Key: "u2", Offset: 0},
		{ID: ^uint64(0), Time: -1, Action: "", Key: "", Offset: 1},
	}
	want := []table.Event{in[1], in[2], in[0]} // by offset
	for _, l := range []table.Layout{events, keyedEv} {
		t.Run(fmt.Sprint(l.Keyed), func(t *testing.T) {
			s := open(t, "", l)
			must(t, s.AppendEvents(in))
			got, err := s.Events()
			must(t, err)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("events:\n got %v\nwant %v", got, want)
			}
		})
	}
}

func TestUpsertEventsIsIdempotent(t *testing.T) {
	s := open(t, "", keyedEv)
	e := []table.Event{{ID: 1 << 63, Action: "a", Key: "k", Offset: 7}, {ID: 2, Offset: 8}}
	must(t, s.UpsertEvents(e))
	must(t, s.UpsertEvents(e)) // replay after a failure
	got, err := s.Events()
	must(t, err)
	if !reflect.DeepEqual(got, e) {
		t.Fatalf("events = %v, want %v", got, e)
	}
}

func TestFileReadableAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.db")
	s, err := table.Open(path, keyed)
	must(t, err)
	if s.Path() != path {
		t.Fatalf("Path() = %q, want %q", s.Path(), path)
	}
	must(t, s.UpsertResults([]table.Result{r(0, "a", 1), r(0, "b", 2)}))
	must(t, s.Close())

	db, err := sql.Open("sqlite", path)
	must(t, err)
	defer db.Close()
	rows, err := db.Query("SELECT window_start, window_end, key, value FROM results ORDER BY key")
	must(t, err)
	defer rows.Close()
	var got []table.Result
	for rows.Next() {
		var x table.Result
		must(t, rows.Scan(&x.WindowStart, &x.WindowEnd, &x.Key, &x.Value))
		got = append(got, x)
	}
	must(t, rows.Err())
	if want := []table.Result{r(0, "a", 1), r(0, "b", 2)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestOpenStartsEmptyReopenKeeps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t?#%.db") // characters a SQLite URI must escape
	s, err := table.Open(path, results)
	must(t, err)
	must(t, s.AppendResults([]table.Result{r(0, "a", 1)}))
	must(t, s.Close())
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err) // the name was taken literally
	}

	s, err = table.Reopen(path, results)
	must(t, err)
	wantResults(t, s, []table.Result{r(0, "a", 1)})
	must(t, s.Close())

	s = open(t, path, keyed) // Open overwrites, even with another layout
	wantResults(t, s, nil)
}

func TestTempFileRemovedOnClose(t *testing.T) {
	s, err := table.Open("", results)
	must(t, err)
	if _, err := os.Stat(s.Path()); err != nil {
		t.Fatal(err)
	}
	must(t, s.Close())
	if _, err := os.Stat(s.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("temporary file still there after Close: %v", err)
	}
	must(t, s.Close()) // twice is harmless
}

func TestTwoPhaseCommit(t *testing.T) {
	s := open(t, "", keyed)
	must(t, s.UpsertResults([]table.Result{r(0, "a", 1)}))
	must(t, s.PreCommitResults(1, table.OpUpsert, []table.Result{r(0, "a", 2), r(0, "b", 1), r(0, "a", 3)}))
	must(t, s.PreCommitResults(2, table.OpUpsert, []table.Result{r(0, "c", 1)}))
	wantResults(t, s, []table.Result{r(0, "a", 1)}) // invisible before Commit

	ids, err := s.Pending()
	must(t, err)
	if !reflect.DeepEqual(ids, []int64{1, 2}) {
		t.Fatalf("pending = %v, want [1 2]", ids)
	}

	must(t, s.Commit(1))
	must(t, s.Commit(1))  // twice: no-op
	must(t, s.Commit(99)) // unknown: no-op
	must(t, s.Abort(2))
	must(t, s.Commit(2)) // aborted: nothing to apply
	wantResults(t, s, []table.Result{r(0, "a", 3), r(0, "b", 1)})
	ids, err = s.Pending()
	must(t, err)
	if len(ids) != 0 {
		t.Fatalf("pending = %v, want none", ids)
	}
}

func TestPreCommitBatchesApplyInOrder(t *testing.T) {
	s := open(t, "", results)
	must(t, s.AppendResults([]table.Result{r(0, "old", 1)}))
	must(t, s.PreCommitResults(7, table.OpReplace, []table.Result{r(0, "a", 1)}))
	must(t, s.PreCommitResults(7, table.OpReplace, []table.Result{r(0, "b", 2)}))
	must(t, s.PreCommitResults(7, table.OpAppend, []table.Result{r(0, "c", 3)}))
	must(t, s.Commit(7))
	wantResults(t, s, []table.Result{r(0, "b", 2), r(0, "c", 3)})

	// An empty replace is still a transaction: it empties the table.
	must(t, s.PreCommitResults(8, table.OpReplace, nil))
	ids, err := s.Pending()
	must(t, err)
	if !reflect.DeepEqual(ids, []int64{8}) {
		t.Fatalf("pending = %v, want [8]", ids)
	}
	must(t, s.Commit(8))
	wantResults(t, s, nil)
}

func TestPreCommitSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "2pc.db")
	s, err := table.Open(path, keyedEv)
	must(t, err)
	e := []table.Event{{ID: 1<<63 + 1, Action: "buy", Key: "k", Offset: 3}}
	must(t, s.PreCommitEvents(42, table.OpUpsert, e))
	must(t, s.Close()) // a crash after pre-commit, before commit

	s, err = table.Reopen(path, keyedEv)
	must(t, err)
	defer s.Close()
	ids, err := s.Pending()
	must(t, err)
	if !reflect.DeepEqual(ids, []int64{42}) {
		t.Fatalf("pending after reopen = %v, want [42]", ids)
	}
	must(t, s.Commit(42))
	got, err := s.Events()
	must(t, err)
	if !reflect.DeepEqual(got, e) {
		t.Fatalf("events = %v, want %v", got, e)
	}
}

// TestLargeBatches crosses the multi-row statement boundary (100 rows) with
// a batch that is not a multiple of it.
func TestLargeBatches(t *testing.T) {
	const n = 1037
	var in, want []table.Result
	for i := range n {
		in = append(in, r(0, fmt.Sprintf("k%03d", i%300), int64(i)))
	}
	for i := range 300 {
		last := i + (n-1-i)/300*300
		want = append(want, r(0, fmt.Sprintf("k%03d", i), int64(last)))
	}

	s := open(t, "", keyed)
	must(t, s.UpsertResults(in))
	wantResults(t, s, want)
	must(t, s.ReplaceResults(in[:5]))
	must(t, s.PreCommitResults(1, table.OpUpsert, in))
	must(t, s.Commit(1))
	wantResults(t, s, want)

	a := open(t, "", results)
	must(t, a.AppendResults(in))
	if c, err := a.Count(); err != nil || c != n {
		t.Fatalf("count = %d, %v; want %d", c, err, n)
	}

	var ev []table.Event
	for i := range n {
		ev = append(ev, table.Event{ID: uint64(i) << 53, Time: int64(i), Action: "a", Key: "k", Offset: int64(i)})
	}
	e := open(t, "", keyedEv)
	must(t, e.PreCommitEvents(5, table.OpAppend, ev))
	must(t, e.Commit(5))
	got, err := e.Events()
	must(t, err)
	if !reflect.DeepEqual(got, ev) {
		t.Fatalf("events differ after commit of %d", n)
	}
}

func TestFailedBatchLeavesTableUnchanged(t *testing.T) {
	s := open(t, "", keyed)
	before := []table.Result{r(0, "a", 1)}
	must(t, s.UpsertResults(before))

	// Appending into a keyed table violates the primary key at the last row;
	// the rows before it must be rolled back too.
	err := s.AppendResults([]table.Result{r(0, "x", 1), r(0, "y", 1), r(0, "a", 9)})
	if err == nil {
		t.Fatal("append of a duplicate key succeeded")
	}
	wantResults(t, s, before)

	// The same across several statements: the first 100 rows were written
	// by a statement that succeeded, and must be rolled back as well.
	var big []table.Result
	for i := range 150 {
		big = append(big, r(1000, fmt.Sprint(i), 1))
	}
	err = s.AppendResults(append(big, r(0, "a", 9)))
	if err == nil {
		t.Fatal("append of a duplicate key succeeded")
	}
	wantResults(t, s, before)

	// The same failure at Commit keeps the transaction pending for a retry.
	must(t, s.PreCommitResults(3, table.OpAppend, []table.Result{r(0, "z", 1), r(0, "a", 9)}))
	if err := s.Commit(3); err == nil {
		t.Fatal("commit of a duplicate key succeeded")
	}
	wantResults(t, s, before)
	ids, err := s.Pending()
	must(t, err)
	if !reflect.DeepEqual(ids, []int64{3}) {
		t.Fatalf("pending = %v, want [3]", ids)
	}
}

func TestErrors(t *testing.T) {
	s := open(t, "", results)
	if err := s.UpsertResults([]table.Result{r(0, "a", 1)}); !errors.Is(err, table.ErrLayout) {
		t.Errorf("upsert on unkeyed table: %v, want ErrLayout", err)
	}
	if err := s.AppendEvents(nil); !errors.Is(err, table.ErrLayout) {
		t.Errorf("events into results: %v, want ErrLayout", err)
	}
	if _, err := s.Events(); !errors.Is(err, table.ErrLayout) {
		t.Errorf("read events of results: %v, want ErrLayout", err)
	}
	if err := s.PreCommitResults(1, "merge", nil); !errors.Is(err, table.ErrOp) {
		t.Errorf("unknown op: %v, want ErrOp", err)
	}
	if _, err := table.Reopen(filepath.Join(t.TempDir(), "missing.db"), results); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reopen missing file: %v, want ErrNotExist", err)
	}

	path := filepath.Join(t.TempDir(), "k.db")
	k, err := table.Open(path, keyed)
	must(t, err)
	must(t, k.Close())
	if _, err := table.Reopen(path, results); !errors.Is(err, table.ErrLayout) {
		t.Errorf("reopen keyed as unkeyed: %v, want ErrLayout", err)
	}

	notDB := filepath.Join(t.TempDir(), "notes.txt")
	must(t, os.WriteFile(notDB, []byte("not a database, do not overwrite me\n"), 0o644))
	if _, err := table.Open(notDB, results); err == nil {
		t.Error("Open of a non-database file succeeded")
	}
	if b, _ := os.ReadFile(notDB); string(b) != "not a database, do not overwrite me\n" {
		t.Errorf("Open changed a non-database file: %q", b)
	}

	must(t, s.Close())
	if err := s.AppendResults([]table.Result{r(0, "a", 1)}); !errors.Is(err, table.ErrClosed) {
		t.Errorf("append after close: %v, want ErrClosed", err)
	}
	if _, err := s.Results(); !errors.Is(err, table.ErrClosed) {
		t.Errorf("read after close: %v, want ErrClosed", err)
	}
	if err := s.Commit(1); !errors.Is(err, table.ErrClosed) {
		t.Errorf("commit after close: %v, want ErrClosed", err)
	}
}

// TestConcurrentWriters is for -race: the store serialises callers.
func TestConcurrentWriters(t *testing.T) {
	s := open(t, "", keyed)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				if err := s.UpsertResults([]table.Result{r(int64(i)*1000, fmt.Sprint(g), int64(i))}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	n, err := s.Count()
	must(t, err)
	if n != 80 {
		t.Fatalf("count = %d, want 80", n)
	}
}

func BenchmarkUpsertResults(b *testing.B) {
	s, err := table.Open("", keyed)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	batch := make([]table.Result, 1000)
	for i := range batch {
		batch[i] = r(int64(i%10)*1000, fmt.Sprintf("key-%d", i), 0)
	}
	for n := 0; b.Loop(); n++ {
		for i := range batch {
			batch[i].Value = int64(n)
		}
		if err := s.UpsertResults(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "rows/s")
}

// foreign makes a SQLite file streamlab did not make, with the user's own
// table results of streamlab's four columns.
func foreign(t *testing.T) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mine.db")
	db, err := sql.Open("sqlite", path)
	must(t, err)
	for _, q := range []string{
		"CREATE TABLE results (window_start INTEGER, window_end INTEGER, key TEXT, value INTEGER)",
		"INSERT INTO results VALUES (0, 1000, 'alice', 3)",
	} {
		_, err := db.Exec(q)
		must(t, err)
	}
	must(t, db.Close())
	data, err := os.ReadFile(path)
	must(t, err)
	return path, data
}

// TestOpenRefusesAFileItDidNotMake: a SQLite file without streamlab's
// marker table is refused and left byte for byte, even when its results
// table has streamlab's own columns; Adopt (--force) lets Open use it.
func TestOpenRefusesAFileItDidNotMake(t *testing.T) {
	path, before := foreign(t)
	for _, l := range []table.Layout{results, keyed, events} {
		if _, err := table.Open(path, l); !errors.Is(err, table.ErrNotOurs) {
			t.Fatalf("Open %+v of a foreign file: %v, want ErrNotOurs", l, err)
		}
	}
	after, err := os.ReadFile(path)
	must(t, err)
	if string(after) != string(before) {
		t.Fatal("refusing the file changed it")
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Error("refusing the file left a -wal file beside it")
	}
	must(t, table.Adopt(path))
	s := open(t, path, results)
	wantResults(t, s, nil)
	must(t, s.AppendResults([]table.Result{r(0, "a", 1)}))
	must(t, s.Close())
	// Made by streamlab now: a second run reuses it, without Adopt.
	s = open(t, path, results)
	wantResults(t, s, nil)
	must(t, s.Close())

	// A new file is streamlab's; Adopt leaves a missing file missing, and
	// refuses a file that is not a database without changing it.
	fresh := filepath.Join(t.TempDir(), "new.db")
	must(t, table.Adopt(fresh))
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Adopt made a missing file: %v", err)
	}
	must(t, open(t, fresh, results).Close())
	notDB := filepath.Join(t.TempDir(), "notes.txt")
	must(t, os.WriteFile(notDB, []byte("notes\n"), 0o644))
	if err := table.Adopt(notDB); err == nil {
		t.Error("Adopt of a text file succeeded")
	}
	if b, _ := os.ReadFile(notDB); string(b) != "notes\n" {
		t.Errorf("Adopt changed a text file: %q", b)
	}
}
