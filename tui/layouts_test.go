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
