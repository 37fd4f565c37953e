// Package lessonpane is the lab's side pane in a lesson or an exercise: the
// lesson's text, the current step's instruction with its hints revealed
// one at a time, the steps done so far, and at the end the check with its
// answer prompt and verdict; or an exercise's task and its grade. The pane
// holds no engine state: the root model feeds it what the bridge's frames
// and the commands' answers say.
package lessonpane

import (
	"fmt"
	"maps"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/markdown"
	"github.com/streamlab/streamlab/tui/styles"
)

// Model is the lesson pane.
type Model struct {
	st      *styles.Styles
	md      *markdown.Renderer
	keys    KeyMap
	ansKeys AnswerKeyMap
	w, h    int
	focused bool
	vp      viewport.Model
	input   textinput.Model

	lesson  *lessons.Lesson
	done    int
	fresh   bool
	held    bool        // the last step done stays on until the learner goes on
	checked bool        // the check was answered right before
	hints   map[int]int // hints revealed, by step

	asking   bool
	solving  bool
	verdict  *lessons.Verdict
	notice   string // the last answer's problem, or what the pane is doing
	lastStep int    // the step the text was scrolled for

	exercise *pack.Exercise
	grading  bool
	graded   *grade.ExerciseResult

	text string // what the viewport holds, as refresh laid it out
	memo *draw.Memo[viewKey]
}

// New returns an empty pane.
func New(st *styles.Styles) Model {
	in := textinput.New()
	in.Prompt = "answer> "
	in.PromptStyle = st.Prompt
	in.CharLimit = 40
	return Model{st: st, md: markdown.ForLab(st.Theme), keys: DefaultKeyMap(), ansKeys: DefaultAnswerKeyMap(), input: in, vp: viewport.New(0, 0), memo: &draw.Memo[viewKey]{}}
}

// Keys is the pane's key map, with the keys that do nothing now disabled.
func (m Model) Keys() KeyMap {
	k := m.keys
	k.Hint.SetEnabled(m.lesson != nil && m.hintsLeft() > 0)
	k.Answer.SetEnabled(m.lesson != nil && m.Finished())
	k.Grade.SetEnabled(m.exercise != nil)
	k.Next.SetEnabled(m.lesson != nil && (!m.Finished() || m.held))
	return k
}

// AnswerKeys is the answer prompt's key map.
func (m Model) AnswerKeys() AnswerKeyMap { return m.ansKeys }

// SetSize sets the pane's outer size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.input.Width = max(w-2-len(m.input.Prompt)-1, 1)
	m.refresh()
}

// SetFocused says whether the pane has the keyboard.
func (m *Model) SetFocused(f bool) { m.focused = f }

// OpenLesson shows lesson l, done steps finished; checked says its check
// was answered right before.
func (m *Model) OpenLesson(l *lessons.Lesson, done int, checked bool) {
	*m = Model{st: m.st, md: m.md, keys: m.keys, ansKeys: m.ansKeys, w: m.w, h: m.h, focused: m.focused,
		vp: viewport.New(0, 0), input: m.input, memo: m.memo, lesson: l, done: done, checked: checked, hints: map[int]int{}, lastStep: -1}
	m.input.Reset()
	m.input.Blur()
	m.refresh()
}

// OpenExercise shows exercise ex's task.
func (m *Model) OpenExercise(ex *pack.Exercise) {
	*m = Model{st: m.st, md: m.md, keys: m.keys, ansKeys: m.ansKeys, w: m.w, h: m.h, focused: m.focused,
		vp: viewport.New(0, 0), input: m.input, memo: m.memo, exercise: ex}
	m.refresh()
}

// Close empties the pane (back to the sandbox).
func (m *Model) Close() { m.OpenExercise(nil) }

// Lesson and Exercise are what the pane shows; nil when it shows neither.
func (m Model) Lesson() *lessons.Lesson   { return m.lesson }
func (m Model) Exercise() *pack.Exercise  { return m.exercise }
func (m Model) Active() bool              { return m.lesson != nil || m.exercise != nil }
func (m Model) Asking() bool              { return m.asking }
func (m Model) Done() int                 { return m.done }
func (m Model) Verdict() *lessons.Verdict { return m.verdict }
func (m Model) Notice() string            { return m.notice }
func (m Model) Graded() *grade.ExerciseResult {
	return m.graded
}

// Finished reports whether every step of the lesson is done (the last may
// still be held on screen; the check can be answered all the same).
func (m Model) Finished() bool { return m.lesson != nil && m.done >= len(m.lesson.Steps) }

// Held reports whether the step shown is done and stays until the
// learner goes on.
func (m Model) Held() bool { return m.held }

// Step is the index of the step shown: the current one, or the one done
// that the learner has not gone on from yet.
func (m Model) Step() int {
	if m.held && m.done > 0 {
		return m.done - 1
	}
	return m.done
}

// Hints is how many hints of the step shown are revealed.
func (m Model) Hints() int { return m.hints[m.Step()] }

func (m Model) hintsLeft() int {
	if m.lesson == nil || m.Finished() {
		return 0
	}
	return len(m.lesson.Steps[m.Step()].Hints) - m.hints[m.Step()]
}

// SetProgress takes the step tracker's word: done steps, whether the
// current step starts a new session, and whether the last step done is
// held on screen until the learner goes on.
func (m *Model) SetProgress(done int, fresh, held bool) {
	if m.lesson == nil || (done == m.done && fresh == m.fresh && held == m.held) {
		return
	}
	m.done, m.fresh, m.held = max(done, 0), fresh, held && done > 0
	m.refresh()
}

// ShowCheck stops holding the last step on screen for the check, once
// every step is done.
func (m *Model) ShowCheck() {
	if m.held && m.Finished() {
		m.held = false
		m.refresh()
	}
}

// RevealHint shows the current step's next hint; it reports false when
// there is none left. The count goes into a copy of the map, not the map
// itself: earlier copies of the model share it.
func (m *Model) RevealHint() bool {
	if m.hintsLeft() <= 0 {
		return false
	}
	m.hints = maps.Clone(m.hints)
	m.hints[m.Step()]++
	m.refresh()
	m.vp.GotoTop()
	return true
}

// Ask opens the answer prompt; the pane says it is waiting for the
// engine's answer until SetSolving(false).
func (m *Model) Ask() tea.Cmd {
	if !m.Finished() {
		return nil
	}
	m.asking, m.notice = true, ""
	m.input.Reset()
	m.refresh()
	return m.input.Focus()
}

// SetSolving says whether the engine is working out the check's answer.
func (m *Model) SetSolving(s bool) {
	m.solving = s
	m.refresh()
}

// Outcome is what a key did to the answer prompt.
type Outcome struct {
	// Submit is the learner's answer, when they gave one.
	Submit string
	Closed bool
}

// UpdateAnswer gives a key to the answer prompt.
func (m Model) UpdateAnswer(msg tea.Msg) (Model, Outcome, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, m.ansKeys.Submit):
			if v := m.input.Value(); v != "" {
				return m, Outcome{Submit: v}, nil
			}
			return m, Outcome{}, nil
		case key.Matches(k, m.ansKeys.Cancel):
			m.asking = false
			m.input.Blur()
			m.refresh()
			return m, Outcome{Closed: true}, nil
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, Outcome{}, cmd
}

// SetNotice shows a line under the prompt (an answer not understood, a
// save that failed).
func (m *Model) SetNotice(s string) {
	m.notice = s
	m.refresh()
}

// SetVerdict shows the judgement of the learner's answer and closes the
// prompt.
func (m *Model) SetVerdict(v lessons.Verdict) {
	m.verdict, m.asking, m.notice = &v, false, ""
	if v.Correct {
		m.checked = true
	}
	m.input.Blur()
	m.refresh()
	m.vp.GotoTop()
}

// SetGrading says the session is being graded.
func (m *Model) SetGrading(g bool) {
	m.grading = g
	m.refresh()
}

// SetGrade shows an exercise's grade.
func (m *Model) SetGrade(r grade.ExerciseResult, err error) {
	m.grading, m.graded, m.notice = false, &r, ""
	if err != nil {
		m.graded, m.notice = nil, "could not grade: "+err.Error()
	}
	m.refresh()
	m.vp.GotoTop()
}

// Update scrolls the pane's text (keys the root gives it).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Up):
		m.vp.ScrollUp(1)
	case key.Matches(k, m.keys.Down):
		m.vp.ScrollDown(1)
	case key.Matches(k, m.keys.PageUp):
		m.vp.HalfPageUp()
	case key.Matches(k, m.keys.PageDn):
		m.vp.HalfPageDown()
	}
	return m, nil
}

// ScrollOffset is how far the text is scrolled.
func (m Model) ScrollOffset() int { return m.vp.YOffset }

// title is the pane's title, and a shorter one for a narrow pane.
func (m Model) title() (string, string) {
	switch {
	case m.lesson != nil && m.Finished() && !m.held:
		return fmt.Sprintf("Lesson %d · %s · check", m.lesson.Number, m.lesson.Title), fmt.Sprintf("Lesson %d · check", m.lesson.Number)
	case m.lesson != nil:
		done := ""
		if m.held {
			done = " ✓"
		}
		return fmt.Sprintf("Lesson %d · %s · step %d/%d%s", m.lesson.Number, m.lesson.Title, m.Step()+1, len(m.lesson.Steps), done),
			fmt.Sprintf("Lesson %d · step %d/%d%s", m.lesson.Number, m.Step()+1, len(m.lesson.Steps), done)
	case m.exercise != nil:
		return "Exercise · " + m.exercise.Title, "Exercise"
	}
	return "", ""
}
