package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/dialog/question"
	"github.com/streamlab/streamlab/tui/draw"
)

// overlay is one layer of the screen: the palette, a dialog, a full-screen
// view, the help, a question, and beneath them all the screen itself (the
// lab or the home screen). allOverlays lists them once, top first; the
// first open one has the keyboard, and the key dispatch, the help bar, the
// help's list and the drawing all read that one list, so they cannot
// disagree on who is on top, and nothing else decides where a key goes.
type overlay struct {
	name string // which it is, for tests
	open func(Model) bool
	// key handles a key; handled is false for a key the overlay lets
	// through to what is beneath it (the events screen does). The screen
	// at the bottom takes every key.
	key func(Model, tea.KeyMsg) (_ Model, _ tea.Cmd, handled bool)
	// keys are the keys that work while it is on top; nil lists those of
	// what it covers (the help does).
	keys func(Model) helpKeys
	// through marks an overlay that lets the keys it does not take
	// through to what is beneath (the events screen): the help lists
	// those that still reach it after the overlay's own.
	through bool
	// draw draws it over body; nil when it is drawn in a place of its own
	// (the palette on the message line, a question in the lesson pane).
	// The screen at the bottom is given no body and draws its own.
	draw func(Model, []string) []string
	// tick takes the messages a text input needs besides keys (its
	// cursor's blink); an overlay with one takes a burst of keys whole.
	tick func(Model, tea.Msg) (Model, tea.Cmd)
	// modal marks a dialog: it takes only its answers, holds the run
	// while it is open, and keys that arrived together go nowhere.
	modal bool
	// clickThrough lets mouse clicks reach the panes beneath.
	clickThrough bool
}

// allOverlays is the overlays, top first: the one order in which they
// take the keyboard. The last two are the screens, one of them open.
func allOverlays() []overlay {
	return []overlay{
		paletteOverlay(),
		leaveOverlay(),
		pickerOverlay(),
		confirmOverlay(),
		targetsOverlay(),
		killOverlay(),
		runsOverlay(),
		reportOverlay(),
		helpOverlay(),
		answerOverlay(),
		predictOverlay(),
		eventsScreenOverlay(),
		labOverlay(),
		homeOverlay(),
	}
}

// overlayStack is the overlays open now, top first.
type overlayStack []overlay

// overlays is the overlay stack as it is now.
func (m Model) overlays() overlayStack {
	var out overlayStack
	for _, o := range allOverlays() {
		if o.open(m) {
			out = append(out, o)
		}
	}
	return out
}

// key gives k to the overlays, top first, until one handles it: the
// screen at the bottom takes what the others let through.
func (s overlayStack) key(m Model, k tea.KeyMsg) (Model, tea.Cmd) {
	for _, o := range s {
		if next, cmd, handled := o.key(m, k); handled {
			return next, cmd
		}
	}
	return m, nil
}

// keys are the keys that work now, for the help bar and the help: those
// of the top overlay that lists its own, and when it lets keys through,
// those beneath it that it does not take itself.
func (s overlayStack) keys(m Model) helpKeys {
	for i, o := range s {
		if o.keys == nil {
			continue
		}
		own := o.keys(m)
		if !o.through {
			return own
		}
		return helpKeys{own, unshadowed{s[i+1:].keys(m), own}}
	}
	return nil
}

// draw draws the overlays over body, the lowest first.
func (s overlayStack) draw(m Model, body []string) []string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].draw != nil {
			body = s[i].draw(m, body)
		}
	}
	return body
}

// tick gives a message other than a key to the top text input.
func (s overlayStack) tick(m Model, msg tea.Msg) (Model, tea.Cmd) {
	for _, o := range s {
		if o.tick != nil {
			return o.tick(m, msg)
		}
	}
	return m, nil
}

// text reports whether a text input is open: it takes keys that arrived
// together as typed text, not one by one.
func (s overlayStack) text() bool {
	for _, o := range s {
		if o.tick != nil {
			return true
		}
	}
	return false
}

// modal reports whether a dialog is open.
func (s overlayStack) modal() bool {
	for _, o := range s {
		if o.modal {
			return true
		}
	}
	return false
}

// clicksBlocked reports whether an overlay keeps mouse clicks from the
// panes.
func (s overlayStack) clicksBlocked() bool {
	for _, o := range s {
		if !o.clickThrough {
			return true
		}
	}
	return false
}

// handled wraps a handler that takes every key it is given.
func handled(m Model, cmd tea.Cmd) (Model, tea.Cmd, bool) { return m, cmd, true }

// paletteOverlay is the command palette, drawn on the message line; the
// line it submits runs.
func paletteOverlay() overlay {
	return overlay{
		name: "palette",
		open: func(m Model) bool { return m.palette.Active() },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			p, out, cmd := m.palette.Update(k)
			m.palette = p
			if out.Submit != "" {
				m.submit(out.Submit)
			}
			return m, cmd, true
		},
		keys: func(m Model) helpKeys { return helpKeys{m.palette.Keys()} },
		tick: func(m Model, msg tea.Msg) (Model, tea.Cmd) {
			var cmd tea.Cmd
			m.palette, _, cmd = m.palette.Update(msg)
			return m, cmd
		},
	}
}

// leaveOverlay is the question before leaving a lesson.
func leaveOverlay() overlay {
	return overlay{
		name: "leave",
		open: func(m Model) bool { return m.leaving },
		key:  func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) { return handled(m.leaveKey(k)) },
		keys: func(Model) helpKeys { return helpKeys{DefaultLeaveKeys()} },
		draw: func(m Model, body []string) []string {
			done, steps := 0, 0
			if l := m.guide.Lesson(); l != nil {
				done, steps = m.progress.Lesson(l.ID).Steps, len(l.Steps)
			}
			return question.Leave(m.st, m.w, body, m.opts.StateDir != "", done, steps)
		},
		modal: true,
	}
}

// pickerOverlay is a setting's picker (m, s, e, h, f): the choice is set,
// and a choice the engine refuses is explained.
func pickerOverlay() overlay {
	return overlay{
		name: "picker",
		open: func(m Model) bool { return m.picker.Active() },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			if pk := m.picker.Keys(); !key.Matches(k, pk.Up, pk.Down, pk.Cancel, pk.Choose) {
				m.dropForDialog()
				return m, nil, true
			}
			p, chosen, ok := m.picker.Update(k)
			m.picker = p
			switch {
			case ok:
				m.submit("set " + p.Key + " " + chosen.Value)
			case chosen.Refused != "":
				m.msg = message{text: p.Key + " " + chosen.Value + " cannot run with the other settings: " + chosen.Refused, isErr: true}
			}
			return m, nil, true
		},
		keys:  func(m Model) helpKeys { return helpKeys{m.picker.Keys()} },
		draw:  func(m Model, body []string) []string { return centred(m.w, body, m.picker.Lines(m.w-4)) },
		modal: true,
	}
}

// confirmOverlay asks "restart the job with this setting?".
func confirmOverlay() overlay {
	return overlay{
		name: "confirm",
		open: func(m Model) bool { return m.confirm != "" },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			yesNo := DefaultConfirmKeys()
			switch {
			case key.Matches(k, yesNo.Yes):
				if m.send(bridge.Request{Kind: bridge.Reconfigure, Line: m.confirm}) {
					m.msg = message{text: "restarting the job with " + m.confirm}
					m.restarting()
				}
				m.confirm = ""
			case key.Matches(k, yesNo.No):
				m.msg = message{text: "kept the job as it was"}
				m.confirm = ""
			default:
				m.dropForDialog()
			}
			return m, nil, true
		},
		keys: func(Model) helpKeys { return helpKeys{DefaultConfirmKeys()} },
		draw: func(m Model, body []string) []string {
			return question.Restart(m.st, m.w, body, m.frame.Snap.State, m.confirm)
		},
		modal: true,
	}
}

// targetsOverlay lists the nodes k and r act on.
func targetsOverlay() overlay {
	return overlay{
		name:  "targets",
		open:  func(m Model) bool { return m.targets.Active() },
		key:   func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) { return handled(m.targetKey(k)) },
		keys:  func(m Model) helpKeys { return helpKeys{m.targets.Keys()} },
		draw:  func(m Model, body []string) []string { return centred(m.w, body, m.targets.Lines(m.w-4)) },
		modal: true,
	}
}

// killOverlay asks "kill this node?".
func killOverlay() overlay {
	return overlay{
		name: "kill",
		open: func(m Model) bool { return m.killing != "" },
		key:  func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) { return handled(m.killKey(k)) },
		keys: func(Model) helpKeys { return helpKeys{newKillKeys()} },
		draw: func(m Model, body []string) []string {
			return question.Kill(m.st, m.w, body, m.killing, m.killing == engine.JobManager)
		},
		modal: true,
	}
}

// runsOverlay is the charts of the learner's runs (C).
func runsOverlay() overlay {
	return overlay{
		name: "runs",
		open: func(m Model) bool { return m.runs.Active() },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			m.runs = m.runs.Update(k)
			return m, nil, true
		},
		keys: func(m Model) helpKeys { return helpKeys{m.runs.Keys()} },
		draw: func(m Model, body []string) []string {
			w := min(m.w-2, 100)
			box := m.runs.Lines(w, min(len(body), 30))
			return draw.Overlay(body, box, (m.w-w)/2, 0)
		},
		clickThrough: true,
	}
}

// reportOverlay is the run's report (R).
func reportOverlay() overlay {
	return overlay{
		name: "report",
		open: func(m Model) bool { return m.report.Active() },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			m.report = m.report.Update(k)
			if !m.report.Active() {
				m.send(bridge.Request{Kind: bridge.StopReport})
			}
			return m, nil, true
		},
		keys: func(m Model) helpKeys { return helpKeys{m.report.Keys()} },
		draw: func(m Model, body []string) []string {
			box := m.report.Lines()
			return draw.Overlay(body, box, max((m.w-ansi.StringWidth(box[0]))/2, 0), 0)
		},
		clickThrough: true,
	}
}

// helpOverlay is the help (?): it lists the keys of what it covers,
// scrolls with the arrows, and q still quits. Over the home screen it lets
// the home screen's keys through.
func helpOverlay() overlay {
	return overlay{
		name: "help",
		open: func(m Model) bool { return m.help.Active() },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			switch {
			case key.Matches(k, m.keys.Help, m.keys.Back):
				m.help.Close()
			case key.Matches(k, m.keys.Quit):
				return m, tea.Quit, true
			case m.screen == ScreenHome:
				return m, nil, false
			default:
				m.help = m.help.Update(k)
			}
			return m, nil, true
		},
		draw: func(m Model, body []string) []string { return m.help.Box(m.st, m.w, body, m.activeKeys()) },
	}
}

// answerOverlay is a lesson check's answer prompt, drawn in the lesson
// pane.
func answerOverlay() overlay {
	return overlay{
		name: "answer",
		open: func(m Model) bool { return m.guide.Asking() },
		key:  func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) { return handled(m.answerKey(k)) },
		keys: func(m Model) helpKeys { return helpKeys{m.guide.AnswerKeys()} },
		tick: func(m Model, msg tea.Msg) (Model, tea.Cmd) {
			var cmd tea.Cmd
			m.guide, _, cmd = m.guide.UpdateAnswer(msg)
			return m, cmd
		},
		clickThrough: true,
	}
}

// predictOverlay is a prediction exercise's form while the learner types
// in it, drawn in the lesson pane.
func predictOverlay() overlay {
	return overlay{
		name:         "predict",
		open:         func(m Model) bool { return m.predict.Capturing() },
		key:          func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) { return handled(m.predictUpdate(k)) },
		keys:         func(m Model) helpKeys { return helpKeys{m.predict.Keys()} },
		clickThrough: true,
	}
}

// eventsScreenOverlay is the events pane over the whole screen (v): the
// lab's keys, and a lesson's, still work beneath it but for those it takes
// itself (esc, v, the scrolling keys).
func eventsScreenOverlay() overlay {
	return overlay{
		name:    "eventsScreen",
		open:    func(m Model) bool { return m.eventsScreen },
		key:     Model.eventsScreenKey,
		keys:    func(m Model) helpKeys { return helpKeys{DefaultEventsScreenKeys(), m.events.Keys()} },
		through: true,
		draw:    func(m Model, _ []string) []string { return m.events.Lines() },
	}
}

// labOverlay is the lab screen beneath every overlay: a lesson's keys
// first, then the lab's own, and last the focused pane's; it takes every
// key and draws the panes.
func labOverlay() overlay {
	return overlay{
		name: "lab",
		open: func(m Model) bool { return m.screen == ScreenLab },
		key: func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) {
			if m.guide.Active() {
				if g, cmd, ok := m.guideKey(k); ok {
					return g, cmd, true
				}
			}
			return handled(m.labKey(k))
		},
		keys:         labHelpKeys,
		draw:         func(m Model, _ []string) []string { return m.panesLines() },
		clickThrough: true,
	}
}

// labHelpKeys are the lab screen's keys when no overlay covers it: the
// lesson's and the lab's, then the focused pane's but those a lesson takes
// first (page up and down page the lesson from any pane).
func labHelpKeys(m Model) helpKeys {
	if m.guide.Active() {
		gk := m.guideKeys()
		return helpKeys{guideHelp{gk, m.keys}, unshadowed{m.focusedKeys(), gk}}
	}
	return helpKeys{m.keys, m.focusedKeys()}
}

// homeOverlay is the home screen: its lists, and ? and q.
func homeOverlay() overlay {
	return overlay{
		name:         "home",
		open:         func(m Model) bool { return m.screen == ScreenHome },
		key:          func(m Model, k tea.KeyMsg) (Model, tea.Cmd, bool) { return handled(m.homeKey(k)) },
		keys:         func(m Model) helpKeys { return helpKeys{m.home.Keys(), DefaultHomeKeys()} },
		draw:         func(m Model, _ []string) []string { return m.home.Lines() },
		clickThrough: true,
	}
}

// centred draws a list box (a picker, the node list) over the middle of
// body, on a screen w wide.
func centred(w int, body, box []string) []string {
	return draw.Overlay(body, box, (w-ansi.StringWidth(box[0]))/2, max((len(body)-len(box))/2, 0))
}
