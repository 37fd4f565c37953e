package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
)

// Options are what the terminal lab runs with: the configuration main
// decoded (tui knows nothing of viper or flags), and where to start.
type Options struct {
	// Theme is "default" or "mono"; NO_COLOR forces mono.
	Theme string
	// ASCII draws the charts in ASCII: Run sets it for a plain terminal
	// (TERM=dumb, a locale that is not UTF-8), where every screen is
	// drawn in ASCII and a Braille curve would be a row of dots.
	ASCII bool
	// Mouse turns on mouse support (clicking panes and nodes).
	Mouse bool
	// Speed is the initial playback speed, virtual seconds per wall second.
	Speed float64
	// Job is the built-in job the sandbox opens with.
	Job string
	// Executor is deterministic or concurrent.
	Executor engine.Executor
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
	// Home, when set, is shown as ~ wherever the lab names a path (a
	// served lab: the student's own directory on the server).
	Home string
	// CountAttempts records each prediction attempt in SaveDir and refuses
	// one past the exercise's attempts (predict.Model.WithAttempts): what a
	// lab served to a class does, where the answers are graded.
	CountAttempts bool

	// Clock drives the bridge; the wall clock when nil. Tests inject one.
	Clock bridge.Clock
	// Now names saved files; time.Now when nil.
	Now func() time.Time

	// The hooks below let a classroom server (package classroom) run the
	// lab for a student over SSH; the terminal lab leaves them empty.
	//
	// ProgramOptions are added to Run's own (the session's input and
	// output, no signal handler). Program is called with the program
	// before it runs, to send it messages from outside: the session's
	// window sizes.
	ProgramOptions []tea.ProgramOption
	Program        func(*tea.Program)
	// ExerciseSeed, when set, is the seed exercise id runs and is graded
	// under (the student's own); the exercise's seed otherwise.
	ExerciseSeed func(id string) int64
	// Guard, when set, sees every request before it goes to the engine;
	// an error refuses the request and is shown instead (a server keeps a
	// student's lab from opening its files).
	Guard func(bridge.Request) error
	// FrameRate is how many frames a second the lab draws while time
	// runs (at most 30, the default); a server of many labs draws fewer.
	FrameRate int
	// Graded, when set, is given each answer the learner has graded, as
	// the grader read it, so that it can be kept and graded again.
	Graded func(id string, answer []byte)
	// Meter, when set, sees the lab's work, so that a server can tell
	// each student's share of it.
	Meter Meter
	// MemoryBudget bounds the memory a run's state may hold, in bytes
	// (lab.Options.MemoryBudget: 0 is the lab's default); a server of many
	// labs gives each less.
	MemoryBudget int64
}
