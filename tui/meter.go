package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
)

// Meter sees a lab's work for a server that shares its CPU among many
// labs: Engine runs one piece of the engine's work (a request or a tick
// of the bridge), inside which Yield is called every few thousand steps
// of a run; Draw runs an update or a drawing of the screen; Frame is
// given the job's snapshot of every frame the screen takes.
type Meter interface {
	Engine(f func())
	Yield()
	Draw(f func())
	Frame(snap *engine.Snapshot)
}

// meterHooks are the bridge's Work and Yield hooks for m; nil without a
// meter.
func meterHooks(m Meter) (work func(func()), yield func()) {
	if m == nil {
		return nil, nil
	}
	return m.Engine, m.Yield
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

// meteredModel runs its model's Update and View inside its meter's Draw.
type meteredModel struct {
	tea.Model
	meter Meter
}

func (m meteredModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var next tea.Model
	var cmd tea.Cmd
	m.meter.Draw(func() { next, cmd = m.Model.Update(msg) })
	if f, ok := msg.(frameMsg); ok {
		m.meter.Frame(&f.Snap)
	}
	return meteredModel{next, m.meter}, cmd
}

func (m meteredModel) View() (view string) {
	m.meter.Draw(func() { view = m.Model.View() })
	return view
}
