//go:build windows

package table

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes an exclusive lock on one byte of the database file for
// the life of the store, so that two runs never write one file at once,
// as flock(2) does elsewhere. Windows locks are mandatory, so the byte is
// far past any a database reads or SQLite locks (those start at 1 GiB):
// at 2^62, which a file never reaches. SQLite, this run's own and a
// learner's sqlite3 shell, reads the file as before.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	ol := windows.Overlapped{OffsetHigh: 1 << 30}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, fmt.Errorf("%w: wait for it to finish, or give this run another --db", ErrInUse)
		}
		return nil, err
	}
	return f, nil
}
