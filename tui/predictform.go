package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/predict"
)

// openPrediction opens a prediction exercise's form (tui/predict): the job
// opens with the scenario described but not run, under the learner's own
// seed, so that what the lab then shows is the learner's experiment and
// not the answers to the exercise's published seed.
func (m *Model) openPrediction(ex *pack.Exercise) {
	dir := m.opts.SaveDir
	if dir == "" {
		dir = "."
	}
	m.predict = predict.New(m.st, ex, m.predictionSeed(ex), dir).WithHome(m.opts.Home)
	if m.opts.CountAttempts {
		m.predict = m.predict.WithAttempts()
	}
	m.send(bridge.Request{Kind: bridge.OpenSession, Job: ex.Job, Seed: m.predictionSeed(ex)})
	m.msg = message{text: "exercise " + ex.Title + " · type your predictions · enter on the last plays the scenario"}
}

// predictionSeed is the seed a prediction runs and is graded under: the
// learner's own, or the one Options.ExerciseSeed gives the exercise.
func (m Model) predictionSeed(ex *pack.Exercise) int64 {
	if s := m.exerciseSeed(ex.ID); s != nil {
		return *s
	}
	return m.lessonSeed()
}

// predictUpdate gives a key or an outcome to the form, and plays the
// scenario in the lab once the predictions are in.
func (m Model) predictUpdate(msg tea.Msg) (Model, tea.Cmd) {
	p, out, cmd := m.predict.Update(msg)
	m.predict = p
	if len(out.Play) > 0 {
		m.send(bridge.Request{Kind: bridge.OpenSession, Job: p.Exercise().Job, Seed: m.predictionSeed(p.Exercise()), Lines: out.Play})
		m.send(bridge.Request{Kind: bridge.Resume})
		m.paused = false
		m.msg = message{text: "the scenario plays under your seed; the observed values come beside your predictions"}
	}
	switch msg.(type) {
	case predict.ObservedMsg:
		m.msg = message{text: "observed · now say why, and enter submits"}
	case predict.GradedMsg:
		m.msg = message{text: "graded: see the points in the exercise pane"}
	}
	return m, cmd
}
