package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
)

// Meter sees a lab's work for a server that shares its CPU among many
// labs: Work runs one piece of the lab's work (a request or a tick of the
// engine, an update or a drawing of the screen), and Frame is given the
// job's snapshot of every frame the screen takes.
type Meter interface {
	Work(f func())
	Frame(snap *engine.Snapshot)
}

// meterWork is the bridge's Work hook for m; nil without a meter.
func meterWork(m Meter) func(func()) {
	if m == nil {
		return nil
	}
	return m.Work
}

// withMeter wraps the program's model so that m sees its updates and
// drawings; without a meter it returns model itself.
func withMeter(model tea.Model, m Meter) tea.Model {
	if m == nil {
		return model
	}
	return meteredModel{model, m}
}

// fromMeter undoes withMeter on the program's final model.
func fromMeter(m tea.Model) tea.Model {
	if mm, ok := m.(meteredModel); ok {
		return mm.Model
	}
	return m
}

// meteredModel runs its model's Update and View inside its meter's Work.
type meteredModel struct {
	tea.Model
	meter Meter
}

func (m meteredModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var next tea.Model
	var cmd tea.Cmd
	m.meter.Work(func() { next, cmd = m.Model.Update(msg) })
	if f, ok := msg.(frameMsg); ok {
		m.meter.Frame(&f.Snap)
	}
	return meteredModel{next, m.meter}, cmd
}

func (m meteredModel) View() (view string) {
	m.meter.Work(func() { view = m.Model.View() })
	return view
}
