package tui

import (
	"time"

	"github.com/streamlab/streamlab/tui/bridge"
)

// Options are what the terminal lab runs with: the configuration main
// decoded (tui knows nothing of viper or flags), and where to start.
type Options struct {
	// Theme is "default" or "mono"; NO_COLOR forces mono.
	Theme string
	// Mouse turns on mouse support (clicking panes and nodes).
	Mouse bool
	// Speed is the initial playback speed, virtual seconds per wall second.
	Speed float64
	// Job is the built-in job the sandbox opens with.
	Job string
	// Executor is deterministic or concurrent.
	Executor string
	// Seed seeds the source and the scheduler.
	Seed int64
	// DB keeps the table sink's database at this path.
	DB string
	// ConfigFile is the configuration file that was read, for the settings
	// view; empty when there was none.
	ConfigFile string
	// Start is the first screen: "" for home, "lab:JOB" for the sandbox.
	// Lessons and exercises ("lesson:ID", "exercise:ID") open home for now.
	Start string
	// SaveDir is where ctrl+s saves the session; the current directory
	// when empty.
	SaveDir string

	// Clock drives the bridge; the wall clock when nil. Tests inject one.
	Clock bridge.Clock
	// Now names saved files; time.Now when nil.
	Now func() time.Time
}
