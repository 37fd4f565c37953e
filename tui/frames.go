package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
)

// frameMsg carries one frame from the bridge.
type frameMsg bridge.Frame

// engineClosedMsg says the bridge has stopped (the program is ending).
type engineClosedMsg struct{}

// waitFrame is the command that waits for the bridge's next frame. It
// returns exactly one message and Update re-arms it after each frame, so
// frames arrive at the bridge's rate (at most 30 a second) and never pile
// up in Bubble Tea's queue.
func waitFrame(eng Engine) tea.Cmd {
	ch := eng.Frames()
	return func() tea.Msg {
		f, ok := <-ch
		if !ok {
			return engineClosedMsg{}
		}
		return frameMsg(f)
	}
}

// applyFrame hands a frame to every pane and surfaces the bridge's answers
// on the message line.
func (m *Model) applyFrame(f bridge.Frame) {
	rows, kind, stages := m.nodeRows(), m.filterKind(), len(m.frame.Snap.Stages)
	// The UI owns the speed (the bridge never changes it by itself), and
	// takes the paused state only when the bridge changed it, so a frame
	// made just before a key was handled does not undo the key.
	if f.Paused != m.frame.Paused || f.Gen != m.frame.Gen {
		m.paused = f.Paused
	}
	noteChanged := f.Note != m.frame.Note && f.Note != ""
	m.frame = f
	if m.nodeRows() != rows || m.filterKind() != kind || len(f.Snap.Stages) != stages {
		m.resize(m.w, m.h)
	}
	for _, pn := range m.panes() {
		if fp, ok := pn.(framed); ok {
			fp.SetFrame(f)
		}
	}
	m.palette.SetNodes(m.pipeline.Nodes())
	if c := f.Choices; c != nil {
		m.picker.SetVerdicts(c.Key, c.Refused, c.Notes)
	}
	if f.Finished != nil {
		m.runs.Add(f.Gen, f.Finished)
	}
	if f.Report != nil || f.ReportWhy != "" {
		m.report.SetReport(f.Report, draw.Clock(f.ClockMS), f.ReportWhy)
	}
	for _, r := range f.Results {
		switch {
		case r.Err != "":
			m.msg = message{text: r.Line + ": " + r.Err, isErr: true}
			if r.Line == "" {
				m.msg.text = r.Err
			}
		case r.Info != "" && r.Line != "" && r.Saved == "":
			m.msg = message{text: "> " + r.Line + " — " + r.Info}
		case r.Info != "":
			m.msg = message{text: r.Info}
		}
	}
	if noteChanged {
		m.msg = message{text: "! " + f.Note}
	}
	if f.Fatal != "" {
		m.msg = message{text: f.Fatal, isErr: true}
	}
}
