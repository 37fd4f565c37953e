package bridge

import "github.com/streamlab/streamlab/lessons"

// Kind says what a Request asks of the bridge.
type Kind int

// Request kinds.
const (
	// Line runs one lab-script line, as typed in the palette or sent by a
	// key (kill, restart, set, run, step, …). pause and resume are
	// understood too.
	Line Kind = iota
	// Pause stops time; Resume lets it run again.
	Pause
	// Resume lets virtual time run again.
	Resume
	// StepOne processes one element (pausing first).
	StepOne
	// SetSpeed changes the playback speed to Request.Speed.
	SetSpeed
	// Reconfigure restarts the job from scratch with the recorded job and
	// set lines plus Request.Line (a set or job line), for settings the
	// engine fixes at the first run.
	Reconfigure
	// Open starts a fresh session on Request.Job.
	Open
	// Save writes the recorded session as a lab script into Request.Dir.
	Save
	// Probe watches the record id Request.ID: every frame then carries its
	// bit positions in the job's filter (Frame.Probe). It is not a
	// lab-script line and is not recorded.
	Probe
	// StopProbe stops watching an id.
	StopProbe
	// OpenSession starts a fresh session for a lesson or an exercise: on
	// Request.Job (the default job when empty) under Request.Seed, its
	// script in Request.Workspace (job files resolve there), then runs
	// Request.Lines (an exercise's scenario). With Request.Lesson set it
	// writes the lesson's files to the workspace and follows the lesson's
	// steps from Request.Done on.
	OpenSession
	// Finish plays the typed run in flight to its end as fast as the
	// engine goes (the fast-forward key): a slice of steps every tick,
	// with a frame between slices, so that a pause can stop it.
	Finish
	// WatchReport puts the session's report into frames (Frame.Report)
	// until StopReport: the lab's report overlay. It is not recorded.
	WatchReport
	// StopReport stops sending the report.
	StopReport
	// CheckChoices asks which of Request.Lines, values of the setting
	// Request.Line, the engine would refuse with the current settings; the
	// answer comes in Frame.Choices.
	CheckChoices
	// GoOn is the learner's key to go on in a lesson: the current step is
	// judged now if it was not yet, and a finished step held on screen
	// gives way to the next.
	GoOn
)

// Request is what the UI asks of the bridge.
type Request struct {
	Kind  Kind
	Line  string
	Job   string
	Speed float64
	Dir   string
	// ID is the record id a Probe request watches (engine.DedupID).
	ID uint64

	// OpenSession's fields.
	Seed      int64
	Workspace string
	Lesson    *lessons.Lesson
	Done      int
	Lines     []string
}

// Result is the bridge's answer to one request: what ran and how it went.
type Result struct {
	// Line is the lab-script line (or a description of the action).
	Line string
	// Err is the engine's error message; empty when the line succeeded.
	Err string
	// Info is a sentence for the learner (what happened, where a file went).
	Info string
	// Saved is the path of a saved script.
	Saved string
}
