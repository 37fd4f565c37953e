package watch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/classroom"
)

func TestView(t *testing.T) {
	reads := 0
	src := func(context.Context) Snapshot {
		reads++
		return Snapshot{
			Class: &classroom.Class{Lessons: 10, Students: []classroom.StudentSummary{
				{ID: "a", Name: "alice", LessonsDone: 3, Lesson: "rollback", LessonTitle: "4 Rollback recovery", Step: "step 2 of 4",
					Grades: []classroom.Grade{{Exercise: "x", Answered: true, Passed: true, Score: 3, MaxScore: 3}}, Score: 3, MaxScore: 3},
				{ID: "b", Name: "bob\x1b[2J", Step: "done"},
			}},
			Online: map[string]bool{"a": true},
			Log:    []string{"login alice"},
		}
	}
	var m tea.Model = New("127.0.0.1:2222", src)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	msg := m.Init()()
	m, cmd := m.Update(msg)
	if cmd == nil || reads != 1 {
		t.Fatalf("no tick after a snapshot (reads %d)", reads)
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"1 online · 2 students", "●  alice", "3/10", "4 Rollback recovery · step 2 of 4", "1/1 passed", "3/3", "login alice", "all done"} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(m.View(), "\x1b[2J") {
		t.Error("a student's name reached the terminal raw")
	}
	// A tick reads again.
	m, cmd = m.Update(tickMsg{})
	if _, ok := cmd().(snapMsg); !ok || reads != 2 {
		t.Error("a tick did not read the class")
	}
	m, _ = m.Update(snapMsg(Snapshot{Err: errors.New("disk gone")}))
	if !strings.Contains(m.View(), "cannot read the class: disk gone") {
		t.Error("a read error is not shown")
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}); cmd == nil {
		t.Fatal("q does nothing")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
}

func TestLog(t *testing.T) {
	var l Log
	l.Write([]byte("one\ntw"))
	l.Write([]byte("o\n"))
	for range 200 {
		l.Write([]byte("x\n"))
	}
	lines := l.Lines()
	if len(lines) != keepLines || lines[0] != "x" {
		t.Errorf("%d lines, first %q", len(lines), lines[0])
	}
	var m Log
	m.Write([]byte("one\ntw"))
	m.Write([]byte("o\n"))
	if got := m.Lines(); len(got) != 2 || got[1] != "two" {
		t.Errorf("lines %q", got)
	}
}

// TestViewShowsEachLabsCost checks the CPU column is the share of a core
// between two reads of the same open lab, and HOLDS the engine's bytes.
func TestViewShowsEachLabsCost(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	class := &classroom.Class{Lessons: 10, Students: []classroom.StudentSummary{
		{ID: "a", Name: "alice", Lesson: "x", LessonTitle: "1 Streams", Step: "step 1 of 4"},
		{ID: "b", Name: "bob", Lesson: "x", LessonTitle: "1 Streams", Step: "step 1 of 4"},
	}}
	snap := func(at time.Time, cpu time.Duration) Snapshot {
		return Snapshot{Class: class, Online: map[string]bool{"a": true}, At: at,
			Usage: map[string]classroom.Usage{"a": {CPU: cpu, Holds: 2_500_000}}}
	}
	var m tea.Model = New("class", nil).Watching()
	m, _ = m.Update(snapMsg(snap(at, time.Second)))
	if row := rowOf(m.View(), "alice"); !strings.Contains(row, "…") || !strings.Contains(row, "2.5 MB") {
		t.Errorf("after one read alice's row is %q, want … for CPU and 2.5 MB", row)
	}
	m, _ = m.Update(snapMsg(snap(at.Add(2*time.Second), 1500*time.Millisecond)))
	// The same moment read again keeps the comparison.
	m, _ = m.Update(snapMsg(snap(at.Add(2*time.Second), 1500*time.Millisecond)))
	view := m.View()
	if row := rowOf(view, "alice"); !strings.Contains(row, " 25% ") {
		t.Errorf("0.5 s of CPU in 2 s shows as %q, want 25%%", row)
	}
	if row := rowOf(view, "bob"); strings.Contains(row, "%") || strings.Contains(row, "B ") {
		t.Errorf("bob has no lab open, yet his row is %q", row)
	}
	for _, want := range []string{"CPU", "HOLDS", "q quits"} {
		if !strings.Contains(ansi.Strip(view), want) {
			t.Errorf("the view lacks %q", want)
		}
	}
}

// rowOf is the line of view that names who.
func rowOf(view, who string) string {
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(line, who) {
			return line
		}
	}
	return ""
}
