package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/home"
	"github.com/streamlab/streamlab/tui/predict"
)

// Update routes a message: sizes to the layout, frames to the panes, keys
// to whatever has the focus.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case frameMsg:
		m.applyFrame(bridge.Frame(msg))
		return m, tea.Batch(waitFrame(m.eng), m.applyLesson(bridge.Frame(msg)))
	case solvedMsg:
		return m.solved(msg)
	case gradedMsg:
		return m.graded(msg), nil
	case predict.AttemptMsg, predict.ObservedMsg, predict.GradedMsg:
		return m.predictUpdate(msg)
	case savedMsg:
		if msg.err != nil {
			m.msg = message{text: "could not save your progress: " + draw.ShowHome(m.opts.Home, msg.err.Error()), isErr: true}
		}
		return m, nil
	case engineClosedMsg:
		return m, nil
	case tea.MouseMsg:
		return m.mouse(msg), nil
	case tea.KeyMsg:
		next, cmd := m.key(msg)
		nm := next.(Model)
		nm.holdForDialog()
		return nm, cmd
	}
	return m.overlays().tick(m, msg)
}

// key routes a key: ctrl+c quits wherever it is pressed; keys that
// arrived together go nowhere while a dialog is open, and one by one
// unless a text input takes them; then the overlay stack (see allOverlays)
// alone decides who has it.
func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if msg.Type == tea.KeyCtrlC {
		return m, tea.Quit
	}
	if m.dialogOpen() && burst(msg) {
		m.dropForDialog()
		return m, nil
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !m.overlays().text() {
		return m.eachRune(msg)
	}
	return m.overlays().key(m, msg)
}

// eachRune handles keys that arrived together (fast typing, a terminal
// multiplexer) one by one, as if typed apart, up to one that opens a
// dialog.
func (m Model) eachRune(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	var model tea.Model = m
	for _, r := range k.Runes {
		if model.(Model).dialogOpen() {
			break // a key of the burst opened a dialog: the rest is not its answer
		}
		var cmd tea.Cmd
		model, cmd = model.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
		cmds = append(cmds, cmd)
	}
	return model, tea.Batch(cmds...)
}

// homeKey handles a key on the home screen (the help over it closes
// itself).
func (m Model) homeKey(k tea.KeyMsg) (Model, tea.Cmd) {
	hk := DefaultHomeKeys()
	switch {
	case key.Matches(k, hk.Quit):
		return m, tea.Quit
	case key.Matches(k, hk.Help):
		m.help.Open()
		return m, nil
	}
	var act home.Action
	m.home, act = m.home.Update(k)
	switch {
	case act.OpenJob != "":
		m.openLab(act.OpenJob)
	case act.OpenLesson != "":
		m.openLesson(act.OpenLesson)
	case act.OpenExercise != "":
		m.openExercise(act.OpenExercise)
	}
	return m, nil
}

// openLab switches to the sandbox on job, in a fresh session.
func (m *Model) openLab(job string) {
	m.closeGuide()
	m.send(bridge.Request{Kind: bridge.Open, Job: job})
	m.screen, m.paused = ScreenLab, true
	m.msg = message{text: "opened " + job + " · space starts time, ? shows every key"}
	m.setFocus(PanePipeline)
}

// send hands a request to the bridge and reports whether it went; a
// request the guard refuses, or a full queue, is reported, not hidden.
func (m *Model) send(r bridge.Request) bool {
	if m.opts.Guard != nil {
		if err := m.opts.Guard(r); err != nil {
			m.msg = message{text: err.Error(), isErr: true}
			return false
		}
	}
	if !m.eng.Send(r) {
		m.msg = message{text: "the engine is busy; try again", isErr: true}
		return false
	}
	return true
}

// labKey handles a key no overlay and no lesson took: the lab's own keys,
// and last the focused pane's.
func (m Model) labKey(k tea.KeyMsg) (Model, tea.Cmd) {
	m.msg = message{}
	lk := m.keys
	switch {
	case key.Matches(k, lk.Quit):
		return m, tea.Quit
	case key.Matches(k, lk.Help):
		m.help.Open()
	case key.Matches(k, lk.Back) && m.guide.Lesson() != nil:
		m.askLeave()
	case key.Matches(k, lk.Back):
		m.goHome()
	case key.Matches(k, lk.Pause):
		if m.paused {
			m.send(bridge.Request{Kind: bridge.Resume})
		} else {
			m.send(bridge.Request{Kind: bridge.Pause})
		}
		m.paused = !m.paused
	case key.Matches(k, lk.Finish):
		if !m.frame.Playing {
			m.msg = message{text: "no run is playing; type a run (: run 3000) to play one"}
			break
		}
		m.send(bridge.Request{Kind: bridge.Finish})
		m.msg = message{text: "finishing the run as fast as it goes; space pauses it"}
	case key.Matches(k, lk.Report):
		m.openReport()
	case key.Matches(k, lk.Runs):
		m.runs.Open(m.runsView())
	case key.Matches(k, lk.Events):
		m.openEventsScreen()
	case key.Matches(k, lk.Step):
		m.send(bridge.Request{Kind: bridge.StepOne})
		m.paused = true
	case key.Matches(k, lk.Faster):
		m.setSpeed(bridge.Faster(m.speed))
	case key.Matches(k, lk.Slower):
		m.setSpeed(bridge.Slower(m.speed))
	case key.Matches(k, lk.Kill):
		m.openTargets(script.VerbKill)
	case key.Matches(k, lk.Restart):
		m.openTargets(script.VerbRestart)
	case key.Matches(k, lk.Mode):
		m.openPicker("mode")
	case key.Matches(k, lk.Sink):
		m.openPicker("sink")
	case key.Matches(k, lk.Semantics):
		m.openPicker("semantics")
	case key.Matches(k, lk.HA):
		m.openPicker("ha")
	case key.Matches(k, lk.Filter):
		m.openPicker("filter")
	case key.Matches(k, lk.Palette):
		return m, m.palette.Open()
	case key.Matches(k, lk.Save):
		m.send(bridge.Request{Kind: bridge.Save, Dir: m.opts.SaveDir})
		m.msg = message{text: "saving the session…"}
	case key.Matches(k, lk.Focus):
		m.moveFocus(+1)
	case key.Matches(k, lk.FocusBack):
		m.moveFocus(-1)
	default:
		return m.paneKey(k)
	}
	return m, nil
}

// paneKey gives a key to the focused pane.
func (m Model) paneKey(k tea.KeyMsg) (Model, tea.Cmd) {
	cmd := m.panes()[m.focus].handle(k)
	return m, cmd
}

func (m *Model) setSpeed(s float64) {
	m.speed = s
	m.send(bridge.Request{Kind: bridge.SetSpeed, Speed: s})
	m.msg = message{text: "speed " + bridge.FormatSpeed(s)}
}

// submit sends one lab-script line. A set or job line after the job has
// started cannot apply to the running job (the engine fixes them at the
// first run), so the learner is offered a restart with it instead.
func (m *Model) submit(line string) {
	verb, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	// The bridge opens a new session for a fresh step's first line, and
	// for a job line on a step done (its follow-up).
	ls := m.frame.Lesson
	fresh := ls != nil && (ls.Fresh || (ls.Held && verb == script.VerbJob))
	if (verb == script.VerbSet || verb == script.VerbJob) && m.frame.Started && !fresh {
		if m.opts.Guard != nil {
			if err := m.opts.Guard(bridge.Request{Kind: bridge.Reconfigure, Line: line}); err != nil {
				m.msg = message{text: err.Error(), isErr: true}
				return // refused before asking to restart for it
			}
		}
		m.confirm = line
		return
	}
	switch verb {
	case script.VerbPause:
		m.paused = true
	case script.VerbResume:
		m.paused = false
	}
	if m.send(bridge.Request{Kind: bridge.Line, Line: line}) {
		m.msg = message{text: "> " + line}
	}
	if verb == script.VerbReport {
		m.openReport()
	}
}

// openReport opens the report overlay; the bridge sends the report with
// its frames while it is open.
func (m *Model) openReport() {
	m.report.Open()
	m.send(bridge.Request{Kind: bridge.WatchReport})
}
