package bridge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// headerLines is how many comment lines a saved script starts with; line
// numbers in the live session count them, so that an expect's line is the
// same live and in the saved file.
const headerLines = 2

// save writes the recorded session into dir as a lab script, atomically:
// a temporary file in the same directory, renamed into place once written,
// so a reader never sees half a script. The name carries the time, and a
// second save in the same second gets a suffix rather than overwriting.
func (b *Bridge) save(dir string) {
	b.finishQuantum()
	if dir == "" {
		dir = "."
	}
	now := b.opts.Clock.Now()
	var text strings.Builder
	fmt.Fprintf(&text, "# streamlab sandbox session, saved %s\n", now.Format("2006-01-02 15:04:05"))
	text.WriteString("# replay it with: streamlab run FILE\n")
	for _, line := range b.rec.lines {
		text.WriteString(line)
		text.WriteByte('\n')
	}
	path, err := writeNew(dir, "streamlab-"+now.Format("20060102-150405"), ".lab", []byte(text.String()))
	if err != nil {
		b.note(Result{Line: "save", Err: "could not save the session: " + err.Error()})
		return
	}
	b.note(Result{Line: "save", Saved: path, Info: fmt.Sprintf("saved %d lines to %s; replay with: streamlab run %s", len(b.rec.lines), path, path)})
}

// writeNew writes data to dir/base+ext, or base-2+ext, … if that exists.
func writeNew(dir, base, ext string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil { // a crash leaves the whole session or none
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	for i := 1; i < 100; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		path := filepath.Join(dir, name)
		// Link fails when path exists, so an earlier save is never replaced.
		if err := os.Link(tmp.Name(), path); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			// No hard links here (some file systems): fall back to a rename
			// after checking, which is atomic for the contents.
			if _, statErr := os.Stat(path); statErr == nil {
				continue
			}
			if err := os.Rename(tmp.Name(), path); err != nil {
				return "", err
			}
			return path, nil
		}
		return path, nil
	}
	return "", fmt.Errorf("too many saved sessions named %s*%s in %s", base, ext, dir)
}
