// Package userfile writes files into places the user owns (a source dump,
// an exercise starter, a lesson's workspace) so that nothing of theirs is
// lost: an existing file is replaced only when they said so, never
// written through a symbolic link, and never left half-written.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned for a path that exists when overwriting was not
// asked for.
var ErrExists = errors.New("already exists")

// PathError is a refusal of Write's own about Path, read as "path: reason",
// so that a caller that names the path itself can say the reason alone.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Write writes path through a temporary file in the same directory and a
// rename, so a reader sees the old file or the new one, never half. An
// existing path is an error (ErrExists) unless overwrite is set; a
// directory is always an error. A symbolic link at path is replaced by the
// new file, never followed: what it points to is left alone. A regular file
// replaced keeps its permissions (a report the user made 0600 stays
// private); a new one gets perm. The data is synced to disk before the
// rename and the directory after it, so that a crash leaves the old file
// or the new one, not an empty one.
func Write(path string, overwrite bool, perm fs.FileMode, write func(io.Writer) error) error {
	st, err := os.Lstat(path)
	switch {
	case err == nil && st.IsDir():
		return &PathError{Path: path, Err: errors.New("is a directory; give a file name")}
	case err == nil && !overwrite:
		return &PathError{Path: path, Err: fmt.Errorf("%w (use --force to replace it)", ErrExists)}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if st != nil && st.Mode().IsRegular() {
		perm = st.Mode().Perm()
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir makes a rename in dir durable, where the system allows it (a
// directory cannot be synced everywhere; the file is in place either way).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteFile is Write with data.
func WriteFile(path string, overwrite bool, perm fs.FileMode, data []byte) error {
	return Write(path, overwrite, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Create writes data to path only when nothing is there yet (not even a
// dangling link): a file the user has edited is never replaced. It
// reports whether it wrote.
func Create(path string, perm fs.FileMode, data []byte) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // what we created, half written
		return false, err
	}
	return true, nil
}
