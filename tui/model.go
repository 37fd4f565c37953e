// Package tui is the terminal lab: one Bubble Tea program with a home
// screen and the sandbox lab. The root Model owns the screen, the focus
// and the layout; keys go to the top open overlay (a dialog, the palette,
// a full-screen view), and beneath them all to the screen itself, the lab
// (its own keys, then the focused pane's: see pane) or the home screen:
// allOverlays is the one place that decides. The engine's frames arrive
// from the bridge (package bridge), the one goroutine besides Bubble
// Tea's own.
package tui

import (
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/assets"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/dialog/keyhelp"
	"github.com/streamlab/streamlab/tui/dialog/palette"
	"github.com/streamlab/streamlab/tui/dialog/picker"
	"github.com/streamlab/streamlab/tui/home"
	"github.com/streamlab/streamlab/tui/layout"
	"github.com/streamlab/streamlab/tui/pane/events"
	"github.com/streamlab/streamlab/tui/pane/filterpane"
	"github.com/streamlab/streamlab/tui/pane/ledger"
	"github.com/streamlab/streamlab/tui/pane/lessonpane"
	"github.com/streamlab/streamlab/tui/pane/output"
	"github.com/streamlab/streamlab/tui/pane/pipeline"
	"github.com/streamlab/streamlab/tui/predict"
	"github.com/streamlab/streamlab/tui/render"
	"github.com/streamlab/streamlab/tui/reportview"
	"github.com/streamlab/streamlab/tui/runs"
	"github.com/streamlab/streamlab/tui/styles"
)

// Minimum terminal size: below it the lab says how big it needs to be.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Screen is what the lab shows.
type Screen int

// Screens.
const (
	ScreenHome Screen = iota
	ScreenLab
)

// Pane names a pane of the lab screen, in focus order.
type Pane int

// Panes. The filter pane is in the focus order only while it is shown.
const (
	PanePipeline Pane = iota
	PaneOutput
	PaneLedger
	PaneFilter
	PaneEvents
	// PaneLesson is the lesson's or exercise's pane, in the layout only
	// in a lesson or an exercise.
	PaneLesson
	paneCount
)

// Engine is the bridge as the UI sees it: a place to send requests and a
// stream of frames. Tests substitute a fake.
type Engine interface {
	Send(bridge.Request) bool
	Frames() <-chan bridge.Frame
}

// message is the line above the help bar: the last answer or error.
type message struct {
	text  string
	isErr bool
}

// Model is the root model.
type Model struct {
	opts Options
	eng  Engine
	st   *styles.Styles
	keys LabKeys // its HA key gives way to the lesson's hint key

	screen Screen
	focus  Pane
	w, h   int
	rects  [paneCount]layout.Rect
	bottom layout.Bottom
	slot   Pane // the filter or events pane, in a shared slot

	frame   bridge.Frame
	paused  bool
	speed   float64
	msg     message
	confirm string // a set or job line waiting for "restart the job?"
	leaving bool   // "leave the lesson?" waits for an answer
	dialog  dialogHold

	home     home.Model
	pipeline pipeline.Model
	output   output.Model
	ledger   ledger.Model
	filter   filterpane.Model
	events   events.Model
	palette  palette.Model
	picker   picker.Model
	targets  picker.Model // the nodes k and r act on
	killing  string       // a node waiting for "kill it?"
	report   reportview.Model
	runs     runs.Model // the learner's finished runs, charted (C)
	// The lab's top and bottom lines.
	statusBar render.StatusBar
	helpBar   render.HelpBar
	help      keyhelp.Model
	// eventsScreen is the events pane opened over the whole screen (v),
	// and eventsFrom the pane that had the focus before.
	eventsScreen bool
	eventsFrom   Pane

	// A lesson or an exercise: its pane, the learner's progress, and the
	// check's answer once the engine has worked it out.
	guide    lessonpane.Model
	predict  predict.Model // a prediction exercise's form
	catalog  []*lessons.Lesson
	progress *lessons.Progress
	answer   *lessons.Answer
	pending  string // an answer submitted before the engine's was ready
	solving  bool
}

// New builds the root model around an engine.
func New(opts Options, eng Engine) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	st := styles.New(styles.ByName(opts.Theme, styles.NoColor()))
	var jobs []home.Job
	for _, name := range jobspec.Names() {
		spec, _ := jobspec.Builtin(name)
		jobs = append(jobs, home.Job{Name: name, Description: spec.Description})
	}
	m := Model{
		opts: opts, eng: eng, st: st,
		keys:      DefaultLabKeys(),
		paused:    true,
		speed:     bridge.SnapSpeed(opts.Speed),
		home:      home.New(st, assets.Banner, jobs, settingsView(opts), opts.Job),
		pipeline:  pipeline.New(st),
		output:    output.New(st),
		ledger:    ledger.New(st),
		filter:    filterpane.New(st),
		events:    events.New(st),
		palette:   palette.New(st),
		picker:    picker.New(st),
		targets:   picker.New(st),
		report:    reportview.New(st),
		runs:      runs.New(st, opts.ASCII),
		statusBar: render.NewStatusBar(st),
		helpBar:   render.NewHelpBar(st),
		slot:      PaneFilter,
		guide:     lessonpane.New(st),
		progress:  opts.Progress,
	}
	if opts.ExerciseSeed != nil {
		m.report.HideSeed() // served with a grading secret: the seeds are the student's own
	}
	if m.progress == nil {
		m.progress = &lessons.Progress{}
	}
	m.ledger.SetASCII(opts.ASCII)
	m.filter.SetASCII(opts.ASCII)
	m.catalog, _ = lessons.Catalog() // embedded; its tests keep it loading
	m.home.SetLessons(m.homeLessons(), opts.ProgressWarning)
	m.home.SetExercises(homeExercises())
	kind, id, _ := strings.Cut(opts.Start, ":")
	switch kind {
	case "lab":
		m.screen = ScreenLab
	case "lesson":
		m.openLesson(id)
	case "exercise":
		m.openExercise(id)
	}
	m.setFocus(PanePipeline)
	return m
}

// settingsView is what the home screen's settings panel lists.
func settingsView(o Options) []home.Setting {
	file := o.ConfigFile
	if file == "" {
		file = "(none: built-in defaults)"
	}
	mouse := "off"
	if o.Mouse {
		mouse = "on"
	}
	theme := o.Theme
	if styles.NoColor() {
		theme += " (NO_COLOR: mono)"
	}
	db := o.DB
	if db == "" {
		db = "(in memory)"
	}
	return []home.Setting{
		{Key: "job", Value: o.Job, Doc: "the sandbox's job"},
		{Key: "speed", Value: bridge.FormatSpeed(bridge.SnapSpeed(o.Speed)), Doc: "virtual s per wall s"},
		{Key: "seed", Value: strconv.FormatInt(o.Seed, 10), Doc: "source and scheduler"},
		{Key: "executor", Value: string(o.Executor), Doc: "what runs the nodes"},
		{Key: "theme", Value: theme, Doc: ""},
		{Key: "mouse", Value: mouse, Doc: ""},
		{Key: "db", Value: db, Doc: "table sink"},
		{Key: "config", Value: file, Doc: ""},
	}
}

// Init starts listening for frames.
func (m Model) Init() tea.Cmd { return waitFrame(m.eng) }

// Progress is the learner's progress as the lab knows it.
func (m Model) Progress() *lessons.Progress { return m.progress }

// Screen is the screen shown.
func (m Model) Screen() Screen { return m.screen }

// Focus is the focused pane.
func (m Model) Focus() Pane { return m.focus }

// Message is the text of the message line and whether it is an error.
func (m Model) Message() (string, bool) { return m.msg.text, m.msg.isErr }

// Paused and Speed are the lab's state as the UI knows it.
func (m Model) Paused() bool       { return m.paused }
func (m Model) Speed() float64     { return m.speed }
func (m Model) Confirming() string { return m.confirm }
func (m Model) HelpShown() bool    { return m.help.Active() }

// setFocus moves the focus and tells the panes. The filter or events
// pane, focused, takes the slot they share on small screens.
func (m *Model) setFocus(p Pane) {
	m.focus = (p + paneCount) % paneCount
	if m.focus == PaneFilter || m.focus == PaneEvents {
		m.slot = m.focus
	}
	for p, pn := range m.panes() {
		pn.SetFocused(Pane(p) == m.focus)
	}
}

// moveFocus moves the focus by dir (±1) along the focus order, past the
// panes that are not part of the layout.
func (m *Model) moveFocus(dir Pane) {
	p := m.focus
	for range paneCount {
		p = (p + dir + paneCount) % paneCount
		if m.inLayout(p) {
			break
		}
	}
	m.setFocus(p)
}
