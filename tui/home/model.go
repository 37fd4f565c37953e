// Package home is the terminal lab's home screen: the banner, the sandbox
// with its job picker, the lessons and exercises (other issues; marked
// "coming soon" here), and the settings the lab runs with.
package home

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/styles"
)

// Item is one entry of the home menu.
type Item int

// The menu, top to bottom.
const (
	Sandbox Item = iota
	Lessons
	Exercises
	Settings
)

var itemNames = []string{"Sandbox", "Lessons", "Exercises", "Settings"}

// Setting is one line of the settings view.
type Setting struct{ Key, Value, Doc string }

// Job is a job the sandbox can open.
type Job struct{ Name, Description string }

// Action is what a key on the home screen asks the lab to do.
type Action struct {
	// OpenJob opens the sandbox with this job.
	OpenJob string
}

// Model is the home screen.
type Model struct {
	st       *styles.Styles
	keys     KeyMap
	w, h     int
	banner   string
	jobs     []Job
	settings []Setting
	cur      Item
	inJobs   bool // the focus is in the sandbox's job list
	job      int
}

// New builds the home screen.
func New(st *styles.Styles, banner string, jobs []Job, settings []Setting, defaultJob string) Model {
	m := Model{st: st, keys: DefaultKeyMap(), banner: banner, jobs: jobs, settings: settings}
	for i, j := range jobs {
		if j.Name == defaultJob {
			m.job = i
		}
	}
	return m
}

// Keys is the home screen's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the screen's size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Cursor is the highlighted menu item; InJobs says the job list has the
// focus, and Job which job is highlighted.
func (m Model) Cursor() Item  { return m.cur }
func (m Model) InJobs() bool  { return m.inJobs }
func (m Model) Job() string   { return m.jobs[m.job].Name }
func (m Model) AtTop() bool   { return !m.inJobs }
func (m Model) JobCount() int { return len(m.jobs) }

// Update moves through the menu and the job list.
func (m Model) Update(msg tea.Msg) (Model, Action) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, Action{}
	}
	if m.inJobs {
		switch {
		case key.Matches(k, m.keys.Up):
			m.job = (m.job + len(m.jobs) - 1) % len(m.jobs)
		case key.Matches(k, m.keys.Down):
			m.job = (m.job + 1) % len(m.jobs)
		case key.Matches(k, m.keys.Open):
			return m, Action{OpenJob: m.jobs[m.job].Name}
		case key.Matches(k, m.keys.Back):
			m.inJobs = false
		}
		return m, Action{}
	}
	switch {
	case key.Matches(k, m.keys.Up):
		m.cur = (m.cur + Item(len(itemNames)) - 1) % Item(len(itemNames))
	case key.Matches(k, m.keys.Down):
		m.cur = (m.cur + 1) % Item(len(itemNames))
	case key.Matches(k, m.keys.Open):
		if m.cur == Sandbox && len(m.jobs) > 0 {
			m.inJobs = true
		}
	}
	return m, Action{}
}
