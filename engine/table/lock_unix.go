//go:build unix

package table

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

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
