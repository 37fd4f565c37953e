package table

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
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

// lockFile takes an exclusive advisory lock on the database file for the
// life of the store, so that two runs never write one file at once (their
// tables would mix, and the loser's SQLITE_BUSY would read as a bad
// configuration). It is flock(2), separate from SQLite's own fcntl locks:
// a learner's sqlite3 shell can still read the file meanwhile.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: wait for it to finish, or give this run another --db", ErrInUse)
		}
		return nil, err
	}
	return f, nil
}

// checkOwner refuses a database whose tables of streamlab's names were not
// made by streamlab: a file marked with streamlab's application id, or one
// whose tables have exactly streamlab's columns (a file from before the
// mark), is streamlab's; an empty file is marked as streamlab's.
func checkOwner(db *sql.DB) error {
	var id int64
	if err := db.QueryRow("PRAGMA application_id").Scan(&id); err != nil {
		return err
	}
	if id == applicationID {
		return nil
	}
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
	if id != 0 {
		return fmt.Errorf("%w: the file belongs to another application (application_id %#x); give another --db", ErrNotOurs, id)
	}
	_, err := db.Exec(fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	return err
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
