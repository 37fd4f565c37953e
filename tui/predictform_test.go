package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/bridge"
)

// A prediction exercise opens with its scenario described but not run; the
// learner types the predictions, the scenario plays under the learner's
// seed, the observed values come beside the predictions, and the why
// question is answered and graded, all without leaving the exercise.
func TestPredictionExerciseInTheLab(t *testing.T) {
	eng := newFake()
	dir := t.TempDir()
	m := New(Options{Job: "clicks", Theme: "mono", Seed: 77, SaveDir: dir, Start: "exercise:gap-recovery"}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 140, Height: 44})
	m = next.(Model)
	r, _ := eng.last()
	if r.Kind != bridge.OpenSession || len(r.Lines) != 0 || r.Seed != 77 {
		t.Fatalf("the scenario ran before the predictions: %+v", r)
	}
	if v := plain(m.View()); !strings.Contains(v, "has not run yet") || !strings.Contains(v, "lost:") {
		t.Fatalf("no form:\n%s", v)
	}
	// g does not grade the session as a recording.
	m, cmd := press(t, m, "4", "0", "0", "tab", "4", "0", "0", "tab", "0", "tab", "right", "right")
	if cmd != nil {
		t.Fatal("a key outside the form")
	}
	m, cmd = press(t, m, "enter")
	if cmd == nil {
		t.Fatalf("the predictions were not taken:\n%s", plain(m.View()))
	}
	var open bridge.Request
	for _, r := range eng.reqs {
		if r.Kind == bridge.OpenSession && len(r.Lines) > 0 {
			open = r
		}
	}
	if open.Seed != 77 || !strings.Contains(strings.Join(open.Lines, "\n"), "fail count[1] at 1200") || m.paused {
		t.Fatalf("the scenario does not play under the learner's seed: %+v", open)
	}
	next, _ = m.Update(cmd())
	m = next.(Model)
	if v := plain(m.View()); !strings.Contains(v, "observed") || !strings.Contains(v, "Why?") {
		t.Fatalf("no observed values:\n%s", v)
	}
	m, cmd = press(t, m, "right", "enter")
	if cmd == nil {
		t.Fatal("the why answer was not taken")
	}
	next, _ = m.Update(cmd())
	m = next.(Model)
	if v := plain(m.View()); !strings.Contains(v, "Score") || !strings.Contains(v, "why the sink loses records") {
		t.Errorf("no grade:\n%s", v)
	}
	if _, err := os.Stat(filepath.Join(dir, "gap-recovery", "answers.yaml")); err != nil {
		t.Errorf("answers not saved: %v", err)
	}
	m, _ = press(t, m, "g")
	if !strings.Contains(plain(m.View()), "answered in its form") {
		t.Errorf("g on a prediction exercise:\n%s", plain(m.View()))
	}
}
