package tui

import (
	"time"

	"github.com/streamlab/streamlab/lessons"
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
	// Start is the first screen: "" for home, "lab:JOB" for the sandbox,
	// "lesson:ID" or "exercise:ID" for a lesson or an exercise.
	Start string
	// StateDir keeps the learner's progress and the lessons' files
	// (lessons.StateDir()); progress is not saved when it is empty.
	StateDir string
	// Progress is the learner's progress as loaded from StateDir; empty
	// when nil. ProgressWarning, when set, says the progress file was
	// damaged and set aside.
	Progress        *lessons.Progress
	ProgressWarning string
	// SaveDir is where ctrl+s saves the session; the current directory
	// when empty.
	SaveDir string

	// Clock drives the bridge; the wall clock when nil. Tests inject one.
	Clock bridge.Clock
	// Now names saved files; time.Now when nil.
	Now func() time.Time
}
