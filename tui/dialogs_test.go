package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/bridge"
)

// sentLines are the lab-script lines among reqs.
func sentLines(reqs []bridge.Request) []string {
	var out []string
	for _, r := range reqs {
		if r.Kind == bridge.Line {
			out = append(out, r.Line)
		}
	}
	return out
}

// A picker pauses a lab whose time runs: virtual time stands still while
// it is open, and runs again once it is closed.
func TestDialogPausesTheRunningLab(t *testing.T) {
	s := newSession(t, "clicks")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, time.Second)
	if m.Paused() {
		t.Fatal("the lab is paused before the dialog")
	}
	m, _ = press(t, m, "m")
	if !m.picker.Active() || !m.Paused() {
		t.Fatalf("picker %v, paused %v", m.picker.Active(), m.Paused())
	}
	s.forward(eng)
	m = s.run(m, 100*time.Millisecond)
	open := m.frame.ClockMS
	m = s.run(m, 2*time.Second)
	if m.frame.ClockMS != open {
		t.Errorf("virtual time moved from %d to %d ms while the picker was open", open, m.frame.ClockMS)
	}
	if !strings.Contains(plain(m.View()), "⏸ paused") {
		t.Error("the status bar does not say the lab is paused behind the dialog")
	}
	m, _ = press(t, m, "esc")
	s.forward(eng)
	m = s.run(m, time.Second)
	if m.Paused() || m.frame.ClockMS <= open {
		t.Errorf("after the picker closed: paused %v, clock %d ms (was %d)", m.Paused(), m.frame.ClockMS, open)
	}
}

// A lab paused before the dialog stays paused after it.
func TestDialogLeavesAPausedLabPaused(t *testing.T) {
	s := newSession(t, "clicks")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, time.Second)
	m, _ = press(t, m, " ")
	s.forward(eng)
	m, _ = press(t, m, "k", "esc")
	for _, r := range eng.reqs {
		if r.Kind == bridge.Resume || r.Kind == bridge.Pause {
			t.Errorf("the dialog sent %+v to a paused lab", r)
		}
	}
	if !m.Paused() {
		t.Error("a paused lab runs after a dialog")
	}
}

// While a typed run plays, the kill question holds it: the played clock
// stands still, a line typed at it goes nowhere (not into the palette,
// not to the engine), and esc lets the run play on.
func TestDialogHoldsAPlayedRunAndTakesOnlyItsKeys(t *testing.T) {
	m, eng, s := lessonModel(t, "3", 120, 40)
	m = lines(t, m, eng, s, "job clicks", "set semantics at-most-once", "kill count[1] at 1200")
	m, _ = press(t, m, ":")
	m = typeText(t, m, "run 3000")
	m, _ = press(t, m, "enter")
	s.forward(eng)
	m = s.run(m, time.Second)
	if !m.frame.Playing {
		t.Fatal("run 3000 is not playing")
	}
	m, _ = press(t, m, "k")
	if !m.targets.Active() {
		t.Fatal("k did not open the node list")
	}
	s.forward(eng)
	m = s.run(m, 100*time.Millisecond)
	held := m.frame.ClockMS
	// A line typed at once, then key by key: neither answers the dialog.
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":run 10s")})
	m = next.(Model)
	m, _ = press(t, m, ":", "x")
	if !m.targets.Active() || m.palette.Active() {
		t.Fatalf("after typing at the node list: list open %v, palette open %v", m.targets.Active(), m.palette.Active())
	}
	if got := sentLines(eng.reqs); len(got) != 0 {
		t.Fatalf("keys typed at the dialog reached the engine: %q", got)
	}
	if msg, isErr := m.Message(); !isErr || !strings.Contains(msg, "question is open") {
		t.Errorf("message %q: the learner is not told where the keys went", msg)
	}
	s.forward(eng)
	m = s.run(m, 2*time.Second)
	if m.frame.ClockMS != held || !m.frame.Playing {
		t.Errorf("while the node list was open the played run went from %d to %d ms (playing %v)", held, m.frame.ClockMS, m.frame.Playing)
	}
	m, _ = press(t, m, "esc")
	if msg, _ := m.Message(); strings.Contains(msg, "question is open") {
		t.Errorf("the dialog is closed, but the message line still says %q", msg)
	}
	s.forward(eng)
	m = s.run(m, time.Second)
	if m.frame.ClockMS <= held || !m.frame.Playing {
		t.Errorf("after esc the run did not play on: clock %d ms (held at %d), playing %v", m.frame.ClockMS, held, m.frame.Playing)
	}
	if got := m.frame.Script; strings.Contains(strings.Join(got, "\n"), "run 10s") {
		t.Errorf("the line typed at the dialog was recorded: %q", got)
	}
}

// Keys that arrive together with the one that opens a dialog are not its
// answer: "sj" opens the sink picker, and the j (down, in a picker) goes
// nowhere.
func TestBurstStopsAtADialog(t *testing.T) {
	s := newSession(t, "clicks")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, time.Second)
	m, _ = press(t, m, "s")
	cur := m.picker.Cursor()
	m, _ = press(t, m, "esc")
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("sj")})
	m = next.(Model)
	if !m.picker.Active() || m.picker.Key != "sink" || m.picker.Cursor() != cur {
		t.Errorf("picker %v on %q at %d (opens at %d)", m.picker.Active(), m.picker.Key, m.picker.Cursor(), cur)
	}
	if got := sentLines(eng.reqs); len(got) != 0 {
		t.Errorf("sent %q", got)
	}
}

// A restart answered with y while a typed run plays does not set time
// running on the new session: the played run is gone with the old one.
func TestRestartFromADialogDoesNotResumeAPlayedRun(t *testing.T) {
	s := newSession(t, "clicks")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, time.Second)
	m, _ = press(t, m, " ") // paused, as in a lesson
	s.forward(eng)
	m = s.run(m, 100*time.Millisecond)
	m, _ = press(t, m, ":")
	m = typeText(t, m, "run 3000")
	m, _ = press(t, m, "enter")
	s.forward(eng)
	m = s.run(m, time.Second)
	if !m.frame.Playing {
		t.Fatal("run 3000 is not playing")
	}
	gen := m.frame.Gen
	m, _ = press(t, m, ":")
	m = typeText(t, m, "set mode append")
	m, _ = press(t, m, "enter")
	if m.Confirming() == "" {
		t.Fatal("no restart question")
	}
	m, _ = press(t, m, "y")
	s.forward(eng)
	m = s.run(m, time.Second)
	if m.frame.Gen == gen || !m.frame.Paused || m.frame.Playing {
		t.Errorf("after the restart: session %d (was %d), paused %v, playing %v; want a new, paused session", m.frame.Gen, gen, m.frame.Paused, m.frame.Playing)
	}
}

// Esc in a lesson asks before leaving for the home screen; esc again (once
// too often) stays, and only y leaves, with the progress kept.
func TestEscOutOfALessonAsks(t *testing.T) {
	m, eng, s := lessonModel(t, "4", 120, 40)
	m = lines(t, m, eng, s, "job clicks", "set semantics at-least-once", "kill count[1] at 1200", "run 3000")
	done := m.progress.Lesson("rollback").Steps
	m, _ = press(t, m, "esc")
	if m.Screen() != ScreenLab || !m.leaving || !strings.Contains(plain(m.View()), "Leave the lesson?") {
		t.Fatalf("esc: screen %d, asking %v\n%s", m.Screen(), m.leaving, plain(m.View()))
	}
	m, _ = press(t, m, "esc")
	if m.Screen() != ScreenLab || m.leaving {
		t.Fatalf("esc twice: screen %d, asking %v; want the lesson", m.Screen(), m.leaving)
	}
	m, _ = press(t, m, "esc")
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("yes")})
	m = next.(Model)
	if m.Screen() != ScreenLab || !m.leaving {
		t.Fatalf("a burst of keys answered the question: screen %d, asking %v", m.Screen(), m.leaving)
	}
	m, _ = press(t, m, "y")
	if m.Screen() != ScreenHome {
		t.Fatalf("y: screen %d, want home", m.Screen())
	}
	if got := m.progress.Lesson("rollback").Steps; got != done || done == 0 {
		t.Errorf("progress %d steps after leaving, %d before", got, done)
	}
	for _, r := range eng.reqs {
		if r.Kind == bridge.Resume {
			t.Error("leaving resumed the lab behind the home screen")
		}
	}
}

// In the sandbox esc goes home at once: there is no progress to lose.
func TestEscOutOfTheSandboxGoesHome(t *testing.T) {
	m, _ := labModel(t, 120, 40, nil)
	m, _ = press(t, m, "esc")
	if m.Screen() != ScreenHome {
		t.Errorf("screen %d", m.Screen())
	}
}
