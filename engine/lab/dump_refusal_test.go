package lab_test

import (
	"context"
	"errors"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/internal/poserr"
)

// TestDumpSourceRefusalNamesTheFileOnce: a dump the file system refuses (a
// directory where the file would go, even with Force) is bad input at the
// file, whose name the message says once.
func TestDumpSourceRefusalNamesTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	_, err := lab.RunScript(context.Background(), "s.lab", []byte("job clicks\nrun 10\n"), lab.Options{DumpSource: dir, Force: true})
	e, ok := poserr.As(err, lab.ErrBadInput)
	if !ok || e.File != dir || e.Msg != "is a directory; give a file name" {
		t.Fatalf("RunScript = %v, want a bad-input error at %s", err, dir)
	}
	if want := dir + ": is a directory; give a file name"; !errors.Is(err, lab.ErrBadInput) || err.Error() != want {
		t.Fatalf("RunScript = %q, want %q", err, want)
	}
}
