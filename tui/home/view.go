package home

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/draw"
)

// menuW is the width of the menu column.
const menuW = 22

// Lines draws the home screen as exactly h lines of w cells.
func (m Model) Lines() []string {
	st := m.st
	var top []string
	banner := strings.Split(strings.TrimRight(m.banner, "\n"), "\n")
	bw := 0
	for _, l := range banner {
		bw = max(bw, ansi.StringWidth(l))
	}
	if bw <= m.w && m.h >= 22 {
		for _, l := range banner {
			top = append(top, center(st.Banner.Render(draw.Fit(l, bw)), m.w))
		}
	} else {
		top = append(top, center(st.Banner.Render("streamlab"), m.w))
	}
	top = append(top, center(st.Muted.Render("a terminal lab for fault tolerance in stream processing"), m.w), "")

	detailW := min(m.w-menuW-4, 76)
	frame, title := m.st.Pane, itemNames[m.cur]
	if m.inJobs {
		frame, title = m.st.FocusedPane, []string{"Sandbox · pick a job", "Lessons · pick one", "Exercises · pick one"}[m.cur]
	}
	content := m.detail(detailW - 2)
	// As tall as the longest panel (so switching items does not make the
	// screen jump), and no taller than the screen.
	bodyH := min(max(len(content), 12)+2, max(m.h-len(top), 0))
	menu := m.menu(bodyH)
	detail := draw.Box(frame, title, content, detailW, bodyH)
	pad := max((m.w-menuW-2-detailW)/2, 0)
	body := draw.Join(draw.Block(nil, pad, bodyH), draw.Block(menu, menuW+2, bodyH), detail)
	all := append(top, body...)
	above := max((m.h-len(all))/3, 0)
	return draw.Block(append(make([]string, above), all...), m.w, m.h)
}

func center(s string, w int) string {
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, s)
}

// menu is the left column.
func (m Model) menu(h int) []string {
	st := m.st
	var out []string
	for i, name := range itemNames {
		label := name
		if Item(i) == Lessons && len(m.lessons) > 0 {
			done := 0
			for _, l := range m.lessons {
				if l.Done {
					done++
				}
			}
			label += " " + st.Muted.Render(fmt.Sprintf("%d/%d", done, len(m.lessons)))
		}
		if Item(i) == m.cur {
			mark := "▸ "
			if m.inJobs {
				out = append(out, st.Accent.Render(mark)+st.Bold.Render(label), "")
				continue
			}
			out = append(out, st.Accent.Render(mark)+st.Selected.Render(name)+strings.TrimPrefix(label, name), "")
			continue
		}
		out = append(out, "  "+st.Text.Render(label), "")
	}
	return out
}

// detail is the right-hand panel for the highlighted item.
func (m Model) detail(w int) []string {
	st := m.st
	wrap := func(s string) []string { return strings.Split(ansi.Wordwrap(s, w, " "), "\n") }
	switch m.cur {
	case Sandbox:
		out := wrap("Run a job, kill its nodes, pick semantics and watch losses and duplicates appear.")
		out = append(out, "")
		for i, j := range m.jobs {
			mark, name := "  ", st.Text.Render(fmt.Sprintf("%-12s", j.Name))
			if i == m.job {
				mark = "  "
				if m.inJobs {
					mark, name = st.Accent.Render("▸ "), st.Selected.Render(fmt.Sprintf("%-12s", j.Name))
				}
			}
			out = append(out, mark+name+" "+st.Muted.Render(draw.Fit(j.Description, max(w-16, 0))))
		}
		out = append(out, "")
		if m.inJobs {
			out = append(out, st.Muted.Render("enter opens the sandbox · esc goes back"))
		} else {
			out = append(out, st.Muted.Render("enter to pick a job"))
		}
		return out
	case Lessons:
		return m.lessonList(w)
	case Exercises:
		return m.exerciseList(w)
	}
	var out []string
	keyW := 0
	for _, s := range m.settings {
		keyW = max(keyW, len(s.Key))
	}
	for _, s := range m.settings {
		out = append(out, st.Muted.Render(fmt.Sprintf("%-*s ", keyW, s.Key))+st.Bold.Render(s.Value)+" "+st.Muted.Render(s.Doc))
	}
	return append(out, "", st.Muted.Render("change them with flags, STREAMLAB_* variables or the config file"))
}

// marker is a list row's cursor: shown on the highlighted row while the
// list has the focus.
func (m Model) marker(here bool) string {
	if here && m.inJobs {
		return m.st.Accent.Render("▸ ")
	}
	return "  "
}

// lessonList is the lessons panel: each lesson with the learner's progress.
func (m Model) lessonList(w int) []string {
	st := m.st
	out := strings.Split(ansi.Wordwrap("Guided lessons: failures, recovery, high availability, output modes and filters, a step at a time.", w, " "), "\n")
	if m.warning != "" {
		out = append(out, st.Warn.Render(draw.Fit(m.warning, w)))
	}
	out = append(out, "")
	for i, l := range m.lessons {
		mark := st.Muted.Render("·")
		switch {
		case l.Done:
			mark = st.OK.Render("✓")
		case l.Status != "not started":
			mark = st.Accent.Render("•")
		}
		title := fmt.Sprintf("%d %s", l.Number, l.Title)
		titleW := max(w-20, 10)
		name := st.Text.Render(draw.Fit(title, titleW))
		if i == m.lesson && m.inJobs {
			name = st.Selected.Render(draw.Fit(title, titleW))
		}
		out = append(out, m.marker(i == m.lesson)+mark+" "+name+" "+st.Muted.Render(draw.Fit(l.Status, max(w-titleW-5, 0))))
	}
	out = append(out, "")
	if m.inJobs {
		out = append(out, st.Muted.Render("enter opens the lesson · esc goes back"))
	} else {
		out = append(out, st.Muted.Render("enter to pick a lesson"))
	}
	return out
}

// exerciseList is the exercises panel.
func (m Model) exerciseList(w int) []string {
	st := m.st
	out := strings.Split(ansi.Wordwrap("Exercises set a task; grade your session in the lab (g), or hand in a file to `streamlab grade`.", w, " "), "\n")
	out = append(out, "")
	for i, e := range m.exercises {
		name := st.Text.Render(draw.Fit(e.Title, w-2))
		if i == m.exercise && m.inJobs {
			name = st.Selected.Render(draw.Fit(e.Title, w-2))
		}
		out = append(out, m.marker(i == m.exercise)+name, "  "+st.Muted.Render(draw.Fit(e.ID+" · "+e.Topic, w-2)))
	}
	out = append(out, "")
	if m.inJobs {
		out = append(out, st.Muted.Render("enter opens the exercise · esc goes back"))
	} else {
		out = append(out, st.Muted.Render("enter to pick an exercise"))
	}
	return out
}
