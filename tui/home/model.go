// Package home is the terminal lab's home screen: the banner, the sandbox
// with its job picker, the lessons with the learner's progress, the
// exercises, and the settings the lab runs with.
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

// Lesson is a lesson as the home screen lists it.
type Lesson struct {
	ID     string
	Number int
	Title  string
	// Status is the learner's progress in words ("not started", "step 2
	// of 4", "done"); Done marks a finished lesson.
	Status string
	Done   bool
}

// Exercise is an exercise as the home screen lists it.
type Exercise struct{ ID, Title, Topic string }

// Action is what a key on the home screen asks the lab to do.
type Action struct {
	// OpenJob opens the sandbox with this job.
	OpenJob string
	// OpenLesson and OpenExercise open a lesson or an exercise by ID.
	OpenLesson   string
	OpenExercise string
}

// Model is the home screen.
type Model struct {
	st        *styles.Styles
	keys      KeyMap
	w, h      int
	banner    string
	jobs      []Job
	settings  []Setting
	lessons   []Lesson
	exercises []Exercise
	warning   string // about the progress file, shown with the lessons
	cur       Item
	inJobs    bool // the focus is in the highlighted item's list
	job       int
	lesson    int
	exercise  int
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

// SetLessons sets the lessons and their progress; warning, when not
// empty, is shown above them (a damaged progress file set aside).
func (m *Model) SetLessons(ls []Lesson, warning string) {
	m.lessons, m.warning = ls, warning
	if len(ls) > 0 {
		m.lesson = min(m.lesson, len(ls)-1)
	}
}

// SetExercises sets the exercises.
func (m *Model) SetExercises(ex []Exercise) { m.exercises = ex }

// Keys is the home screen's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the screen's size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Cursor is the highlighted menu item; InJobs says its list (the jobs,
// the lessons or the exercises) has the focus, and Job which job is
// highlighted.
func (m Model) Cursor() Item  { return m.cur }
func (m Model) InJobs() bool  { return m.inJobs }
func (m Model) Job() string   { return m.jobs[m.job].Name }
func (m Model) AtTop() bool   { return !m.inJobs }
func (m Model) JobCount() int { return len(m.jobs) }

// Lesson and Exercise are the highlighted lesson's and exercise's index.
func (m Model) Lesson() int   { return m.lesson }
func (m Model) Exercise() int { return m.exercise }

// list is the highlighted item's list: its cursor and length.
func (m *Model) list() (*int, int) {
	switch m.cur {
	case Lessons:
		return &m.lesson, len(m.lessons)
	case Exercises:
		return &m.exercise, len(m.exercises)
	}
	return &m.job, len(m.jobs)
}

// Update moves through the menu and the lists.
func (m Model) Update(msg tea.Msg) (Model, Action) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, Action{}
	}
	if m.inJobs {
		i, n := m.list()
		switch {
		case key.Matches(k, m.keys.Up):
			*i = (*i + n - 1) % n
		case key.Matches(k, m.keys.Down):
			*i = (*i + 1) % n
		case key.Matches(k, m.keys.Open):
			switch m.cur {
			case Lessons:
				return m, Action{OpenLesson: m.lessons[m.lesson].ID}
			case Exercises:
				return m, Action{OpenExercise: m.exercises[m.exercise].ID}
			}
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
		if _, n := m.list(); m.cur != Settings && n > 0 {
			m.inJobs = true
		}
	}
	return m, Action{}
}
