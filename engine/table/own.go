package table

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// ErrInUse is returned by Open for a database file another run holds.
var ErrInUse = errors.New("the database is in use by another streamlab run")

// ErrNotOurs is returned by Open for a database whose results, events or
// pending table was not made by streamlab: dropping it would lose the
// user's data.
var ErrNotOurs = errors.New("the table is not streamlab's")

// applicationID marks a SQLite file as streamlab's (PRAGMA application_id,
// a field of the file header meant for exactly this): "stlb".
const applicationID = 0x73746c62

// MarkerTable is the table that marks a database as one streamlab made.
// Open drops and recreates streamlab's tables only in a file that has it,
// or in a new or empty file, which it marks; any other file is refused
// (ErrNotOurs) before a byte of it is written, unless Adopt has marked it.
// A table, not only the header's application_id: old versions stamped
// that onto files streamlab had not made.
const MarkerTable = "streamlab_owner"

// dsn is the data source name of the file at path, with the query params.
func dsn(path, params string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + params
}

// isFresh reports whether path is missing or empty: a database Open may
// make its own.
func isFresh(path string) (bool, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, nil
	case err != nil:
		return false, err
	}
	return st.Size() == 0, nil
}

// hasMarker reports whether the SQLite file at path has MarkerTable,
// reading it through a read-only connection that changes nothing (the
// store's own connection turns on WAL, which rewrites the file's header).
func hasMarker(path string) (bool, error) {
	db, err := sql.Open("sqlite", dsn(path, "mode=ro&_pragma=busy_timeout(5000)"))
	if err != nil {
		return false, err
	}
	defer db.Close()
	var n int
	err = db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", MarkerTable).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("not a SQLite database streamlab can use: %w", err)
	}
	return n > 0, nil
}

// checkMarked refuses, before it is opened for writing, a file that is not
// new and that streamlab did not make.
func checkMarked(path string) error {
	fresh, err := isFresh(path)
	if err != nil || fresh {
		return err
	}
	ok, err := hasMarker(path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: streamlab did not make this file (it has no %s table), and would drop its tables results, events and pending; give another --db, or --force to let streamlab use it", ErrNotOurs, MarkerTable)
	}
	return nil
}

// Adopt marks the existing SQLite file at path as streamlab's, so that
// Open will use it: what --force asks for. A new, empty or already marked
// file is left as it is; a file that is not a SQLite database is an error,
// and is not changed.
func Adopt(path string) error {
	fresh, err := isFresh(path)
	if err != nil || fresh {
		return err
	}
	ok, err := hasMarker(path)
	if err != nil || ok {
		if err != nil {
			return fmt.Errorf("table: adopt %s: %w", path, err)
		}
		return nil
	}
	lock, err := lockFile(path)
	if err != nil {
		return fmt.Errorf("table: adopt %s: %w", path, err)
	}
	defer lock.Close()
	db, err := sql.Open("sqlite", dsn(path, "_pragma=busy_timeout(5000)"))
	if err != nil {
		return fmt.Errorf("table: adopt %s: %w", path, err)
	}
	defer db.Close()
	if err := mark(db); err != nil {
		return fmt.Errorf("table: adopt %s: %w", path, err)
	}
	return nil
}

// mark creates MarkerTable and sets the header's application_id.
func mark(db interface {
	Exec(string, ...any) (sql.Result, error)
}) error {
	if _, err := db.Exec("CREATE TABLE IF NOT EXISTS " + MarkerTable + " (made_by TEXT NOT NULL)"); err != nil {
		return err
	}
	if _, err := db.Exec("INSERT INTO " + MarkerTable + " (made_by) SELECT 'streamlab' WHERE NOT EXISTS (SELECT 1 FROM " + MarkerTable + ")"); err != nil {
		return err
	}
	_, err := db.Exec(fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	return err
}

// checkOwner refuses, in a file streamlab made, a table of one of
// streamlab's names with other columns: the user's own, made since.
func checkOwner(db *sql.DB) error {
	for _, t := range []schema{resultsSchema, eventsSchema, {name: "pending"}} {
		cols, err := columns(db, t.name)
		if err != nil {
			return err
		}
		if cols == nil {
			continue
		}
		want := t.columnNames()
		if t.name == "pending" {
			if slices.Contains(cols, "txn") && slices.Contains(cols, "batch") && slices.Contains(cols, "op") {
				continue
			}
		} else if slices.Equal(cols, want) {
			continue
		}
		return fmt.Errorf("%w: table %s exists with other columns (%v); streamlab would drop it: give another --db, or rename the table", ErrNotOurs, t.name, cols)
	}
	return mark(db)
}

// columns lists table name's columns in order, nil when it does not exist.
func columns(db *sql.DB, name string) ([]string, error) {
	rows, err := db.Query("SELECT name FROM pragma_table_info(?) ORDER BY cid", name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// columnNames are the schema's column names without SQL quoting.
func (t schema) columnNames() []string {
	out := make([]string, len(t.cols))
	for i, c := range t.cols {
		out[i] = strings.Trim(c, `"`)
	}
	return out
}
