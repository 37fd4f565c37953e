// Package lab runs lab scripts against the engine: the one command language
// that TUI keys, lessons, exercises and `streamlab run` all speak.
package lab

import (
	"context"
	"errors"

	"github.com/streamlab/streamlab/engine"
)

// ErrBadInput marks errors caused by the script or the files it names
// (exit code 2); errors.Is(err, ErrBadInput) tells them apart.
var ErrBadInput = errors.New("bad input")

// Options are the run-wide settings that the command line provides.
type Options struct {
	// Seed, when non-nil, overrides the script's `set seed`.
	Seed *int64
	// DBPath keeps the table sink's SQLite database at this path.
	DBPath string
	// DumpSource writes the admitted source log as JSON Lines to this path.
	DumpSource string
	// Executor is "deterministic" (default) or "concurrent".
	Executor string
}

// RunScript parses and runs a whole lab script and returns its report.
// file names the script in error messages ("-" for standard input).
func RunScript(ctx context.Context, file string, src []byte, opts Options) (*engine.Report, error) {
	return nil, errors.New("not implemented yet")
}
