package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/pane/events"
	"github.com/streamlab/streamlab/tui/pane/filterpane"
	"github.com/streamlab/streamlab/tui/pane/ledger"
	"github.com/streamlab/streamlab/tui/pane/lessonpane"
	"github.com/streamlab/streamlab/tui/pane/output"
	"github.com/streamlab/streamlab/tui/pane/pipeline"
)

// pane is one of the lab's panes as the root model drives it, so that the
// root goes over its panes instead of switching on each: the layout sizes
// it once per size change, the focus is set on it, it takes the keys while
// it has the focus, and its keys are in the help.
type pane interface {
	SetSize(w, h int)
	SetFocused(bool)
	Lines() []string
	// handle takes a key while the pane has the focus.
	handle(tea.KeyMsg) tea.Cmd
	// keyMap is the pane's keys, for the help bar.
	keyMap() help.KeyMap
}

// framed is a pane that shows the engine's frames.
type framed interface {
	SetFrame(bridge.Frame)
}

// panes are the lab's panes in focus order, bound to m: what they do
// changes m.
func (m *Model) panes() [paneCount]pane {
	return [paneCount]pane{
		PanePipeline: pipelinePane{&m.pipeline},
		PaneOutput:   outputPane{&m.output, m},
		PaneLedger:   ledgerPane{&m.ledger},
		PaneFilter:   filterPane{&m.filter, m},
		PaneEvents:   eventsPane{&m.events},
		PaneLesson:   lessonPane{&m.guide},
	}
}

// pipelinePane is the job's nodes.
type pipelinePane struct{ *pipeline.Model }

func (p pipelinePane) handle(k tea.KeyMsg) (cmd tea.Cmd) {
	*p.Model, cmd = p.Update(k)
	return cmd
}

func (p pipelinePane) keyMap() help.KeyMap { return p.Keys() }

// outputPane is the sink's rows; its why key asks the engine about the
// marked row.
type outputPane struct {
	*output.Model
	root *Model
}

func (p outputPane) handle(k tea.KeyMsg) (cmd tea.Cmd) {
	if key.Matches(k, p.Keys().Why) {
		if row, ok := p.Marked(); ok {
			p.root.submit("why " + row)
		}
		return nil
	}
	*p.Model, cmd = p.Update(k)
	return cmd
}

func (p outputPane) keyMap() help.KeyMap { return p.Keys() }

// ledgerPane is the ledger's numbers.
type ledgerPane struct{ *ledger.Model }

func (p ledgerPane) handle(k tea.KeyMsg) (cmd tea.Cmd) {
	*p.Model, cmd = p.Update(k)
	return cmd
}

func (p ledgerPane) keyMap() help.KeyMap { return p.Keys() }

// filterPane is the membership filter; its probe asks the engine.
type filterPane struct {
	*filterpane.Model
	root *Model
}

func (p filterPane) handle(k tea.KeyMsg) tea.Cmd {
	var act filterpane.Action
	*p.Model, act = p.Update(k)
	switch {
	case act.Probe:
		p.root.send(bridge.Request{Kind: bridge.Probe, ID: act.ID})
	case act.Stop:
		p.root.send(bridge.Request{Kind: bridge.StopProbe})
	}
	return nil
}

func (p filterPane) keyMap() help.KeyMap { return p.Keys() }

// eventsPane is the engine's events.
type eventsPane struct{ *events.Model }

func (p eventsPane) handle(k tea.KeyMsg) (cmd tea.Cmd) {
	*p.Model, cmd = p.Update(k)
	return cmd
}

func (p eventsPane) keyMap() help.KeyMap { return p.Keys() }

// lessonPane is the lesson's or exercise's text; its global keys are in
// the help bar already (guideHelp), so it lists none of its own.
type lessonPane struct{ *lessonpane.Model }

func (p lessonPane) handle(k tea.KeyMsg) (cmd tea.Cmd) {
	*p.Model, cmd = p.Update(k)
	return cmd
}

func (p lessonPane) keyMap() help.KeyMap { return helpKeys{} }
