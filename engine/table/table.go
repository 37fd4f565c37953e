// Package table is the embedded SQL database behind streamlab's "table" sink.
//
// It is a real SQLite file (pure Go driver modernc.org/sqlite), so a learner
// can open what a job wrote with any SQLite client and see for themselves
// whether a failure produced duplicates. Every write is one
// micro-batch in one SQL transaction: a batch lands completely or not at all,
// which is the property the exactly-once lessons build on.
package table

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers driver "sqlite"
)

// Result is one row of table `results`: a count per key and event-time window.
type Result struct {
	WindowStart, WindowEnd int64 // Unix ms, end exclusive
	Key                    string
	Value                  int64
}

// Event is one row of table `events` (jobs without aggregation write records as they are).
type Event struct {
	ID     uint64
	Time   int64 // Unix ms
	Action string
	Key    string
	Offset int64
}

// Layout says what the table holds and how it is keyed.
type Layout struct {
	// Events selects table `events` instead of `results`.
	Events bool
	// Keyed gives the table a primary key, (window_start, key) for results and
	// (id) for events, so rows are upserted in place. Unkeyed tables are
	// append-only: every written row is a new row, so duplicates caused by a
	// replay are visible as extra rows.
	Keyed bool
}

// Operations of a pre-committed batch, applied by Commit.
const (
	OpAppend  = "append"  // INSERT every row
	OpUpsert  = "upsert"  // INSERT ... ON CONFLICT DO UPDATE (keyed layouts only)
	OpReplace = "replace" // DELETE all rows, then insert (complete output mode)
)

// Sentinel errors; test with errors.Is.
var (
	ErrClosed = errors.New("table: store is closed")
	ErrLayout = errors.New("table: operation does not fit the table layout")
	ErrOp     = errors.New("table: unknown operation")
)

// schema describes one target table; the SQL is generated from it so that
// results and events share all the code below.
type schema struct {
	name  string
	cols  []string // column names, quoted where SQLite has a keyword
	types []string
	key   []string // primary key columns when keyed
}

var (
	resultsSchema = schema{"results",
		[]string{"window_start", "window_end", `"key"`, "value"},
		[]string{"INTEGER", "INTEGER", "TEXT", "INTEGER"},
		[]string{"window_start", `"key"`}}
	eventsSchema = schema{"events",
		[]string{"id", "time", `"action"`, `"key"`, `"offset"`},
		[]string{"INTEGER", "INTEGER", "TEXT", "TEXT", "INTEGER"},
		[]string{"id"}}
)

func (t schema) list() string { return strings.Join(t.cols, ", ") }

func (t schema) decl(notNull bool) string {
	parts := make([]string, len(t.cols))
	for i, c := range t.cols {
		parts[i] = c + " " + t.types[i]
		if notNull {
			parts[i] += " NOT NULL"
		}
	}
	return strings.Join(parts, ", ")
}

// onConflict is the upsert clause: the row with the same key is updated in place.
func (t schema) onConflict() string {
	var set []string
	for _, c := range t.cols {
		if !slices.Contains(t.key, c) {
			set = append(set, c+" = excluded."+c)
		}
	}
	return " ON CONFLICT(" + strings.Join(t.key, ", ") + ") DO UPDATE SET " + strings.Join(set, ", ")
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// chunk is how many rows one multi-row INSERT carries. Executing a statement
// costs about as much as the row it writes in modernc.org/sqlite, so 1 000
// rows in chunks of 100 take ~40% less CPU than 1 000 single-row statements.
const chunk = 100

// inserter is a prepared INSERT in two sizes: chunk rows, and one row for the
// rest of a batch.
type inserter struct {
	one, many *sql.Stmt
	width     int // values per row
}

func prepareInserter(db *sql.DB, into string, width int, suffix string) (*inserter, error) {
	row := "(" + placeholders(width) + ")"
	one, err := db.Prepare(into + " VALUES " + row + suffix)
	if err != nil {
		return nil, err
	}
	many, err := db.Prepare(into + " VALUES " + strings.TrimSuffix(strings.Repeat(row+", ", chunk), ", ") + suffix)
	if err != nil {
		one.Close()
		return nil, err
	}
	return &inserter{one, many, width}, nil
}

func (in *inserter) close() {
	if in != nil {
		in.one.Close()
		in.many.Close()
	}
}

// exec inserts n rows within tx. Each row's values are prefix (txn, batch, op
// when staging) followed by what row appends for row i.
func (in *inserter) exec(tx *sql.Tx, n int, prefix []any, row func([]any, int) []any) error {
	one, many := tx.Stmt(in.one), tx.Stmt(in.many)
	defer one.Close()
	defer many.Close()
	args := make([]any, 0, chunk*in.width)
	for i := 0; i < n; {
		st, m := one, 1
		if n-i >= chunk {
			st, m = many, chunk
		}
		args = args[:0]
		for j := i; j < i+m; j++ {
			args = row(append(args, prefix...), j)
		}
		if _, err := st.Exec(args...); err != nil {
			return err
		}
		i += m
	}
	return nil
}

// Store is an open table. It is safe for concurrent use; operations are
// serialised over a single connection so that behaviour is deterministic.
type Store struct {
	mu     sync.Mutex
	db     *sql.DB // nil once closed
	path   string
	temp   bool
	layout Layout
	t      schema
	insert *inserter
	upsert *inserter // nil unless keyed
	stage  *inserter // into `pending`
	lock   *os.File  // holds the named file's flock until Close
}

// Open creates the database at path, or overwrites streamlab's tables in an
// existing one: `results`, `events` and `pending` are dropped and recreated so
// that a run starts empty. Other tables in the file are left alone, and a file
// that is not a SQLite database is an error rather than being clobbered; so
// is a table of one of those names that streamlab did not make (ErrNotOurs),
// and a file another store holds open (ErrInUse). The
// file is kept after Close. An empty path means a private temporary file that
// Close removes.
func Open(path string, layout Layout) (*Store, error) {
	return open("open", path, layout, true)
}

// Reopen opens an existing database without wiping it, for recovery: the
// table and the pre-committed transactions in `pending` are kept so that the
// caller can Commit or Abort them. The file must exist and its table must have
// the given layout (ErrLayout otherwise).
func Reopen(path string, layout Layout) (*Store, error) {
	if path == "" {
		return nil, errors.New("table: reopen: empty path")
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("table: reopen: %w", err)
	}
	return open("reopen", path, layout, false)
}

func open(what, path string, layout Layout, wipe bool) (*Store, error) {
	s := &Store{path: path, layout: layout, t: resultsSchema}
	if layout.Events {
		s.t = eventsSchema
	}
	if path == "" {
		f, err := os.CreateTemp("", "streamlab-table-*.db")
		if err != nil {
			return nil, fmt.Errorf("table: %s: %w", what, err)
		}
		f.Close() // an empty file is a valid empty database
		s.path, s.temp = f.Name(), true
	}
	// Pragmas go in the DSN so that they hold for every connection the pool
	// might open. WAL + synchronous=NORMAL: a commit costs no fsync but the
	// file never corrupts; busy_timeout waits for other readers of the file
	// (a learner's sqlite3 shell) instead of failing at once.
	if !s.temp {
		lock, err := lockFile(s.path)
		if err != nil {
			return nil, fmt.Errorf("table: %s %s: %w", what, s.path, err)
		}
		s.lock = lock
	}
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(s.path)
	db, err := sql.Open("sqlite", "file:"+esc+
		"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err == nil {
		db.SetMaxOpenConns(1)
		s.db = db
		err = s.init(wipe)
	}
	if err != nil {
		if db != nil {
			db.Close()
		}
		if s.temp {
			removeFiles(s.path)
		}
		if s.lock != nil {
			s.lock.Close()
		}
		return nil, fmt.Errorf("table: %s %s: %w", what, s.path, err)
	}
	return s, nil
}

func (s *Store) init(wipe bool) error {
	t := s.t
	decl := t.decl(true)
	if s.layout.Keyed {
		decl += ", PRIMARY KEY (" + strings.Join(t.key, ", ") + ")"
	}
	// `pending` stages pre-committed batches: one header row per batch
	// (data columns NULL, so that an empty batch, e.g. an empty replace, is
	// still recorded) followed by the batch's rows.
	ddl := []string{
		"CREATE TABLE IF NOT EXISTS " + t.name + " (" + decl + ")",
		"CREATE TABLE IF NOT EXISTS pending (txn INTEGER NOT NULL, batch INTEGER NOT NULL, op TEXT NOT NULL, " + t.decl(false) + ")",
		"CREATE INDEX IF NOT EXISTS pending_txn ON pending (txn, batch)",
	}
	if wipe {
		if err := checkOwner(s.db); err != nil {
			return err
		}
		ddl = append([]string{"DROP TABLE IF EXISTS results", "DROP TABLE IF EXISTS events", "DROP TABLE IF EXISTS pending"}, ddl...)
	}
	err := s.tx(false, func(tx *sql.Tx) error {
		for _, q := range ddl {
			if _, err := tx.Exec(q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var pk int
	if err := s.db.QueryRow("SELECT count(*) FROM pragma_table_info(?) WHERE pk > 0", t.name).Scan(&pk); err != nil {
		return err
	}
	if (pk > 0) != s.layout.Keyed {
		return fmt.Errorf("%w: table %s keyed=%v, want keyed=%v", ErrLayout, t.name, pk > 0, s.layout.Keyed)
	}
	into := "INSERT INTO " + t.name + " (" + t.list() + ")"
	if s.insert, err = prepareInserter(s.db, into, len(t.cols), ""); err != nil {
		return err
	}
	if s.layout.Keyed {
		if s.upsert, err = prepareInserter(s.db, into, len(t.cols), t.onConflict()); err != nil {
			return err
		}
	}
	s.stage, err = prepareInserter(s.db, "INSERT INTO pending (txn, batch, op, "+t.list()+")", 3+len(t.cols), "")
	return err
}

// Close closes the database. A temporary store's file is removed; a named
// file is kept and, with the WAL checkpointed, is readable on its own.
// Closing twice is harmless.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil {
		return nil
	}
	s.insert.close()
	s.upsert.close()
	s.stage.close()
	err := s.db.Close()
	s.db = nil
	if s.temp {
		removeFiles(s.path)
	}
	if s.lock != nil {
		s.lock.Close() // releases the flock
		s.lock = nil
	}
	if err != nil {
		return fmt.Errorf("table: close: %w", err)
	}
	return nil
}

func removeFiles(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
}

// Path is the database file (for a temporary store, valid until Close).
func (s *Store) Path() string { return s.path }

// tx runs fn in one SQL transaction, so a batch is all or nothing. durable
// runs it with synchronous=FULL: a pre-commit must survive power loss, since
// once it returns the checkpoint may be declared complete and recovery will
// commit it. (A lost Commit is harmless: its rows are still in `pending` and
// recovery commits them again.) The caller holds s.mu or owns s.
func (s *Store) tx(durable bool, fn func(*sql.Tx) error) error {
	if s.db == nil {
		return ErrClosed
	}
	ctx := context.Background()
	conn, err := s.db.Conn(ctx) // pin the connection the pragma applies to
	if err != nil {
		return err
	}
	defer conn.Close()
	if durable {
		if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = FULL"); err != nil {
			return err
		}
		defer conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL")
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// write is tx under the lock, with the error wrapped in context.
func (s *Store) write(what string, durable bool, fn func(*sql.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.tx(durable, fn); err != nil {
		return fmt.Errorf("table: %s: %w", what, err)
	}
	return nil
}

// check rejects an operation that does not fit the layout before anything is
// written, so that a pre-commit can never stage a batch Commit cannot apply.
func (s *Store) check(what string, events bool, op string) error {
	switch {
	case op != OpAppend && op != OpUpsert && op != OpReplace:
		return fmt.Errorf("table: %s: %w %q", what, ErrOp, op)
	case events != s.layout.Events:
		return fmt.Errorf("table: %s: %w: table is %s", what, ErrLayout, s.t.name)
	case op == OpUpsert && !s.layout.Keyed:
		return fmt.Errorf("table: %s: %w: upsert needs a keyed table", what, ErrLayout)
	}
	return nil
}

// apply writes n rows inside tx with op. Replace upserts into a keyed table so
// that a batch with a key twice keeps the last row instead of failing.
func (s *Store) apply(tx *sql.Tx, op string, n int, row func([]any, int) []any) error {
	in := s.insert
	if s.upsert != nil && op != OpAppend {
		in = s.upsert
	}
	if op == OpReplace {
		if _, err := tx.Exec("DELETE FROM " + s.t.name); err != nil {
			return err
		}
	}
	return in.exec(tx, n, nil, row)
}

func resultRow(rows []Result) func([]any, int) []any {
	return func(args []any, i int) []any {
		r := rows[i]
		return append(args, r.WindowStart, r.WindowEnd, r.Key, r.Value)
	}
}

// eventRow stores the id as the int64 with the same bits: SQLite integers are
// signed 64-bit, and ids ≥ 2^63 must round-trip.
func eventRow(rows []Event) func([]any, int) []any {
	return func(args []any, i int) []any {
		e := rows[i]
		return append(args, int64(e.ID), e.Time, e.Action, e.Key, e.Offset)
	}
}

func (s *Store) writeBatch(what string, events bool, op string, n int, row func([]any, int) []any) error {
	if err := s.check(what, events, op); err != nil {
		return err
	}
	return s.write(what, false, func(tx *sql.Tx) error { return s.apply(tx, op, n, row) })
}

// AppendResults inserts every row (one transaction).
func (s *Store) AppendResults(rows []Result) error {
	return s.writeBatch("append results", false, OpAppend, len(rows), resultRow(rows))
}

// UpsertResults inserts rows or updates the row with the same (window_start,
// key) in place; keyed layouts only.
func (s *Store) UpsertResults(rows []Result) error {
	return s.writeBatch("upsert results", false, OpUpsert, len(rows), resultRow(rows))
}

// ReplaceResults deletes all rows and inserts these in one transaction
// (complete output mode: the table is always one whole, consistent result).
func (s *Store) ReplaceResults(rows []Result) error {
	return s.writeBatch("replace results", false, OpReplace, len(rows), resultRow(rows))
}

// AppendEvents inserts every event (one transaction).
func (s *Store) AppendEvents(rows []Event) error {
	return s.writeBatch("append events", true, OpAppend, len(rows), eventRow(rows))
}

// UpsertEvents inserts events or overwrites the one with the same id: writing
// an event twice leaves one row (idempotent writes); keyed layouts only.
func (s *Store) UpsertEvents(rows []Event) error {
	return s.writeBatch("upsert events", true, OpUpsert, len(rows), eventRow(rows))
}

// query runs a read under the lock.
func (s *Store) query(what string, events bool, q string, scan func(*sql.Rows) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil {
		return fmt.Errorf("table: %s: %w", what, ErrClosed)
	}
	if events != s.layout.Events {
		return fmt.Errorf("table: %s: %w: table is %s", what, ErrLayout, s.t.name)
	}
	rows, err := s.db.Query(q)
	if err != nil {
		return fmt.Errorf("table: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("table: %s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("table: %s: %w", what, err)
	}
	return nil
}

// Results returns the rows of `results` ordered by window_start, key and
// insertion order.
func (s *Store) Results() ([]Result, error) {
	var out []Result
	err := s.query("results", false, "SELECT "+resultsSchema.list()+" FROM results ORDER BY window_start, key, rowid",
		func(rows *sql.Rows) error {
			var r Result
			err := rows.Scan(&r.WindowStart, &r.WindowEnd, &r.Key, &r.Value)
			out = append(out, r)
			return err
		})
	return out, err
}

// Events returns the rows of `events` ordered by offset and insertion order.
func (s *Store) Events() ([]Event, error) {
	var out []Event
	err := s.query("events", true, "SELECT "+eventsSchema.list()+` FROM events ORDER BY "offset", rowid`,
		func(rows *sql.Rows) error {
			var e Event
			var id int64
			err := rows.Scan(&id, &e.Time, &e.Action, &e.Key, &e.Offset)
			e.ID = uint64(id)
			out = append(out, e)
			return err
		})
	return out, err
}

// Count is the number of rows in the table.
func (s *Store) Count() (int64, error) {
	var n int64
	err := s.query("count", s.layout.Events, "SELECT count(*) FROM "+s.t.name,
		func(rows *sql.Rows) error { return rows.Scan(&n) })
	return n, err
}

// PreCommitResults stages rows durably in `pending` under transaction txn
// (a checkpoint id), invisible in `results` until Commit(txn). Several
// pre-commits with the same txn are applied in order, each with its own op.
func (s *Store) PreCommitResults(txn int64, op string, rows []Result) error {
	return s.preCommit("pre-commit results", false, txn, op, len(rows), resultRow(rows))
}

// PreCommitEvents is PreCommitResults for table `events`.
func (s *Store) PreCommitEvents(txn int64, op string, rows []Event) error {
	return s.preCommit("pre-commit events", true, txn, op, len(rows), eventRow(rows))
}

func (s *Store) preCommit(what string, events bool, txn int64, op string, n int, row func([]any, int) []any) error {
	if err := s.check(what, events, op); err != nil {
		return err
	}
	return s.write(what, true, func(tx *sql.Tx) error {
		var batch int64
		if err := tx.QueryRow("SELECT coalesce(max(batch), 0) + 1 FROM pending WHERE txn = ?", txn).Scan(&batch); err != nil {
			return err
		}
		if _, err := tx.Exec("INSERT INTO pending (txn, batch, op) VALUES (?, ?, ?)", txn, batch, op); err != nil {
			return err
		}
		return s.stage.exec(tx, n, []any{txn, batch, op}, row)
	})
}

// Commit applies the batches pre-committed under txn to the table and removes
// them from `pending`, in one SQL transaction: after a crash either both
// happened or neither. Committing an unknown or already committed txn is a
// no-op, so recovery may commit again whatever it is unsure about.
func (s *Store) Commit(txn int64) error {
	t := s.t
	first := t.cols[0] // NULL only in a batch's header row
	return s.write("commit", false, func(tx *sql.Tx) error {
		type batch struct {
			n  int64
			op string
		}
		var batches []batch
		rows, err := tx.Query("SELECT batch, op FROM pending WHERE txn = ? AND "+first+" IS NULL ORDER BY batch", txn)
		if err != nil {
			return err
		}
		for rows.Next() {
			var b batch
			if err := rows.Scan(&b.n, &b.op); err != nil {
				rows.Close()
				return err
			}
			batches = append(batches, b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, b := range batches {
			if b.op == OpReplace {
				if _, err := tx.Exec("DELETE FROM " + t.name); err != nil {
					return err
				}
			}
			// ORDER BY rowid: rows apply in the order they were staged,
			// so the last upsert of a key wins, as with UpsertResults.
			q := "INSERT INTO " + t.name + " (" + t.list() + ") SELECT " + t.list() +
				" FROM pending WHERE txn = ? AND batch = ? AND " + first + " IS NOT NULL ORDER BY rowid"
			if s.layout.Keyed && b.op != OpAppend {
				q += t.onConflict()
			}
			if _, err := tx.Exec(q, txn, b.n); err != nil {
				return fmt.Errorf("txn %d batch %d (%s): %w", txn, b.n, b.op, err)
			}
		}
		_, err = tx.Exec("DELETE FROM pending WHERE txn = ?", txn)
		return err
	})
}

// Abort discards the batches pre-committed under txn; unknown txns are a no-op.
func (s *Store) Abort(txn int64) error {
	return s.write("abort", false, func(tx *sql.Tx) error {
		_, err := tx.Exec("DELETE FROM pending WHERE txn = ?", txn)
		return err
	})
}

// Pending lists, in ascending order, the txns pre-committed but neither
// committed nor aborted: what recovery must decide about.
func (s *Store) Pending() ([]int64, error) {
	var out []int64
	err := s.query("pending", s.layout.Events, "SELECT DISTINCT txn FROM pending ORDER BY txn",
		func(rows *sql.Rows) error {
			var id int64
			err := rows.Scan(&id)
			out = append(out, id)
			return err
		})
	return out, err
}
