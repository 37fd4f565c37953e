package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
)

// dialogOpen reports whether a dialog waits for an answer on the lab
// screen: a setting picker, the node list, the kill or restart question,
// or the question before leaving a lesson. A dialog is modal: it takes
// only its own keys, and the run waits while it is open.
func (m Model) dialogOpen() bool {
	return m.screen == ScreenLab && m.overlays().modal()
}

// burst reports whether k is several keys that arrived together: a line
// typed fast or sent at once, never a dialog's answer.
func burst(k tea.KeyMsg) bool {
	return k.Paste || (k.Type == tea.KeyRunes && len(k.Runes) > 1)
}

// droppedForDialog is what the message line says while a dialog refuses
// keys; it goes with the dialog.
const droppedForDialog = "a question is open: answer it first (its keys are below); what you typed went nowhere"

// dropForDialog says why a key a dialog does not take went nowhere.
func (m *Model) dropForDialog() {
	m.msg = message{text: droppedForDialog, isErr: true}
}

// holdForDialog pauses the run while a dialog is open and lets it go on
// once the dialog closes, as it was before. A played run that a restart
// replaced is not resumed: it is gone with its session. A failed job's
// clock has stopped already: there is nothing to hold.
func (m *Model) holdForDialog() {
	open := m.dialogOpen()
	switch {
	case open && !m.dialog.held && m.frame.Snap.State == engine.StateFailed:
	case open && !m.dialog.held:
		m.dialog = dialogHold{held: true, resume: !m.paused, playing: m.frame.Playing}
		if !m.paused && m.send(bridge.Request{Kind: bridge.Pause}) {
			m.paused = true
		}
	case !open && m.dialog.held:
		resume := m.dialog.resume
		m.dialog = dialogHold{}
		if m.msg.text == droppedForDialog {
			m.msg = message{}
		}
		if resume && m.screen == ScreenLab && m.send(bridge.Request{Kind: bridge.Resume}) {
			m.paused = false
		}
	}
}

// dialogHold is what an open dialog did to the run.
type dialogHold struct {
	held    bool // the dialog paused the run (or found it paused)
	resume  bool // the run was going and goes on when the dialog closes
	playing bool // a typed run was playing
}

// restarting notes that the dialog's answer restarts the job: a typed run
// that was playing is gone with its session, so it is not resumed.
func (m *Model) restarting() {
	if m.dialog.playing {
		m.dialog.resume = false
	}
}

// DefaultLeaveKeys is the leave question's key map: esc, pressed once too
// often, stays.
func DefaultLeaveKeys() ConfirmKeys {
	return yesNoKeys("leave for the home screen", "n/esc", "stay in the lesson")
}

// askLeave opens the question before leaving a lesson for the home screen.
func (m *Model) askLeave() { m.leaving = true }

// leaveKey answers the leave question.
func (m Model) leaveKey(k tea.KeyMsg) (Model, tea.Cmd) {
	keys := DefaultLeaveKeys()
	switch {
	case key.Matches(k, keys.Yes):
		m.leaving = false
		m.dialog.resume = false // the lab stays paused behind the home screen
		m.goHome()
	case key.Matches(k, keys.No):
		m.leaving = false
		m.msg = message{text: "still in the lesson"}
	default:
		m.dropForDialog()
	}
	return m, nil
}

// goHome pauses the lab and shows the home screen.
func (m *Model) goHome() {
	m.send(bridge.Request{Kind: bridge.Pause})
	m.screen, m.paused = ScreenHome, true
	m.home.SetLessons(m.homeLessons(), m.opts.ProgressWarning)
}
