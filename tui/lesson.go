package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/home"
	"github.com/streamlab/streamlab/tui/pane/lessonpane"
	"github.com/streamlab/streamlab/tui/predict"
)

// solveTimeout bounds the engine's work on a check's answer or a grade.
const solveTimeout = time.Minute

// solvedMsg carries the engine's answer to a lesson's check.
type solvedMsg struct {
	id  string
	ans *lessons.Answer
	err error
}

// gradedMsg carries an exercise's grade.
type gradedMsg struct {
	id  string
	res grade.ExerciseResult
	err error
}

// savedMsg says how saving the progress went.
type savedMsg struct{ err error }

// solveCmd works out a check's answer under seed, off the Update loop.
func solveCmd(l *lessons.Lesson, seed int64) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), solveTimeout)
		defer cancel()
		ans, err := l.Solve(ctx, seed)
		return solvedMsg{id: l.ID, ans: ans, err: err}
	}
}

// saveCmd saves a copy of the progress.
func saveCmd(store lessons.Store, p lessons.Progress) tea.Cmd {
	return func() tea.Msg { return savedMsg{err: store.Save(&p)} }
}

// gradeCmd grades a recorded session as an exercise's answer, under seed
// when it is not nil, and hands the answer to keep when it is not nil.
func gradeCmd(id string, script []string, seed *int64, keep func(string, []byte)) tea.Cmd {
	return func() tea.Msg {
		ex, err := exercises.Lookup(id)
		if err != nil {
			return gradedMsg{id: id, err: err}
		}
		ctx, cancel := context.WithTimeout(context.Background(), solveTimeout)
		defer cancel()
		b := strings.Join(answerLines(ex, script), "\n") + "\n"
		if keep != nil {
			keep(id, []byte(b))
		}
		res, err := exercises.Grade(ctx, ex, ex.Answer, []byte(b), seed)
		return gradedMsg{id: id, res: res, err: err}
	}
}

// answerLines is the part of a recorded session that answers ex: for a
// configuration exercise its set lines (the grader runs the scenario
// itself), for the others every line. The seed is the exercise's, never the
// session's.
func answerLines(ex *pack.Exercise, script []string) []string {
	var out []string
	for _, line := range script {
		switch {
		case strings.HasPrefix(line, "set seed "):
		case ex.Kind == pack.KindConfiguration && !strings.HasPrefix(line, "set "):
		default:
			out = append(out, line)
		}
	}
	return out
}

// cloneProgress copies p deeply, for a command to save.
func cloneProgress(p *lessons.Progress) lessons.Progress {
	return p.Clone() // unknown fields included
}

// save returns the command that saves the progress, or nil without a
// place to keep it.
func (m Model) save() tea.Cmd {
	if m.opts.StateDir == "" {
		return nil
	}
	return saveCmd(lessons.Store{Dir: m.opts.StateDir}, cloneProgress(m.progress))
}

// exerciseSeed is the seed exercise id runs and is graded under when it is
// not the exercise's own (Options.ExerciseSeed); nil otherwise.
func (m Model) exerciseSeed(id string) *int64 {
	if m.opts.ExerciseSeed == nil {
		return nil
	}
	s := m.opts.ExerciseSeed(id)
	return &s
}

// lessonSeed is the seed lessons run under: the learner's own.
func (m Model) lessonSeed() int64 {
	if m.progress.Seed != 0 {
		return m.progress.Seed
	}
	return m.opts.Seed
}

// homeLessons lists the lessons with the learner's progress.
func (m Model) homeLessons() []home.Lesson {
	var out []home.Lesson
	for _, l := range m.catalog {
		out = append(out, home.Lesson{ID: l.ID, Number: l.Number, Title: l.Title, Status: m.progress.Status(l), Done: m.progress.Done(l)})
	}
	return out
}

// homeExercises lists the built-in exercises.
func homeExercises() []home.Exercise {
	var out []home.Exercise
	for _, e := range exercises.List() {
		out = append(out, home.Exercise{ID: e.ID, Title: e.Title, Topic: e.Topic})
	}
	return out
}

// workspace is where a lesson's files are written; "" without a state
// directory (the session then resolves files in the current directory).
func (m Model) workspace(l *lessons.Lesson) string {
	if m.opts.StateDir == "" {
		return ""
	}
	return lessons.Store{Dir: m.opts.StateDir}.Workspace(l)
}

// openLesson opens lesson id on the lab screen, in a fresh session that
// follows its steps.
func (m *Model) openLesson(id string) {
	l, err := lessons.Find(id)
	if err != nil {
		m.msg = message{text: err.Error(), isErr: true}
		return
	}
	lp := m.progress.Lesson(l.ID)
	start := bridge.ResumeAt(l, lp.Steps)
	m.send(bridge.Request{Kind: bridge.OpenSession, Lesson: l, Done: lp.Steps, Seed: m.lessonSeed(), Workspace: m.workspace(l)})
	m.events.Clear()
	m.guide.OpenLesson(l, start, lp.Checked)
	m.answer, m.pending = nil, ""
	m.screen, m.paused = ScreenLab, true
	m.keys.HA.SetEnabled(false) // h is the hint key here
	m.msg = message{text: fmt.Sprintf("lesson %d: follow the steps on the right · : types a line · h a hint", l.Number)}
	m.resize(m.w, m.h)
	m.setFocus(PanePipeline)
}

// openExercise opens exercise id on the lab screen with its scenario.
func (m *Model) openExercise(id string) {
	ex, err := exercises.Lookup(id)
	if err != nil {
		m.msg = message{text: err.Error(), isErr: true}
		return
	}
	// A configuration is settled before the scenario runs: the learner's
	// set lines come first, and the grader plays the scenario after them.
	var lines []string
	msg := "exercise " + ex.Title + " · g grades your session, ? shows every key"
	m.predict = predict.Model{}
	switch ex.Kind {
	case pack.KindConfiguration:
		msg = "exercise " + ex.Title + " · type your set lines with : · g grades them (the grader runs the scenario)"
	case pack.KindPrediction:
		m.openPrediction(ex)
	default:
		lines = strings.Split(ex.ScenarioText, "\n")
	}
	if ex.Kind != pack.KindPrediction {
		seed := ex.Seed
		if s := m.exerciseSeed(ex.ID); s != nil {
			seed = *s
		}
		m.send(bridge.Request{Kind: bridge.OpenSession, Job: ex.Job, Seed: seed, Lines: lines})
	}
	m.events.Clear()
	m.guide.OpenExercise(ex)
	m.screen, m.paused = ScreenLab, true
	m.keys.HA.SetEnabled(true)
	if !m.predict.Active() {
		m.msg = message{text: msg}
	}
	m.resize(m.w, m.h)
	m.setFocus(PanePipeline)
}

// closeGuide leaves a lesson or an exercise (for the sandbox).
func (m *Model) closeGuide() {
	m.guide.Close()
	m.predict = predict.Model{}
	m.keys.HA.SetEnabled(true)
	m.resize(m.w, m.h)
}

// applyLesson takes the tracker's progress from a frame; it returns the
// command that saves the progress when steps were newly done.
func (m *Model) applyLesson(f bridge.Frame) tea.Cmd {
	l := m.guide.Lesson()
	if f.Lesson == nil || l == nil || f.Lesson.ID != l.ID {
		return nil
	}
	m.guide.SetProgress(f.Lesson.Done, f.Lesson.Fresh, f.Lesson.Held)
	lp := m.progress.Lesson(l.ID)
	if f.Lesson.Done <= lp.Steps {
		return nil
	}
	m.progress.StepsDone(l.ID, f.Lesson.Done)
	text := "every step done · n shows the check, a answers it"
	if !f.Lesson.Finished {
		text = "step done · n goes on to the next: " + l.Steps[f.Lesson.Done].Title
	}
	if f.Finished != nil && m.msg.text != "" && !m.msg.isErr {
		text = m.msg.text + " · " + text // the run that ended, which judged the step
	}
	m.msg = message{text: text}
	m.home.SetLessons(m.homeLessons(), m.opts.ProgressWarning)
	return m.save()
}

// guideKeys are the lesson pane's keys as they work now: the filter pane,
// focused, keeps its own n (probe a new id), and the arrows scroll the
// lesson only while its pane has the focus (elsewhere they are the focused
// pane's).
func (m Model) guideKeys() lessonpane.KeyMap {
	gk := m.guide.Keys()
	if m.focus == PaneFilter {
		gk.Next.SetEnabled(false)
	}
	if m.focus != PaneLesson {
		gk.Up.SetEnabled(false)
		gk.Down.SetEnabled(false)
	}
	return gk
}

// guideKey handles the lesson pane's global keys; ok is false when k is
// not one of them.
func (m Model) guideKey(k tea.KeyMsg) (Model, tea.Cmd, bool) {
	gk := m.guideKeys()
	switch {
	case keyMatches(k, gk.Hint):
		if m.guide.RevealHint() {
			m.msg = message{text: "hint revealed in the lesson pane"}
		}
		return m, nil, true
	case keyMatches(k, gk.Next):
		m.send(bridge.Request{Kind: bridge.GoOn})
		return m, nil, true
	case keyMatches(k, gk.Answer):
		if m.guide.Held() {
			m.send(bridge.Request{Kind: bridge.GoOn}) // from the last step to the check
			m.guide.ShowCheck()
		}
		l := m.guide.Lesson()
		cmds := []tea.Cmd{m.guide.Ask()}
		if m.answer == nil && !m.solving {
			m.solving = true
			cmds = append(cmds, solveCmd(l, m.lessonSeed()))
		}
		return m, tea.Batch(cmds...), true
	case keyMatches(k, gk.Grade) && m.predict.Active():
		m.msg = message{text: "a prediction is answered in its form, not graded as a session"}
		return m, nil, true
	case keyMatches(k, gk.Grade):
		m.guide.SetGrading(true)
		m.msg = message{text: "grading your session…"}
		ex := m.guide.Exercise()
		return m, gradeCmd(ex.ID, m.frame.Script, m.exerciseSeed(ex.ID), m.opts.Graded), true
	case keyMatches(k, gk.PageUp, gk.PageDn):
		var cmd tea.Cmd
		m.guide, cmd = m.guide.Update(k)
		return m, cmd, true
	}
	return m, nil, false
}

// answerKey gives a key to the check's answer prompt.
func (m Model) answerKey(k tea.KeyMsg) (Model, tea.Cmd) {
	g, out, cmd := m.guide.UpdateAnswer(k)
	m.guide = g
	if out.Submit == "" {
		return m, cmd
	}
	if m.answer == nil {
		m.pending = out.Submit
		m.guide.SetSolving(true)
		return m, cmd
	}
	return m, tea.Batch(cmd, m.judge(out.Submit))
}

// judge judges an answer and, when it is right, saves the progress.
func (m *Model) judge(input string) tea.Cmd {
	m.pending = ""
	v, err := m.answer.Judge(input)
	if err != nil {
		if errors.Is(err, lessons.ErrNotUnderstood) {
			m.guide.SetNotice("not understood: " + err.Error())
		} else {
			m.guide.SetNotice(err.Error())
		}
		return nil
	}
	m.guide.SetVerdict(v)
	if !v.Correct {
		m.msg = message{text: "not quite; the lesson pane says why"}
		return nil
	}
	m.msg = message{text: "right! lesson done"}
	m.progress.CheckPassed(m.guide.Lesson().ID)
	m.home.SetLessons(m.homeLessons(), m.opts.ProgressWarning)
	return m.save()
}

// solved takes the engine's answer to the check.
func (m Model) solved(msg solvedMsg) (Model, tea.Cmd) {
	if l := m.guide.Lesson(); l == nil || l.ID != msg.id {
		return m, nil
	}
	m.solving = false
	m.guide.SetSolving(false)
	if msg.err != nil {
		m.guide.SetNotice("could not work out the answer: " + msg.err.Error())
		return m, nil
	}
	m.answer = msg.ans
	if m.pending != "" {
		return m, m.judge(m.pending)
	}
	return m, nil
}

// graded shows an exercise's grade.
func (m Model) graded(msg gradedMsg) Model {
	if ex := m.guide.Exercise(); ex == nil || ex.ID != msg.id {
		return m
	}
	m.guide.SetGrade(msg.res, msg.err)
	if msg.err == nil {
		m.msg = message{text: "graded: see the points in the exercise pane"}
	}
	return m
}

func keyMatches(k tea.KeyMsg, b ...key.Binding) bool { return key.Matches(k, b...) }
