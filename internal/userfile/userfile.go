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

// ErrAllTaken is returned by WriteFirstFree when every path it was given
// is taken.
var ErrAllTaken = errors.New("every name is taken")

// WriteFirstFree writes data to the first of paths that nothing is at yet
// and returns its index; every path must be in the same directory. Like
// Write, it goes through a temporary file synced to disk, so a reader sees
// the whole file or none; the temporary file is then linked into place,
// which fails on a path that is taken, so a file there (an earlier save, a
// graded attempt) is never replaced. Where the file system has no hard
// links, it renames after checking the path is free.
func WriteFirstFree(paths []string, perm fs.FileMode, data []byte) (int, error) {
	if len(paths) == 0 {
		return -1, ErrAllTaken
	}
	tmp, err := writeTemp(filepath.Dir(paths[0]), filepath.Base(paths[0]), perm, data)
	if err != nil {
		return -1, err
	}
	defer os.Remove(tmp) // after a link, the file stays at its path
	for i, path := range paths {
		err := os.Link(tmp, path)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			if _, statErr := os.Lstat(path); statErr == nil {
				continue
			}
			if err := os.Rename(tmp, path); err != nil {
				return -1, err
			}
		}
		syncDir(filepath.Dir(path))
		return i, nil
	}
	return -1, ErrAllTaken
}

// writeTemp writes data to a new temporary file in dir, named after base,
// with the permissions perm, synced to disk, and returns its path.
func writeTemp(dir, base string, perm fs.FileMode, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
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
