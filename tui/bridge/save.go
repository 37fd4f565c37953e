package bridge

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/streamlab/streamlab/internal/userfile"
)

// headerLines is how many comment lines a saved script starts with; line
// numbers in the live session count them, so that an expect's line is the
// same live and in the saved file.
const headerLines = 2

// save writes the recorded session into dir as a lab script, atomically:
// a temporary file in the same directory, put into place once written
// (userfile.WriteFirstFree), so a reader never sees half a script. The name carries the time, and a
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

// writeNew writes data to dir/base+ext, or base-2+ext, … if that exists,
// never over an earlier save (userfile.WriteFirstFree).
func writeNew(dir, base, ext string, data []byte) (string, error) {
	paths := make([]string, 0, 99)
	for i := 1; i < 100; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		paths = append(paths, filepath.Join(dir, name))
	}
	i, err := userfile.WriteFirstFree(paths, 0o600, data)
	if errors.Is(err, userfile.ErrAllTaken) {
		return "", fmt.Errorf("too many saved sessions named %s*%s in %s", base, ext, dir)
	}
	if err != nil {
		return "", err
	}
	return paths[i], nil
}
