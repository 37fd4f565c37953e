package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/layout"
)

var sizes = []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}}

// guideModel opens start ("lesson:ID" or "exercise:ID") at w×h on a real
// bridge driven by hand.
func guideModel(t *testing.T, start string, w, h int) (Model, *fakeEngine, *session) {
	t.Helper()
	return guideModelAt(t, start, w, h, nil)
}

// guideModelAt is guideModel with the learner's saved progress.
func guideModelAt(t *testing.T, start string, w, h int, lessonsDone map[string]*lessons.LessonProgress) (Model, *fakeEngine, *session) {
	t.Helper()
	b, err := bridge.New(bridge.Options{Seed: 1, Speed: 1, Clock: bridge.NewManualClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {})
	s := &session{b: b, at: t0}
	eng := newFake()
	m := New(Options{Job: "clicks", Seed: 1, Speed: 1, Start: start, Theme: "default",
		StateDir: t.TempDir(), Progress: &lessons.Progress{Seed: 42, Lessons: lessonsDone}}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m = next.(Model)
	s.forward(eng)
	b.Tick(t0)
	return feed(m, s), eng, s
}

// checkLayout asserts what a learner needs is on screen: every node of
// clicks, the output pane's counts, and no line wider than the terminal.
func checkLayout(t *testing.T, name, view string, w, h int) {
	t.Helper()
	checkSize(t, view, w, h)
	text := plain(view)
	for _, node := range []string{"source", "parse", "count[0]", "count[1]", "sink"} {
		if !strings.Contains(text, node) {
			t.Errorf("%s: node %s is not on screen:\n%s", name, node, text)
		}
	}
	if !regexp.MustCompile(`(click|close|open|scroll|view) +\d+`).MatchString(text) {
		t.Errorf("%s: the output pane shows no counts:\n%s", name, text)
	}
}

// Lesson 3 in the middle of its played run, and an exercise after its
// scenario, at the three sizes: the goldens, and what they must show.
func TestGoldenGuideLayouts(t *testing.T) {
	for _, size := range sizes {
		// The first step (the job failing without a restart strategy) is
		// done; this run is the second's, whose text stays while it plays.
		m, eng, s := guideModelAt(t, "lesson:3", size.w, size.h, map[string]*lessons.LessonProgress{"node-failure": {Steps: 1}})
		for _, l := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200", "run 3000"} {
			m, _ = press(t, m, ":")
			m = typeText(t, m, l)
			m, _ = press(t, m, "enter")
			s.forward(eng)
			m = feed(m, s)
		}
		for range 230 { // 23 s in 100 ms ticks, each frame through Update
			s.at = s.at.Add(100 * time.Millisecond)
			s.b.Tick(s.at)
			m = feed(m, s)
		}
		view := m.View()
		name := "lesson3_" + itoa(size.w) + "x" + itoa(size.h)
		checkLayout(t, name, view, size.w, size.h)
		text := plain(view)
		for _, want := range []string{"▶ run to 0:29.9", "restarting", "Step 2 of "} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q is not on screen:\n%s", name, want, text)
			}
		}
		golden(t, name, view)

		m, eng, s = guideModel(t, "exercise:failover-recording", size.w, size.h)
		m = lines(t, m, eng, s, "set semantics exactly-once", "set sink table", "set jobmanager.ha standby", "run 2000")
		view = m.View()
		name = "exercise_" + itoa(size.w) + "x" + itoa(size.h)
		checkLayout(t, name, view, size.w, size.h)
		if !strings.Contains(plain(view), "Exercise") {
			t.Errorf("%s: no exercise pane:\n%s", name, plain(view))
		}
		golden(t, name, view)
		_ = eng
	}
}

// Every golden is a whole screen of the size its name says: each line
// exactly as wide as the terminal, no more lines than it has.
func TestGoldenWidths(t *testing.T) {
	files, err := filepath.Glob("testdata/*.golden")
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	size := regexp.MustCompile(`_(\d+)x(\d+)\.golden$`)
	for _, f := range files {
		m := size.FindStringSubmatch(f)
		if m == nil {
			t.Errorf("%s: no size in its name", f)
			continue
		}
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(lines) != h {
			t.Errorf("%s: %d lines, want %d", f, len(lines), h)
		}
		for i, l := range lines {
			if n := ansi.StringWidth(l); n != w {
				t.Errorf("%s: line %d is %d wide, want %d: %q", f, i+1, n, w, l)
				break
			}
		}
	}
}

// paneText is what pane r shows inside its frame, plain.
func paneText(view string, r layout.Rect) []string {
	rows := strings.Split(plain(view), "\n")
	var out []string
	for y := r.Y + 1; y < r.Y+r.H-1 && y < len(rows); y++ {
		out = append(out, ansi.Cut(rows[y], r.X+1, r.X+r.W-1))
	}
	return out
}

// windowRow is an output row with its window: "12:00:10 click   153".
var windowRow = regexp.MustCompile(`\d\d:\d\d:\d\d (click|close|open|scroll|view) +\d+`)

// checkPanes asserts the lab's panes fit the screen side by side, that
// the output pane shows each row's window, and that the events pane cuts
// no word: every word it shows is a whole word of an entry (or a piece of
// one longer than the pane), and no line ends in "…" with its number cut.
func checkPanes(t *testing.T, name string, m Model) {
	t.Helper()
	view := m.View()
	for p := range paneCount {
		r := m.rects[p]
		if !m.visible(p) {
			continue
		}
		if r.X < 0 || r.Y < 1 || r.X+r.W > m.w || r.Y+r.H > m.h-2 {
			t.Errorf("%s: pane %d at %+v does not fit %d×%d", name, p, r, m.w, m.h)
		}
	}
	out := paneText(view, m.rects[PaneOutput])
	if !m.visible(PaneOutput) || !windowRow.MatchString(strings.Join(out, "\n")) {
		t.Errorf("%s: the output pane shows no window:\n%s", name, strings.Join(out, "\n"))
	}
	checkWholeWords(t, name, m, paneText(view, m.rects[PaneEvents]), m.rects[PaneEvents].W-2)
}

// checkWholeWords asserts every word of shown (the events pane's inner
// lines, w wide) is a whole word of one of the pane's entries, in its
// whole or its short form: none is cut and marked "…".
func checkWholeWords(t *testing.T, name string, m Model, shown []string, w int) {
	t.Helper()
	words := map[string]bool{}
	var texts []string
	for _, e := range m.events.Entries() {
		words[draw.Clock(e.TimeMS)] = true
		for _, f := range strings.Fields(e.Text + " " + e.Line(w)) {
			words[f] = true
		}
		texts = append(texts, e.Text)
	}
	repeat := regexp.MustCompile(`^\(×\d+\)$`)
	all := strings.Join(texts, " ")
	for _, l := range shown {
		for _, f := range strings.Fields(l) {
			switch {
			case f == "" || words[f] || repeat.MatchString(f):
			case len([]rune(f)) >= w-2 && strings.Contains(all, f): // a piece of a word longer than a line
			default:
				t.Errorf("%s: the events pane cut a word: %q in %q\n%s", name, f, l, strings.Join(shown, "\n"))
			}
		}
	}
}

// In a lesson at 80×24, 120×40 and 200×50 the panes fit, the output pane
// shows each row's window, and the events pane wraps between words; a
// refusal reads whole in the events pane where there is room for it, and
// in the full-screen events (v) at any size.
func TestLessonLayoutsShowWindowsAndWholeWords(t *testing.T) {
	const refused = "set ha upstream-backup"
	for _, size := range sizes {
		name := "lesson3_" + itoa(size.w) + "x" + itoa(size.h)
		m, eng, s := guideModelAt(t, "lesson:3", size.w, size.h, map[string]*lessons.LessonProgress{"node-failure": {Steps: 1}})
		m = lines(t, m, eng, s, "job clicks", "set semantics exactly-once", refused, "run 300")
		var refusal string
		for _, e := range m.events.Entries() {
			if strings.HasPrefix(e.Text, "run 300: ") {
				refusal = e.Text
			}
		}
		if !strings.Contains(refusal, "exactly-once needs checkpoints") {
			t.Fatalf("%s: no refusal in the events: %q", name, texts(m))
		}
		checkWholeWords(t, name, m, paneText(m.View(), m.rects[PaneEvents]), m.rects[PaneEvents].W-2)
		if size.w >= 120 {
			shown := strings.Join(strings.Fields(strings.Join(paneText(m.View(), m.rects[PaneEvents]), " ")), " ")
			if !strings.Contains(shown, strings.Join(strings.Fields(refusal), " ")) {
				t.Errorf("%s: the refusal does not read whole in the events pane:\n%s", name, shown)
			}
		}
		m, _ = press(t, m, "v")
		view := m.View()
		checkSize(t, view, size.w, size.h)
		full := paneText(view, layout.Rect{X: 0, Y: 1, W: size.w, H: size.h - layout.ChromeLines})
		checkWholeWords(t, name+" full screen", m, full, size.w-2)
		if shown := strings.Join(strings.Fields(strings.Join(full, " ")), " "); !strings.Contains(shown, strings.Join(strings.Fields(refusal), " ")) {
			t.Errorf("%s: the refusal does not read whole in the full-screen events:\n%s", name, strings.Join(full, "\n"))
		}
		m, _ = press(t, m, "esc")
		if m.eventsScreen || m.Screen() != ScreenLab {
			t.Errorf("%s: esc did not close the full-screen events back to the lab", name)
		}
		m = lines(t, m, eng, s, "set ha passive-standby", "kill count[1] at 1200", "run 3000")
		checkPanes(t, name, m)
	}
}

func texts(m Model) []string {
	var out []string
	for _, e := range m.events.Entries() {
		out = append(out, e.Text)
	}
	return out
}

// The sandbox at the three sizes, mid-failure: the panes fit, the output
// shows each row's window and the events cut no word.
func TestLabLayoutsShowWindowsAndWholeWords(t *testing.T) {
	for _, size := range sizes {
		s := newSession(t, "clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 300")
		m, _ := labModel(t, size.w, size.h, s)
		m = s.run(m, 6*time.Second)
		checkPanes(t, "lab_"+itoa(size.w)+"x"+itoa(size.h), m)
	}
}
