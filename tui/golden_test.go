package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// golden compares a view, without ANSI, with testdata/name.golden.
func golden(t *testing.T, name, view string) {
	t.Helper()
	got := plain(view) + "\n"
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui/... -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden (make golden updates it)\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// checkSize asserts the view fills w×h exactly.
func checkSize(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(plain(view), "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n != w {
			t.Errorf("line %d is %d wide, want %d: %q", i, n, w, l)
			break
		}
	}
}

// TestGoldenLab is the README's screenshot: a real session under
// at-most-once with restarts, count[1] killed once it has processed 300
// records, caught while the whole job (its region) waits for the new task
// manager. Nothing commits while the job is down, so the ledger's loss shows
// only after the restart. Nothing in the frame is made up.
func TestGoldenLab(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}} {
		s := newSession(t, "clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 300")
		m, _ := labModel(t, size.w, size.h, s)
		m = s.run(m, 6*time.Second)
		view := m.View()
		checkSize(t, view, size.w, size.h)
		text := plain(view)
		wants := []string{"count[1]", "restarting", "sem at-most-once", "lost", "scheduled in 5000 ms"}
		if size.w >= 120 {
			wants = append(wants, "count[1] killed after 300")
		}
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%dx%d: %q is not on screen:\n%s", size.w, size.h, want, text)
			}
		}
		if !strings.Contains(text, "1 failure") {
			t.Errorf("%dx%d: the failure is not counted:\n%s", size.w, size.h, text)
		}
		golden(t, "lab_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
}

func TestGoldenLabDialogs(t *testing.T) {
	s := newSession(t, "passthrough")
	m, _ := labModel(t, 120, 40, s)
	m = s.run(m, 2*time.Second)
	m, _ = press(t, m, "tab", "m")
	golden(t, "picker_120x40", m.View())
	m, _ = press(t, m, "down", "enter")
	golden(t, "confirm_120x40", m.View())
	m, _ = press(t, m, "n", "?")
	view := m.View()
	checkSize(t, view, 120, 40)
	golden(t, "help_120x40", view)
}

func TestGoldenHome(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m := New(Options{Job: "clicks", Seed: 1, Speed: 1, Executor: "deterministic", Theme: "default", Mouse: true}, newFake())
		next, _ := m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		view := next.(Model).View()
		checkSize(t, view, size.w, size.h)
		golden(t, "home_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
}

func TestTooSmall(t *testing.T) {
	m, _ := labModel(t, 79, 30, nil)
	view := plain(m.View())
	if !strings.Contains(view, "at least 80×24") || !strings.Contains(view, "79×30") {
		t.Errorf("view:\n%s", view)
	}
	golden(t, "too_small_60x20", func() string {
		next, _ := m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
		return next.(Model).View()
	}())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if strings.Contains(plain(next.(Model).View()), "at least") {
		t.Error("80×24 is enough")
	}
}

func TestResizesAtEverySize(t *testing.T) {
	s := newSession(t, "clicks")
	m, _ := labModel(t, 80, 24, s)
	m = s.run(m, time.Second)
	for _, size := range [][2]int{{80, 24}, {81, 25}, {100, 30}, {133, 41}, {200, 50}, {250, 70}} {
		next, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		checkSize(t, next.(Model).View(), size[0], size[1])
		m = next.(Model)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
