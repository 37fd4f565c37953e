package predict

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/pane/lessonpane"
	"github.com/streamlab/streamlab/tui/styles"
)

// Model is the form of one prediction exercise. The zero Model is
// inactive.
type Model struct {
	st          *styles.Styles
	ex          *pack.Exercise
	seed        int64
	dir         string
	phase       Phase
	predictions []Field
	questions   []Field
	cur         int // the field with the cursor, in the phase's list
	notice      string
	early       *grade.ExerciseResult // the predictions' grade
	final       *grade.ExerciseResult
	saved       string
	home        string // shown as ~ (WithHome)
	w, h        int
	keys        KeyMap
	// limit, above 0, is how many attempts the learner has (the
	// exercise's attempts, where the lab keeps count); attempt is this
	// one's number once recorded.
	limit, attempt int
}

// New opens the form of prediction exercise ex: the scenario is to run
// under seed (the learner's own), and the answers are saved in dir ("" does
// not save them).
func New(st *styles.Styles, ex *pack.Exercise, seed int64, dir string) Model {
	p, q := Fields(ex)
	return Model{st: st, ex: ex, seed: seed, dir: dir, predictions: p, questions: q, keys: DefaultKeys()}
}

// WithAttempts counts the learner's attempts in dir, as a lab served to
// a class does: the predictions are recorded as an attempt before the
// scenario plays (DIR/ID/attempts/N.yaml, never overwritten), and once the
// exercise's attempts are used the form refuses more. Each attempt shows
// the observed values under the learner's seed, the seed it is graded
// under, so an attempt after one is no prediction.
func (m Model) WithAttempts() Model {
	if m.ex != nil && m.dir != "" {
		m.limit = max(m.ex.Attempts, 1)
	}
	return m
}

// WithHome shows the directory home as ~ wherever the form names a path
// (draw.ShowHome).
func (m Model) WithHome(home string) Model {
	m.home = home
	return m
}

// Active reports whether a form is open.
func (m Model) Active() bool { return m.ex != nil }

// Capturing reports whether the form takes the keyboard: while the learner
// types predictions or answers questions.
func (m Model) Capturing() bool {
	return m.ex != nil && (m.phase == Predicting || m.phase == Explaining)
}

// Phase is where the learner is.
func (m Model) Phase() Phase { return m.phase }

// Exercise is the form's exercise, nil when inactive.
func (m Model) Exercise() *pack.Exercise { return m.ex }

// Predictions and Questions are the form's fields as they stand.
func (m Model) Predictions() []Field { return m.predictions }

// Questions are the multiple-choice questions as they stand.
func (m Model) Questions() []Field { return m.questions }

// Result is the final grade, once graded.
func (m Model) Result() *grade.ExerciseResult { return m.final }

// SetSize sets the pane's size, border included.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Out is what the form asks of the lab after a key.
type Out struct {
	// Play lists the scenario's lines to play in the lab, under the
	// learner's seed, once the predictions are in.
	Play []string
}

// KeyMap are the form's keys.
type KeyMap struct {
	Next, Prev, Submit, Choice, Erase key.Binding
}

// DefaultKeys are the form's keys.
func DefaultKeys() KeyMap {
	return KeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous")),
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next, or submit at the last")),
		Choice: key.NewBinding(key.WithKeys("left", "right", " "), key.WithHelp("←/→", "change a choice")),
		Erase:  key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "erase")),
	}
}

// ShortHelp is the help bar's keys.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Choice, k.Submit} }

// FullHelp is every key.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Submit, k.Choice, k.Erase}}
}

// Keys are the form's keys.
func (m Model) Keys() KeyMap { return m.keys }

// fields are the phase's editable fields.
func (m *Model) fields() []Field {
	if m.phase == Explaining {
		return m.questions
	}
	return m.predictions
}

// Update handles a key, or the outcome of observing or grading.
func (m Model) Update(msg tea.Msg) (Model, Out, tea.Cmd) {
	switch msg := msg.(type) {
	case AttemptMsg:
		return m.recorded(msg)
	case ObservedMsg:
		return m.observed(msg), Out{}, nil
	case GradedMsg:
		if m.ex == nil || msg.ID != m.ex.ID {
			return m, Out{}, nil
		}
		if msg.Err != nil {
			m.notice = "could not grade: " + msg.Err.Error()
			return m, Out{}, nil
		}
		res := msg.Grade
		m.final, m.saved, m.phase = &res, msg.Saved, Done
		return m, Out{}, nil
	case tea.KeyMsg:
		if !m.Capturing() {
			return m, Out{}, nil
		}
		return m.key(msg)
	}
	return m, Out{}, nil
}

func (m Model) key(k tea.KeyMsg) (Model, Out, tea.Cmd) {
	fs := m.fields()
	if len(fs) == 0 {
		return m.submit()
	}
	f := &fs[m.cur]
	m.notice = ""
	switch {
	case key.Matches(k, m.keys.Next):
		m.cur = (m.cur + 1) % len(fs)
	case key.Matches(k, m.keys.Prev):
		m.cur = (m.cur + len(fs) - 1) % len(fs)
	case key.Matches(k, m.keys.Submit):
		if m.cur < len(fs)-1 {
			m.cur++
			break
		}
		return m.submit()
	case len(f.Choices) > 0 && key.Matches(k, m.keys.Choice):
		i := choiceIndex(f.Choices, f.Value)
		if k.String() == "left" {
			i = (i + len(f.Choices) - 1) % len(f.Choices)
			if i < 0 {
				i = len(f.Choices) - 1
			}
		} else {
			i = (i + 1) % len(f.Choices)
		}
		f.Value = f.Choices[i]
	case key.Matches(k, m.keys.Erase):
		if len(f.Choices) > 0 {
			f.Value = ""
		} else if r := []rune(f.Value); len(r) > 0 {
			f.Value = string(r[:len(r)-1])
		}
	case k.Type == tea.KeyRunes && len(f.Choices) == 0:
		if len(f.Value) < 32 {
			f.Value += string(k.Runes)
		}
	}
	return m, Out{}, nil
}

// submit moves on: the predictions to the scenario, the questions to the
// grade.
func (m Model) submit() (Model, Out, tea.Cmd) {
	switch m.phase {
	case Predicting:
		for _, f := range m.predictions {
			if strings.TrimSpace(f.Value) == "" {
				m.notice = "predict every value first: " + f.Key + " is empty"
				return m, Out{}, nil
			}
		}
		data := AnswersYAML(m.ex, m.predictions)
		if m.limit > 0 {
			// Recorded before anything is observed; the scenario plays
			// once the attempt is (recorded).
			m.phase, m.notice = Recording, "recording your attempt…"
			f := attemptCmd(m.ex, m.dir, data, m.limit)
			return m, Out{}, func() tea.Msg { return f() }
		}
		m.phase, m.cur = Observing, 0
		f := observeCmd(m.ex, m.seed, data)
		return m, Out{Play: scenarioLines(m.ex)}, func() tea.Msg { return f() }
	case Explaining:
		for _, f := range m.questions {
			if f.Value == "" {
				m.notice = "choose an answer first: " + f.Key
				return m, Out{}, nil
			}
		}
		all := append(append([]Field{}, m.predictions...), m.questions...)
		f := gradeCmd(m.ex, m.seed, AnswersYAML(m.ex, all), m.dir)
		m.notice = "grading…"
		return m, Out{}, func() tea.Msg { return f() }
	}
	return m, Out{}, nil
}

// recorded plays the scenario once the attempt is recorded, or says that
// no attempt is left.
func (m Model) recorded(msg AttemptMsg) (Model, Out, tea.Cmd) {
	if m.ex == nil || msg.ID != m.ex.ID || m.phase != Recording {
		return m, Out{}, nil
	}
	if msg.Err != nil {
		m.notice = msg.Err.Error()
		m.phase = Done
		if !errors.Is(msg.Err, ErrNoAttempts) {
			m.phase = Predicting
		}
		return m, Out{}, nil
	}
	m.attempt, m.notice = msg.N, ""
	m.phase, m.cur = Observing, 0
	f := observeCmd(m.ex, m.seed, AnswersYAML(m.ex, m.predictions))
	return m, Out{Play: scenarioLines(m.ex)}, func() tea.Msg { return f() }
}

// observed puts the observed values beside the predictions.
func (m Model) observed(msg ObservedMsg) Model {
	if m.ex == nil || msg.ID != m.ex.ID || m.phase != Observing {
		return m
	}
	if msg.Err != nil {
		m.notice = "the scenario could not run: " + msg.Err.Error()
		m.phase = Predicting
		return m
	}
	for i := range m.predictions {
		m.predictions[i].Observed = msg.Observed[m.predictions[i].Key]
	}
	res := msg.Grade
	m.early = &res
	m.phase, m.cur = Explaining, 0
	if len(m.questions) == 0 {
		m.phase = Done
		m.final = &res
	}
	return m
}

// Lines draws the pane.
func (m Model) Lines() []string {
	if m.ex == nil {
		return nil
	}
	return draw.Box(m.st.FocusedPane, "predict · "+m.ex.ID, draw.Block(m.content(max(m.w-2, 1)), max(m.w-2, 0), max(m.h-2, 0)), m.w, m.h)
}

// content is the pane's text, w wide.
func (m Model) content(w int) []string {
	st := m.st
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	wrap := func(s string) []string { return lessonpane.Wrap(s, w) }
	add(st.Bold.Render(draw.Fit(m.ex.Title, w)))
	switch {
	case m.phase == Done && m.early == nil && m.final == nil:
		// Refused: no attempt left. The notice says why.
	case m.phase == Predicting || m.phase == Recording:
		add(wrap("The scenario has not run yet. Predict what it reports under your own seed, then it plays:")...)
		for _, l := range scenarioLines(m.ex) {
			add(st.Muted.Render(draw.Fit("  "+l, w)))
		}
		add("")
		add(m.form(m.predictions, false, w)...)
	case m.phase == Observing:
		add(wrap("The scenario is playing under your seed…")...)
		add(m.table(w)...)
	case m.phase == Explaining || m.phase == Done:
		add(wrap("What your seed's run reported, beside your predictions:")...)
		add(m.table(w)...)
		if m.early != nil {
			got, most := predictionScore(*m.early, m.predictions)
			add(st.Muted.Render(draw.Fit(fmt.Sprintf("predictions: %g of %g points", got, most), w)))
		}
		if len(m.questions) > 0 {
			add("", st.Bold.Render(draw.Fit("Why?", w)))
			add(m.form(m.questions, m.phase == Done, w)...)
		}
	}
	if m.phase == Done && m.final != nil {
		add("", st.Bold.Render(draw.Fit(fmt.Sprintf("Score %g/%g", m.final.Score, m.final.MaxScore), w)))
		for _, c := range m.final.Checks {
			mark := st.Bad.Render("✗")
			if c.Passed {
				mark = st.OK.Render("✓")
			}
			add(draw.Fit(mark+" "+c.Name, w))
		}
		if m.saved != "" {
			add(wrap("answers saved in " + draw.ShowHome(m.home, m.saved) + " (streamlab grade reads them)")...)
		}
	}
	if m.notice != "" {
		add("")
		for _, l := range wrap(draw.ShowHome(m.home, m.notice)) {
			add(st.Warn.Render(l))
		}
	}
	return out
}

// form draws fields to edit, the cursor on the current one.
func (m Model) form(fs []Field, done bool, w int) []string {
	st := m.st
	var out []string
	for i, f := range fs {
		mark := "  "
		if i == m.cur && !done && m.Capturing() {
			mark = st.Accent.Render("▸ ")
		}
		out = append(out, draw.Fit(mark+f.Label, w))
		if len(f.Choices) > 0 {
			for _, c := range f.Choices {
				dot := "( )"
				if c == f.Value {
					dot = st.Accent.Render("(•)")
				}
				out = append(out, draw.Fit("    "+dot+" "+c, w))
			}
			continue
		}
		cursor := ""
		if i == m.cur && m.Capturing() {
			cursor = st.Accent.Render("█")
		}
		out = append(out, draw.Fit(fmt.Sprintf("    %s: %s%s", f.Key, f.Value, cursor), w))
	}
	return out
}

// table draws the predictions beside the observed values.
func (m Model) table(w int) []string {
	st := m.st
	kw := len("value")
	for _, f := range m.predictions {
		kw = max(kw, len(f.Key))
	}
	out := []string{st.Muted.Render(draw.Fit(fmt.Sprintf("  %-*s  %-12s  %s", kw, "value", "predicted", "observed"), w))}
	for _, f := range m.predictions {
		obs := f.Observed
		if obs == "" {
			obs = "…"
		}
		mark := " "
		if m.early != nil {
			mark = st.Bad.Render("✗")
			if passed(*m.early, f.Key, m.ex) {
				mark = st.OK.Render("✓")
			}
		}
		out = append(out, draw.Fit(fmt.Sprintf("%s %-*s  %-12s  %s", mark, kw, f.Key, f.Value, obs), w))
	}
	return out
}

// passed reports whether the checks of answer key passed.
func passed(res grade.ExerciseResult, key string, ex *pack.Exercise) bool {
	ok := false
	for i, c := range ex.Checks {
		if c.Answer == key && i < len(res.Checks) {
			if !res.Checks[i].Passed {
				return false
			}
			ok = true
		}
	}
	return ok
}

// predictionScore is the points the predictions scored, and their most.
func predictionScore(res grade.ExerciseResult, fs []Field) (float64, float64) {
	var got, most float64
	for _, c := range res.Checks {
		for _, f := range fs {
			if c.Name == f.Label {
				got += c.Score
				most += c.Points
			}
		}
	}
	return got, most
}
