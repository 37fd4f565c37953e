// Package untrusted reads files that someone else wrote: students'
// answers, instructors' packs, job files and recorded events. Such a file
// is data, never a way into the rest of the machine, so it is read only
// when it is a regular file inside the directory it was handed in, and
// never beyond a size cap.
//
// A symbolic link that leaves the directory (to /proc/self/environ, say)
// is refused, as are devices, FIFOs and sockets: /dev/zero would fill the
// memory and a FIFO would block for ever. Files are opened without
// blocking and checked with fstat before a byte is read, so neither a
// swap between check and open nor a FIFO can stall the reader.
package untrusted

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// ErrNotRegular is returned for a device, a FIFO, a socket or anything
// else that is not a regular file or (where allowed) a directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned for a file larger than the cap.
var ErrTooLarge = errors.New("file too large")

// ErrOutside is returned for a name that leaves its directory, through
// .. or a symbolic link.
var ErrOutside = errors.New("outside the directory it was given in")

// Dir is a directory whose files are read as untrusted data. Its methods
// make it an fs.FS (and fs.ReadFileFS, fs.StatFS) for code that walks a
// pack, with the same checks as ReadFile.
type Dir struct {
	root *os.Root
	// Max is the largest file ReadFile returns, in bytes.
	Max int64
}

// OpenDir opens the directory path for reading files of at most max bytes.
func OpenDir(path string, max int64) (*Dir, error) {
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Dir{root: r, Max: max}, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Name is the directory's path as it was opened.
func (d *Dir) Name() string { return d.root.Name() }

// open opens name (a slash-separated path inside d) without blocking and
// without following a link out, and checks what it is.
func (d *Dir) open(name string, dirOK bool) (*os.File, fs.FileInfo, error) {
	f, err := d.root.OpenFile(filepath.FromSlash(name), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, explain(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() && !(dirOK && st.IsDir()) {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (it is %s)", ErrNotRegular, kind(st.Mode()))}
	}
	return f, st, nil
}

// explain turns os.Root's escape error into ErrOutside, keeping the rest.
//
// It has to read the text: os (as of Go 1.26) keeps that error unexported
// (errPathEscapes, "path escapes from parent"), with no sentinel or type
// that errors.Is or errors.As could match.
func explain(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: ErrOutside}
	}
	return err
}

// kind names a file mode for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file"
}

// ReadFile reads the regular file name (slash-separated, inside d), of at
// most d.Max bytes.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrOutside}
	}
	f, st, err := d.open(name, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > d.Max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, d.Max)}
	}
	data, err := io.ReadAll(io.LimitReader(f, d.Max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > d.Max { // it grew while being read
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, d.Max)}
	}
	return data, nil
}

// Open opens name for fs.FS: a regular file or a directory.
func (d *Dir) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, _, err := d.open(name, true)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Stat describes name for fs.StatFS, following links only inside d.
func (d *Dir) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	st, err := d.root.Stat(filepath.FromSlash(name))
	if err != nil {
		return nil, explain(err)
	}
	return st, nil
}

// ReadDir lists the directory name for fs.ReadDirFS.
func (d *Dir) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return rd.ReadDir(-1)
}

// OpenPath opens the regular file at path for reading, confined to its own
// directory like ReadPath; the caller bounds what it reads.
func OpenPath(path string) (*os.File, error) {
	d, err := OpenDir(filepath.Dir(path), 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, _, err := d.open(filepath.Base(path), false)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return f, err
}

// ReadFile reads the file name inside directory root as untrusted data: a
// regular file, reached without leaving root, of at most max bytes.
func ReadFile(root, name string, max int64) ([]byte, error) {
	d, err := OpenDir(root, max)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	rel := filepath.ToSlash(filepath.Clean(name))
	return d.ReadFile(rel)
}

// ReadPath reads the file at path as untrusted data confined to its own
// directory: the last element may not be a link out of it, a device, a
// FIFO or a socket, and the file may not be larger than max bytes.
func ReadPath(path string, max int64) ([]byte, error) {
	data, err := ReadFile(filepath.Dir(path), filepath.Base(path), max)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return data, err
}

// Quote prepares text taken from an untrusted file for a report: control
// characters (escape sequences, carriage returns, NUL) become U+FFFD or
// a space, invalid UTF-8 is replaced, and the text is cut to at most max
// runes with an ellipsis, so that a quoted answer can neither rewrite the
// reader's terminal nor flood the report.
func Quote(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteString("…")
			break
		}
		switch {
		case r == utf8.RuneError:
			r = '\uFFFD'
		case r == '\t' || r == '\n':
			r = ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != '\u200d':
			r = '\uFFFD'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// FS returns the directory path as an fs.FS (with ReadFile, Stat and
// ReadDir) whose files are read as untrusted data, each of at most max
// bytes. Unlike os.DirFS it follows no link out of path and opens no
// device, FIFO or socket; unlike a Dir it holds no descriptor between
// calls, so a pack loaded from it can live as long as it likes.
func FS(path string, max int64) fs.FS { return dirFS{path, max} }

type dirFS struct {
	path string
	max  int64
}

func (f dirFS) with(do func(d *Dir) error) error {
	d, err := OpenDir(f.path, f.max)
	if err != nil {
		return err
	}
	defer d.Close()
	return do(d)
}

func (f dirFS) Open(name string) (file fs.File, err error) {
	err = f.with(func(d *Dir) (err error) { file, err = d.Open(name); return })
	return
}

func (f dirFS) ReadFile(name string) (data []byte, err error) {
	err = f.with(func(d *Dir) (err error) { data, err = d.ReadFile(name); return })
	return
}

func (f dirFS) Stat(name string) (st fs.FileInfo, err error) {
	err = f.with(func(d *Dir) (err error) { st, err = d.Stat(name); return })
	return
}

func (f dirFS) ReadDir(name string) (ents []fs.DirEntry, err error) {
	err = f.with(func(d *Dir) (err error) { ents, err = d.ReadDir(name); return })
	return
}

// ReadOwn reads the user's own file at path (a configuration file, the
// learner's progress), which may be a symbolic link anywhere, as dotfile
// managers make them: it is trusted where it points, but must still be a
// regular file of at most max bytes. A FIFO would block the program for
// ever (and keep it from seeing a signal), /dev/zero would fill the
// memory; both are refused before a byte is read.
func ReadOwn(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (it is %s)", ErrNotRegular, kind(st.Mode()))}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)}
	}
	return data, nil
}
