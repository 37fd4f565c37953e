// Package pack reads exercise packs: a directory per exercise, each with an
// exercise.yaml (what the student must do and how it is checked), a
// README.md (the task as the student reads it) and the starter answer file.
// The README's "Exercise format" section documents the format.
//
// Loading checks everything that can be checked without running the engine
// and reports every problem at its file, line and column.
package pack

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// File names inside an exercise directory.
const (
	ExerciseFile = "exercise.yaml"
	TaskFile     = "README.md"
)

// Kinds of answer.
const (
	KindConfiguration = "configuration" // settings (a fragment of set lines) or a job file
	KindPrediction    = "prediction"    // answers.yaml: numbers or choices judged against the engine
	KindScript        = "script"        // a lab script that must bring a property about
	KindRecording     = "recording"     // a session saved from the terminal lab: graded like a script
)

// Kinds lists the kinds of answer.
var Kinds = []string{KindConfiguration, KindPrediction, KindScript, KindRecording}

// Visibility of a check's details to the student.
const (
	Visible = "visible"
	Hidden  = "hidden"
)

// Defaults of optional exercise keys.
const (
	DefaultJob  = "clicks"
	DefaultSeed = 1
	// DefaultSeeds is how many seeds a configuration, script or recording
	// answer is graded under; MaxSeeds bounds the exercise's seeds key.
	DefaultSeeds = 3
	MaxSeeds     = 10
	// DefaultTimeLimit is the wall-time guard against a grader bug, not a
	// limit on the answer: see Budget.
	DefaultTimeLimit = time.Minute
	MaxTimeLimit     = 10 * time.Minute
	// DefaultBudgetRecords and DefaultBudgetSteps are an exercise's budget
	// when it sets none: about two seconds of work on a laptop, ten times
	// what the built-in exercises' answers need. MaxBudget bounds each count.
	DefaultBudgetRecords = 500_000
	DefaultBudgetSteps   = 5_000_000
	MaxBudget            = 1_000_000_000
	// DefaultBudgetWindowUpdates and DefaultBudgetRows bound the work a
	// step does not measure: one step at a sliding window's node updates
	// window/slide windows (up to 1000), and one trigger in complete mode
	// writes the whole table. Each is a few seconds of work on a laptop and
	// well above what the built-in exercises' answers need (tumbling windows:
	// one update a record; a few thousand rows).
	DefaultBudgetWindowUpdates = 2_000_000
	DefaultBudgetRows          = 100_000
	// DefaultBudgetTimers, DefaultBudgetStateBytes and
	// DefaultBudgetCheckpointBytes bound the rest of what a step does not
	// measure: a trigger checks every window timer held open, so a
	// watermark lagging by hours makes each trigger check every window
	// seen; the state held lives in memory; a checkpoint copies the whole
	// state, so a checkpoint every record copies it every record. Each is
	// thousands of times what the built-in exercises' answers need (at most
	// 3 000 timer checks, 200 kB of state and 7 kB copied into checkpoints).
	DefaultBudgetTimers          = 5_000_000
	DefaultBudgetStateBytes      = 16 << 20
	DefaultBudgetCheckpointBytes = 64 << 20
)

// A prediction's attempts and feedback (see Exercise.Attempts and
// Exercise.Feedback).
const (
	DefaultAttempts = 1
	MaxAttempts     = 100
	// FeedbackRightWrong says only whether a prediction is right; with
	// FeedbackDirection a wrong number is also "too high" or "too low",
	// which lets a student bisect to the answer in a dozen tries, so it
	// is the exercise's choice, for practice without credit.
	FeedbackRightWrong = "right-wrong"
	FeedbackDirection  = "direction"
)

// Feedbacks lists the values of an exercise's feedback key.
var Feedbacks = []string{FeedbackRightWrong, FeedbackDirection}

// Budget is how much work one graded run of an answer may do, counted so
// that it is the same on every machine under any load: records the source
// admits, steps of the deterministic scheduler (each step is one element
// processed at one node), window updates (a record counted in a window:
// window/slide of them for each record a window-count node takes in),
// rows the sink writes, window timers checked (each trigger checks every
// window held open), the most state bytes held at once, and state bytes
// copied into checkpoints. An answer that goes over it fails, with the line
// that went over. A zero count in Options.Budget keeps the exercise's.
type Budget struct {
	Records, Steps, WindowUpdates, Rows int64
	Timers, StateBytes, CheckpointBytes int64
}

// DefaultBudget is the budget of an exercise that sets none, and the
// counts an exercise's budget key leaves out.
func DefaultBudget() Budget {
	return Budget{Records: DefaultBudgetRecords, Steps: DefaultBudgetSteps,
		WindowUpdates: DefaultBudgetWindowUpdates, Rows: DefaultBudgetRows, Timers: DefaultBudgetTimers,
		StateBytes: DefaultBudgetStateBytes, CheckpointBytes: DefaultBudgetCheckpointBytes}
}

// YAMLLimits bound the YAML files of a pack and of an answer: each is a few
// dozen lines.
var YAMLLimits = yamlpos.Limits{MaxBytes: 64 << 10, MaxBlankLines: 200, MaxNodes: 2000}

// ErrBadPack is matched (errors.Is) by every Problem.
var ErrBadPack = errors.New("bad exercise pack")

// Problem is a problem at a position in a pack's file, of kind ErrBadPack.
type Problem = poserr.Error

// Problems is every problem found in a pack; it is an error.
type Problems []*Problem

func (p Problems) Error() string {
	lines := make([]string, len(p))
	for i, e := range p {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sort orders problems by file, line and column.
func (p Problems) sort() {
	sort.SliceStable(p, func(i, j int) bool {
		a, b := p[i], p[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// ErrNoExercise is returned for an exercise ID a pack does not have.
var ErrNoExercise = errors.New("no such exercise")

// Pack is a set of exercises.
type Pack struct {
	// Name is how files of the pack are named in messages: a directory
	// path, or "exercises/builtin" for the built-in pack.
	Name string
	// FS holds the pack's files.
	FS fs.FS
	// Dir is the pack's directory on disk; empty for an embedded pack.
	Dir string
	// Exercises, sorted by ID.
	Exercises []*Exercise
}

// Lookup finds an exercise by ID.
func (p *Pack) Lookup(id string) (*Exercise, error) {
	for _, e := range p.Exercises {
		if e.ID == id {
			return e, nil
		}
	}
	ids := make([]string, len(p.Exercises))
	for i, e := range p.Exercises {
		ids[i] = e.ID
	}
	return nil, fmt.Errorf("%w %q in %s; it has %s", ErrNoExercise, id, p.Name, strings.Join(ids, ", "))
}

// Exercise is one exercise of a pack.
type Exercise struct {
	ID    string
	Title string
	Topic string
	Kind  string
	// Job is a built-in job's name or a job file's path relative to the
	// exercise directory.
	Job  string
	Seed int64
	// Seeds is how many seeds a configuration, script or recording answer
	// is graded under, the first being Seed: every check must hold under
	// each of them, so that an answer that works by luck does not pass.
	// A prediction is graded under one seed.
	Seeds int
	// Budget bounds the work of each graded run; HasBudget is whether
	// exercise.yaml set it.
	Budget    Budget
	HasBudget bool
	// TimeLimit is a wall-time guard against a grader bug: a run that
	// outlasts it is an internal error, never the student's zero.
	// HasTimeLimit is whether exercise.yaml set it.
	TimeLimit    time.Duration
	HasTimeLimit bool
	// Attempts is how many times a student may hand a prediction in where
	// the lab keeps count (a lab served to a class records each attempt and
	// grades none past the limit): each attempt is followed by the observed
	// values, so a second one is no prediction. Feedback is what a wrong
	// prediction is told (FeedbackRightWrong or FeedbackDirection).
	Attempts int
	Feedback string
	// Answer is the name of the file the student hands in; the exercise
	// directory holds its starter version.
	Answer string
	// Allow lists the settings a configuration answer of set lines may
	// change; empty allows every setting but seed and executor.
	Allow []string
	// Scenario is what the grader runs (see the README's "Exercise format" for the order of the
	// job, the answer and the scenario), with positions in ScenarioFile.
	Scenario     []script.Command
	ScenarioText string
	ScenarioFile string
	Checks       []Check
	// Task is the README.md: the task as the student reads it.
	Task string

	// Dir is the exercise's directory within the pack; Pack the pack.
	Dir  string
	Pack *Pack
	// File is exercise.yaml's name in messages.
	File string
	// overlay is set while an overlay's checks are read for the exercise.
	overlay bool
}

// Check is one graded property of an exercise.
type Check struct {
	Name       string
	Points     float64
	Visibility string
	// Hint is shown to the student when the check fails (visible checks).
	Hint string

	// Expect is a report expression (FIELD OP VALUE), as `expect` in a lab
	// script takes it; Expr is it parsed.
	Expect string
	Expr   script.Expr

	// Answer names a key of answers.yaml (prediction). It is judged against
	// the report field Field under the grader's seed, within Tolerance
	// (Relative: a fraction of the right value), or against the fixed
	// Correct answer. Choices, when given, are the answers allowed.
	Answer    string
	Field     string
	Correct   string
	Tolerance float64
	Relative  bool
	Choices   []string
	// SeedFree declares that the engine's answer does not depend on the
	// seed (a formula of the scenario's settings, or what a mechanism
	// always does): per-student seeds do not protect it against a copied
	// answer, and lint does not ask that they should.
	SeedFree bool

	Line, Col int // of the check in exercise.yaml
}

// FileName is how a file of the exercise is named in messages.
func (e *Exercise) FileName(name string) string {
	return path.Join(e.Pack.Name, e.Dir, name)
}

// ReadFile reads a file of the exercise directory.
func (e *Exercise) ReadFile(name string) ([]byte, error) {
	return fs.ReadFile(e.Pack.FS, path.Join(e.Dir, name))
}

// Starter is the starter answer file's contents.
func (e *Exercise) Starter() ([]byte, error) { return e.ReadFile(e.Answer) }

// JobIsFile reports whether the exercise's job is a job file.
func (e *Exercise) JobIsFile() bool {
	_, builtin := jobspec.Builtin(e.Job)
	return !builtin
}

// MaxPoints is the sum of the checks' points.
func (e *Exercise) MaxPoints() float64 {
	var sum float64
	for _, c := range e.Checks {
		sum += c.Points
	}
	return sum
}

// AnswerKeys lists the answers.yaml keys the checks read, in order.
func (e *Exercise) AnswerKeys() []string {
	var keys []string
	for _, c := range e.Checks {
		if c.Answer != "" && !slices.Contains(keys, c.Answer) {
			keys = append(keys, c.Answer)
		}
	}
	return keys
}
