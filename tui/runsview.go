package tui

import "github.com/streamlab/streamlab/tui/runs"

// runsView is the chart of the learner's runs that C opens on: lesson 6's
// (replay against checkpoint interval) in lesson 6, lesson 7's (recovery
// time against overhead) in lesson 7, elsewhere the one with more runs
// (-1).
func (m Model) runsView() int {
	if l := m.frame.Lesson; l != nil {
		switch l.ID {
		case "precise":
			return runs.ViewInterval
		case "high-availability":
			return runs.ViewHA
		}
	}
	return -1
}

// Runs are the learner's finished runs, oldest first, as the charts of
// runs draw them.
func (m Model) Runs() []runs.Run { return m.runs.Runs() }

// PlainTerminal reports whether this process's terminal gets the plain
// layout (TERM=dumb, or a locale that is not UTF-8): `streamlab run
// --charts` then prints its charts in ASCII too.
func PlainTerminal() bool { return isPlain() }
