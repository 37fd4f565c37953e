package tui

import (
	"flag"
	"os"
	"regexp"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/tui/bridge"
)

// update rewrites the golden files: go test ./tui/... -update (make golden).
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestMain(m *testing.M) {
	// Goldens and assertions see plain text: no colour, whatever the
	// terminal running the tests.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeEngine records what the UI sends; frames come from the test.
type fakeEngine struct {
	reqs []bridge.Request
	ch   chan bridge.Frame
}

func newFake() *fakeEngine { return &fakeEngine{ch: make(chan bridge.Frame, 1)} }

func (f *fakeEngine) Send(r bridge.Request) bool {
	f.reqs = append(f.reqs, r)
	return true
}

func (f *fakeEngine) Frames() <-chan bridge.Frame { return f.ch }

// last is the last request sent; ok is false when none was.
func (f *fakeEngine) last() (bridge.Request, bool) {
	if len(f.reqs) == 0 {
		return bridge.Request{}, false
	}
	return f.reqs[len(f.reqs)-1], true
}

// keyMsg turns a key name, as key bindings spell them, into a key message.
func keyMsg(s string) tea.KeyMsg {
	types := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "end": tea.KeyEnd, "home": tea.KeyHome,
		"ctrl+s": tea.KeyCtrlS, "ctrl+c": tea.KeyCtrlC, " ": tea.KeySpace, "backspace": tea.KeyBackspace,
	}
	if t, ok := types[s]; ok {
		if t == tea.KeySpace {
			return tea.KeyMsg{Type: t, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// press sends keys to m in order and returns the model and the last
// command.
func press(t testing.TB, m Model, keys ...string) (Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		var next tea.Model
		next, cmd = m.Update(keyMsg(k))
		m = next.(Model)
	}
	return m, cmd
}

// typeText types s into m, one rune at a time.
func typeText(t testing.TB, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		next, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		m = next.(Model)
	}
	return m
}

// session is a real bridge driven by hand: frames are the engine's own,
// deterministic for a job and seed.
type session struct {
	b  *bridge.Bridge
	at time.Time
}

func newSession(t testing.TB, job string, lines ...string) *session {
	t.Helper()
	b, err := bridge.New(bridge.Options{Job: job, Seed: 1, Speed: 1, Running: true, Clock: bridge.NewManualClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	// Settings go in before the first tick starts the job.
	for _, line := range lines {
		b.Handle(bridge.Request{Kind: bridge.Line, Line: line})
		for _, r := range b.Frame().Results {
			if r.Err != "" {
				t.Fatalf("%s: %s", line, r.Err)
			}
		}
	}
	s := &session{b: b, at: t0}
	b.Tick(t0)
	return s
}

// forward hands what the UI sent to the fake engine on to the session's
// bridge, as the real program's channel would, and forgets it.
func (s *session) forward(eng *fakeEngine) {
	for _, r := range eng.reqs {
		s.b.Handle(r)
	}
	eng.reqs = nil
}

// run advances the session by d of wall time in 100 ms ticks, feeding a
// frame to m after every tick.
func (s *session) run(m Model, d time.Duration) Model {
	for ; d > 0; d -= 100 * time.Millisecond {
		s.at = s.at.Add(100 * time.Millisecond)
		s.b.Tick(s.at)
		m.applyFrame(s.b.Frame())
	}
	return m
}

// playOut ticks a played run to its end in 100 ms ticks, feeding every
// frame to m.
func (s *session) playOut(t testing.TB, m Model) Model {
	t.Helper()
	for i := 0; s.b.Playing(); i++ {
		if i > 100_000 {
			t.Fatal("a played run did not end")
		}
		s.at = s.at.Add(100 * time.Millisecond)
		s.b.Tick(s.at)
		next, _ := m.Update(frameMsg(s.b.Frame()))
		m = next.(Model)
	}
	return m
}

// labModel is the lab screen at w×h with a fake engine and, when s is not
// nil, the session's frames so far.
func labModel(t testing.TB, w, h int, s *session) (Model, *fakeEngine) {
	t.Helper()
	eng := newFake()
	m := New(Options{Job: "clicks", Seed: 1, Speed: 1, Start: "lab:clicks", Mouse: true, Theme: "default"}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m = next.(Model)
	if s != nil {
		m.applyFrame(s.b.Frame())
	}
	return m, eng
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]`)

// plain strips ANSI sequences.
func plain(s string) string { return ansiRE.ReplaceAllString(s, "") }
