package tui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/tui/draw"
)

// uncachedView is m's screen with every pane drawn afresh.
func uncachedView(m Model) string {
	defer draw.Bypass(draw.Bypass(true))
	return m.View()
}

// TestCachedViewFollowsChanges plays lesson 1 and, after each frame, key
// and resize, draws the screen twice, the second time with the panes'
// caches, and compares the two with a drawing that keeps nothing: a pane
// whose input changed must be drawn again, never shown from before. It
// runs without colour (as the goldens) and in 256 colours (as served).
func TestCachedViewFollowsChanges(t *testing.T) {
	for _, profile := range []termenv.Profile{termenv.Ascii, termenv.ANSI256} {
		prev := lipgloss.ColorProfile()
		lipgloss.SetColorProfile(profile)
		checkCachedLesson(t)
		checkCachedSandbox(t)
		checkCachedLease(t)
		lipgloss.SetColorProfile(prev)
	}
}

// sameAsUncached fails unless m's screen, drawn twice, is the one a
// drawing that keeps nothing gives.
func sameAsUncached(t *testing.T, m Model, what string) {
	t.Helper()
	m.View() // fills the caches
	if got, want := m.View(), uncachedView(m); got != want {
		t.Fatalf("after %s the cached screen differs from a fresh drawing:\n%s\nwant:\n%s", what, got, want)
	}
}

func checkCachedLesson(t *testing.T) {
	t.Helper()
	m, eng, s := lessonModel(t, "1", 120, 40)
	same := func(what string) { t.Helper(); sameAsUncached(t, m, what) }
	same("opening the lesson")
	m, _ = press(t, m, " ")
	s.forward(eng)
	m = feed(m, s)
	same("space")
	for i := range 30 {
		s.at = s.at.Add(100 * time.Millisecond)
		s.b.Tick(s.at)
		m = feed(m, s)
		same("frame " + string(rune('0'+i%10)))
	}
	for _, k := range []string{"tab", "down", "up", "tab", "tab", "up", "pgup", "tab", "tab", "down", "pgdown", "up", "h", "?", "?", ":", "x", "esc"} {
		m, _ = press(t, m, k)
		s.forward(eng)
		same("key " + k)
		m = feed(m, s)
		same("the frame after key " + k)
	}
	for _, size := range []tea.WindowSizeMsg{{Width: 100, Height: 30}, {Width: 160, Height: 45}, {Width: 120, Height: 40}} {
		next, _ := m.Update(size)
		m = next.(Model)
		same("a resize")
	}
}

// checkCachedSandbox plays a job with a table sink, whose rows stay
// highlighted for a while after they change, a Bloom filter and a kill,
// on a screen wide enough for every pane.
func checkCachedSandbox(t *testing.T) {
	t.Helper()
	s := newSession(t, "clicks", "set sink table", "set filter bloom n=1000 p=0.01", "kill count[0] at 1500")
	m, eng := labModel(t, 200, 50, s)
	for i := range 60 {
		m = s.run(m, 100*time.Millisecond)
		sameAsUncached(t, m, "frame "+string(rune('0'+i%10)))
	}
	for _, k := range []string{"tab", "up", "tab", "down", "tab", "tab", "up", "right", "r"} {
		m, _ = press(t, m, k)
		s.forward(eng)
		sameAsUncached(t, m, "key "+k)
		m = s.run(m, 300*time.Millisecond)
		sameAsUncached(t, m, "the frames after key "+k)
	}
}

// checkCachedLease kills the job manager that has a standby: the
// pipeline's bottom edge counts the lease down at every frame.
func checkCachedLease(t *testing.T) {
	t.Helper()
	s := newSession(t, "clicks", "set semantics exactly-once", "set jobmanager.ha standby")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, 2*time.Second)
	m = typeText(t, m, ":kill jobmanager")
	m, _ = press(t, m, "enter")
	s.forward(eng)
	for i := range 40 {
		m = s.run(m, 100*time.Millisecond)
		sameAsUncached(t, m, "frame "+string(rune('0'+i%10))+" after the kill")
	}
}
