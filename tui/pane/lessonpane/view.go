package lessonpane

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/tui/draw"
)

// nbHyphen stands in for a hyphen while wrapping.
const nbHyphen = "\u2011"

// promptLines is what the answer prompt takes below the text.
const promptLines = 2

// refresh lays the pane's text out for its width into the viewport. It
// runs when the content or the size changes, not on every frame.
func (m *Model) refresh() {
	w, h := max(m.w-2, 1), max(m.h-2, 0)
	if m.asking {
		h = max(h-promptLines, 0)
	}
	m.vp.Width, m.vp.Height = w, h
	m.text = strings.Join(m.content(w), "\n")
	m.vp.SetContent(m.text)
	if m.lesson != nil && m.Step() != m.lastStep {
		m.lastStep = m.Step()
		m.vp.GotoTop()
	}
}

// viewKey is everything Lines draws from: while a run plays none of it
// changes, and the pane is drawn once.
type viewKey struct {
	w, h, offset  int
	focused       bool
	text          string
	title, short  string
	asking        bool
	input, notice string
}

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	k := viewKey{w: m.w, h: m.h, offset: m.vp.YOffset, focused: m.focused, text: m.text}
	k.title, k.short = m.title()
	if m.asking {
		k.asking, k.input, k.notice = true, m.input.View(), m.notice
	}
	return m.memo.Lines(k, func() []string { return m.draw(k) })
}

// draw draws the pane: the text in view, the answer prompt while it is
// open, in a frame whose title says how much text is below.
func (m Model) draw(k viewKey) []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	body := strings.Split(m.vp.View(), "\n")
	body = draw.Block(body, m.w-2, m.vp.Height)
	if m.asking {
		notice := m.st.Muted.Render("enter submits · esc puts it aside")
		if m.notice != "" {
			notice = m.st.Bad.Render(m.notice)
		}
		body = append(body, draw.Fit(k.input, m.w-2), draw.Fit(notice, m.w-2))
	}
	title := k.title
	more := ""
	if n := m.vp.TotalLineCount() - m.vp.YOffset - m.vp.Height; n > 0 {
		more = fmt.Sprintf(" · ↓%d", n)
	}
	if ansi.StringWidth(title+more) > m.w-6 {
		title = k.short
	}
	title += more
	return draw.Box(frame, title, body, m.w, m.h)
}

// Text is the pane's whole text as laid out now, scrolled or not.
func (m Model) Text() string { return strings.Join(m.content(max(m.w-2, 1)), "\n") }

// content is the pane's whole text, wrapped to w.
func (m Model) content(w int) []string {
	if m.exercise != nil {
		return m.exerciseContent(w)
	}
	if m.lesson == nil {
		return nil
	}
	st, l := m.st, m.lesson
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	if i, step := m.Step(), m.Step() < len(l.Steps); step {
		s := l.Steps[i]
		add(paint(st.Bold, Wrap(fmt.Sprintf("Step %d of %d · %s", i+1, len(l.Steps), s.Title), w))...)
		if m.held {
			next := fmt.Sprintf("step %d", i+2)
			if i+1 == len(l.Steps) {
				next = "the check"
			}
			add(paint(st.OK, Wrap("✓ done · n goes on to "+next+"; until then what you run, a new session too, stays in this step.", w))...)
		}
		if m.fresh {
			add(paint(st.Warn, Wrap("This step starts a new session: its first job or set line opens one.", w))...)
		}
		add(m.md.Lines(s.Instruction, w)...)
		for j := range m.hints[i] {
			add(m.hint(j+1, s.Hints[j], w)...)
		}
		switch left := len(s.Hints) - m.hints[i]; {
		case left > 0:
			add(st.Muted.Render(fmt.Sprintf("stuck? h shows a hint (%d left)", left)))
		case len(s.Hints) > 0:
			add(st.Muted.Render("no more hints for this step"))
		}
		add("", st.Muted.Render(draw.Fit(": types a line (the palette)", w)))
	} else {
		add(m.checkContent(w)...)
	}
	add("", st.Bold.Render("Steps"))
	for i, s := range l.Steps {
		mark := st.Muted.Render("·")
		switch {
		case i < m.done:
			mark = st.OK.Render("✓")
		case i == m.done && !m.held:
			mark = st.Accent.Render("▸")
		}
		add(draw.Fit(fmt.Sprintf("%s %d %s", mark, i+1, s.Title), w))
	}
	mark := st.Muted.Render("·")
	if m.checked {
		mark = st.OK.Render("✓")
	}
	add(mark + " the check")
	add("", st.Bold.Render(l.Title))
	add(m.md.Lines(l.Text, w)...)
	return out
}

// checkContent is the check: the question, the prompt's state, the
// verdict and, once answered, the real world.
func (m Model) checkContent(w int) []string {
	st, c := m.st, m.lesson.Check
	out := []string{st.OK.Render("✓ every step done"), "", st.Bold.Render("The check")}
	out = append(out, m.md.Lines(c.Question, w)...)
	for i, o := range c.Options {
		out = append(out, hang(fmt.Sprintf("%c) ", 'a'+i), m.md.Lines(o, w-3))...)
	}
	if c.Unit != "" && len(c.Options) == 0 {
		out = append(out, st.Muted.Render("answer in "+c.Unit))
	}
	switch {
	case m.solving && m.asking:
		out = append(out, st.Muted.Render("working out the answer under your seed…"))
	case m.verdict != nil && m.verdict.Correct:
		out = append(out, "", st.OK.Render("✓ right: "+m.verdict.Want))
	case m.verdict != nil:
		out = append(out, "", st.Bad.Render("✗ not quite: the answer is "+m.verdict.Want))
	}
	if m.verdict != nil {
		out = append(out, m.md.Lines(m.verdict.Explanation, w)...)
	}
	if !m.asking {
		if m.verdict != nil && !m.verdict.Correct {
			out = append(out, "", st.Muted.Render("a answers again"))
		} else if m.verdict == nil {
			out = append(out, "", st.Accent.Render("press a to answer"))
		}
	}
	if m.verdict != nil || m.checked {
		out = append(out, "", st.Bold.Render("In the real world"))
		out = append(out, m.md.Lines(m.lesson.RealWorld, w)...)
	}
	return out
}

// exerciseContent is the task and, once graded, the points per check.
func (m Model) exerciseContent(w int) []string {
	st, ex := m.st, m.exercise
	var out []string
	switch {
	case m.grading:
		out = append(out, st.Muted.Render("grading your session…"), "")
	case m.graded != nil:
		g := m.graded
		head := fmt.Sprintf("Grade: %g of %g points", g.Score, g.MaxScore)
		if g.Passed {
			out = append(out, st.OK.Render("✓ "+head))
		} else {
			out = append(out, st.Warn.Render(head))
		}
		if g.Error != "" {
			out = append(out, paint(st.Bad, Wrap(g.Error, w))...)
		}
		for _, c := range g.Checks {
			mark := st.Bad.Render("✗")
			if c.Passed {
				mark = st.OK.Render("✓")
			}
			out = append(out, draw.Fit(fmt.Sprintf("%s %g/%g %s", mark, c.Score, c.Points, c.Name), w))
			if !c.Passed && c.Message != "" {
				out = append(out, paint(st.Muted, Wrap("  "+c.Message, w))...)
			}
		}
		out = append(out, "")
	case m.notice != "":
		out = append(out, paint(st.Bad, Wrap(m.notice, w))...)
	}
	how := "g grades this session as a recording: the lines you ran, replayed by the grader."
	if ex.Kind == pack.KindConfiguration {
		how = "g grades the set lines you typed: the grader applies them, then runs the exercise's scenario."
	}
	out = append(out, paint(st.Muted, Wrap(how, w))...)
	return append(append(out, ""), m.md.Lines(ex.Task, w)...)
}

// hint is hint n of a step, its label in the warning style.
func (m Model) hint(n int, text string, w int) []string {
	label := fmt.Sprintf("Hint %d:", n)
	lines := slices.Clone(m.md.Lines(label+" "+text, w))
	if len(lines) > 0 && strings.HasPrefix(lines[0], label) {
		lines[0] = m.st.Warn.Render(label) + strings.TrimPrefix(lines[0], label)
	}
	return lines
}

// hang puts head before the first of lines and as many spaces before the
// others.
func hang(head string, lines []string) []string {
	out := make([]string, len(lines))
	pad := strings.Repeat(" ", ansi.StringWidth(head))
	for i, l := range lines {
		if i == 0 {
			out[i] = head + l
		} else {
			out[i] = pad + l
		}
	}
	return out
}

// Wrap word-wraps s to w cells.
func Wrap(s string, w int) []string {
	// Hyphens are not places to break: at-least-once stays whole.
	w = max(w, 1)
	s = strings.ReplaceAll(s, "-", nbHyphen)
	s = ansi.Hardwrap(ansi.Wordwrap(s, w, ""), w, true)
	return strings.Split(strings.ReplaceAll(s, nbHyphen, "-"), "\n")
}

// paint styles each line on its own (Render would join them).
func paint(s lipgloss.Style, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = s.Render(l)
	}
	return out
}
