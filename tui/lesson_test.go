package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
)

// lessonModel is lesson id's screen at w×h on a real bridge driven by hand
// (requests forwarded from a fake engine), progress kept in a temporary
// state directory.
func lessonModel(t testing.TB, id string, w, h int) (Model, *fakeEngine, *session) {
	t.Helper()
	b, err := bridge.New(bridge.Options{Seed: 1, Speed: 1, Clock: bridge.NewManualClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	s := &session{b: b, at: t0}
	eng := newFake()
	m := New(Options{Job: "clicks", Seed: 1, Speed: 1, Start: "lesson:" + id, Theme: "default",
		StateDir: t.TempDir(), Progress: &lessons.Progress{Seed: 42}}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m = next.(Model)
	s.forward(eng)
	b.Tick(t0)
	m = feed(m, s)
	return m, eng, s
}

// feed hands the session's next frame to m as the program would, running
// what the frame's command asks for at once (saving the progress).
func feed(m Model, s *session) Model {
	next, _ := m.Update(frameMsg(s.b.Frame()))
	return next.(Model)
}

// lines types palette lines and forwards them to the bridge.
func lines(t testing.TB, m Model, eng *fakeEngine, s *session, ls ...string) Model {
	t.Helper()
	for _, l := range ls {
		m, _ = press(t, m, ":")
		m = typeText(t, m, l)
		m, _ = press(t, m, "enter")
		if m.Confirming() != "" {
			t.Fatalf("%q asks for a restart", l)
		}
		s.forward(eng)
		m = feed(m, s)
		m = s.playOut(t, m)
	}
	return m
}

// goOn presses n, the key to go on from a step done, and forwards it.
func goOn(t testing.TB, m Model, eng *fakeEngine, s *session) Model {
	t.Helper()
	m, _ = press(t, m, "n")
	s.forward(eng)
	return feed(m, s)
}

func TestGoldenLesson(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m, eng, s := lessonModel(t, "4", size.w, size.h)
		m = lines(t, m, eng, s, "job clicks", "set semantics at-least-once")
		m, _ = press(t, m, "h")
		view := m.View()
		checkSize(t, view, size.w, size.h)
		golden(t, "lesson_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
}

func TestLessonStepsAndHints(t *testing.T) {
	m, eng, s := lessonModel(t, "rollback", 80, 24)
	if !m.guide.Active() || m.Focus() != PanePipeline || !m.inLayout(PaneLesson) {
		t.Fatal("no lesson pane")
	}
	if r := eng.reqs; len(r) != 0 {
		t.Fatalf("unforwarded %v", r)
	}
	if m.guide.Hints() != 0 {
		t.Fatal("hints shown at the start")
	}
	m, _ = press(t, m, "h")
	if m.guide.Hints() != 1 || !strings.Contains(plain(m.View()), "Hint 1") {
		t.Errorf("h: %d hints", m.guide.Hints())
	}
	m, _ = press(t, m, "h", "h")
	if m.guide.Hints() != 2 {
		t.Errorf("h past the last hint: %d", m.guide.Hints())
	}
	if m.picker.Active() {
		t.Error("h opened the HA picker in a lesson")
	}
	l, _ := lessons.Find("rollback")
	m = lines(t, m, eng, s, l.Steps[0].Solution...)
	// The step done stays on screen, its hints with it, until n.
	if m.guide.Done() != 1 || !m.guide.Held() || m.guide.Step() != 0 || m.guide.Hints() != 2 {
		t.Fatalf("after step 1's solution: done %d, held %v, step shown %d, hints %d", m.guide.Done(), m.guide.Held(), m.guide.Step(), m.guide.Hints())
	}
	if got := m.progress.Lesson("rollback").Steps; got != 1 {
		t.Errorf("progress %d steps", got)
	}
	m = goOn(t, m, eng, s)
	if m.guide.Held() || m.guide.Step() != 1 || m.guide.Hints() != 0 {
		t.Fatalf("after n: held %v, step shown %d, hints %d", m.guide.Held(), m.guide.Step(), m.guide.Hints())
	}
	// The steps after a fresh step start a new session without a question.
	m = lines(t, m, eng, s, l.Steps[1].Solution...)
	m = goOn(t, m, eng, s)
	m = lines(t, m, eng, s, l.Steps[2].Solution...)
	if m.guide.Done() != 3 {
		t.Fatalf("done %d after three steps", m.guide.Done())
	}
}

func TestLessonPaneScrollsAndFocuses(t *testing.T) {
	m, _, _ := lessonModel(t, "4", 80, 24)
	m, _ = press(t, m, "pgdown")
	if m.guide.ScrollOffset() == 0 {
		t.Error("pgdown did not scroll the lesson")
	}
	m, _ = press(t, m, "pgup")
	if m.guide.ScrollOffset() != 0 {
		t.Error("pgup did not scroll back")
	}
	for range paneCount {
		if m.Focus() == PaneLesson {
			break
		}
		m, _ = press(t, m, "tab")
	}
	if m.Focus() != PaneLesson {
		t.Fatal("tab never reached the lesson pane")
	}
	m, _ = press(t, m, "down", "down")
	if m.guide.ScrollOffset() != 2 {
		t.Errorf("down twice: offset %d", m.guide.ScrollOffset())
	}
	m, _ = press(t, m, "up")
	if m.guide.ScrollOffset() != 1 {
		t.Errorf("up: offset %d", m.guide.ScrollOffset())
	}
}

func TestLessonCheck(t *testing.T) {
	m, _, _ := lessonModel(t, "4", 80, 24)
	if _, cmd := press(t, m, "a"); cmd != nil || m.guide.Asking() {
		t.Fatal("a before the steps are done")
	}
	m.guide.SetProgress(4, false, false)
	m, cmd := press(t, m, "a")
	if !m.guide.Asking() || cmd == nil {
		t.Fatal("a did not open the prompt")
	}
	// An answer typed before the engine's is ready waits for it.
	m = typeText(t, m, "xyz")
	m, _ = press(t, m, "enter")
	l, _ := lessons.Find("4")
	ans, err := l.Solve(t.Context(), m.lessonSeed())
	if err != nil {
		t.Fatal(err)
	}
	next, _ := m.Update(solvedMsg{id: l.ID, ans: ans})
	m = next.(Model)
	if !m.guide.Asking() || !strings.Contains(m.guide.Notice(), "not understood") {
		t.Fatalf("xyz: asking %v, notice %q", m.guide.Asking(), m.guide.Notice())
	}
	for range 3 {
		m, _ = press(t, m, "backspace")
	}
	m = typeText(t, m, "1")
	m, _ = press(t, m, "enter")
	if v := m.guide.Verdict(); v == nil || (v.Correct != (ans.Want() == "1")) {
		t.Fatalf("verdict %+v", v)
	}
	m, _ = press(t, m, "a")
	m = typeText(t, m, ans.Want())
	m, cmd = press(t, m, "enter")
	if v := m.guide.Verdict(); v == nil || !v.Correct || cmd == nil {
		t.Fatalf("the right answer: %+v", v)
	}
	if msg := cmd(); msg.(savedMsg).err != nil {
		t.Fatal(msg)
	}
	if !m.progress.Lesson(l.ID).Checked || !strings.Contains(plain(m.guide.Text()), "In the real world") {
		t.Error("no progress or no real world after the right answer")
	}
	p, err := lessons.Store{Dir: m.opts.StateDir}.Load()
	if err != nil || !p.Lesson(l.ID).Checked {
		t.Errorf("saved progress %+v, %v", p.Lesson(l.ID), err)
	}
	// esc puts the question aside.
	m, _ = press(t, m, "a", "esc")
	if m.guide.Asking() {
		t.Error("esc left the prompt open")
	}
}

func TestHomeOpensLessonsAndExercises(t *testing.T) {
	eng := newFake()
	m := New(Options{Job: "clicks", Theme: "mono"}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	m, _ = press(t, m, "down", "enter", "down", "down", "down", "enter")
	r, ok := eng.last()
	if m.Screen() != ScreenLab || !ok || r.Kind != bridge.OpenSession || r.Lesson == nil || r.Lesson.Number != 4 {
		t.Fatalf("screen %d, request %+v", m.Screen(), r)
	}
	m, _ = press(t, m, "esc", "y", "esc", "down", "enter", "enter") // leaving the lesson asks
	r, _ = eng.last()
	// The first exercise is a configuration: it opens on its job alone.
	if m.Screen() != ScreenLab || r.Kind != bridge.OpenSession || r.Lesson != nil || r.Job == "" || len(r.Lines) != 0 {
		t.Fatalf("exercise: screen %d, request %+v", m.Screen(), r)
	}
	if m.guide.Exercise() == nil || !strings.Contains(plain(m.View()), "Exercise") {
		t.Error("no exercise pane")
	}
}

func TestExerciseGrade(t *testing.T) {
	eng := newFake()
	m := New(Options{Job: "clicks", Theme: "mono", Start: "exercise:failover-recording"}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	m.frame.Script = []string{"job clicks", "set seed 1", "run 3s"}
	m, cmd := press(t, m, "g")
	if cmd == nil || !strings.Contains(plain(m.View()), "grading") {
		t.Fatal("g did not grade")
	}
	msg := cmd().(gradedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	next, _ = m.Update(msg)
	m = next.(Model)
	if g := m.guide.Graded(); g == nil || len(g.Checks) == 0 || !strings.Contains(plain(m.View()), "points") {
		t.Errorf("grade %+v", g)
	}
	next, _ = m.Update(gradedMsg{id: "other", res: grade.ExerciseResult{}})
	if next.(Model).guide.Graded() != m.guide.Graded() {
		t.Error("another exercise's grade was shown")
	}
}

var _ = time.Second

// A configuration exercise opens on its job alone and is graded on the
// set lines the learner typed: the grader plays the scenario after them.
func TestConfigurationExerciseGradesSetLines(t *testing.T) {
	eng := newFake()
	m := New(Options{Job: "clicks", Theme: "mono", Start: "exercise:restart-strategy"}, eng)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if r, _ := eng.last(); r.Kind != bridge.OpenSession || len(r.Lines) != 0 {
		t.Fatalf("a configuration exercise must not run its scenario before the settings: %+v", r)
	}
	ex, err := exercises.Lookup("restart-strategy")
	if err != nil {
		t.Fatal(err)
	}
	got := answerLines(ex, []string{"job clicks", "set seed 4", "set restart fixed-delay attempts=5 delay=1s", "run 3s", "kill count[1]"})
	if len(got) != 1 || got[0] != "set restart fixed-delay attempts=5 delay=1s" {
		t.Fatalf("answer lines %q", got)
	}
	all, _ := exercises.Lookup("failover-recording")
	if got := answerLines(all, []string{"job clicks", "set seed 4", "run 3s"}); len(got) != 2 {
		t.Fatalf("a recording keeps every line but the seed: %q", got)
	}
}

// TestGoldenLessonTable is lesson 8's text where it lays out Flink's
// restart strategies, a table in the lesson's Markdown: drawn as a table
// in the widest pane (200×50), and in a pane too narrow for its columns
// as a list, a row an item and its cells nested items named by their
// column.
func TestGoldenLessonTable(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}} {
		m, _, _ := lessonModel(t, "8", size.w, size.h)
		for range paneCount {
			if m.Focus() == PaneLesson {
				break
			}
			m, _ = press(t, m, "tab")
		}
		text := plain(m.guide.Text())
		at := strings.Index(text, "Restart strategies")
		if at < 0 {
			t.Fatalf("%dx%d: no table's heading in the lesson:\n%s", size.w, size.h, text)
		}
		for range strings.Count(text[:at], "\n") {
			m, _ = press(t, m, "down")
		}
		view := m.View()
		checkSize(t, view, size.w, size.h)
		shown := plain(view)
		wants := []string{"Restart strategies", "• `none`", "gives up: at the first", "`fixed-delay`"}
		if size.w >= 200 {
			wants = []string{"Restart strategies", "strategy            │ parameters (defaults) │ gives up", "─┼─", "`none`              │ —"}
		}
		for _, want := range wants {
			if !strings.Contains(shown, want) {
				t.Errorf("%dx%d: %q is not on screen:\n%s", size.w, size.h, want, shown)
			}
		}
		golden(t, "lesson8_table_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
}

// A follow-up "in a new session" on a step done opens one with its job
// line, without a restart question, and the lesson stays on that step.
func TestFollowUpInANewSessionStaysInTheStep(t *testing.T) {
	m, eng, s := lessonModel(t, "membership", 120, 40)
	l, _ := lessons.Find("membership")
	m = lines(t, m, eng, s, l.Steps[0].Solution...)
	gen := m.frame.Gen
	m = lines(t, m, eng, s, "job passthrough", "set mode append", "set semantics at-least-once", "set filter bloom n=100 p=0.5", "run 300")
	if m.frame.Gen == gen || m.guide.Step() != 0 || !m.guide.Held() {
		t.Fatalf("session %d (was %d), step shown %d, held %v", m.frame.Gen, gen, m.guide.Step()+1, m.guide.Held())
	}
	if v := plain(m.View()); !strings.Contains(v, "Step 1 of ") || !strings.Contains(v, "✓ done · n goes on to step 2") {
		t.Errorf("the step done is not on screen:\n%s", v)
	}
}

// n goes on in a lesson, except in the focused filter pane, where it is
// the pane's own key (probe a new id) and the help bar says so.
func TestNextStepKeyLeavesTheFilterPaneItsN(t *testing.T) {
	m, eng, _ := lessonModel(t, "membership", 120, 40)
	m, _ = press(t, m, "n")
	if r, ok := eng.last(); !ok || r.Kind != bridge.GoOn {
		t.Fatalf("n in the pipeline pane sent %+v, want GoOn", r)
	}
	eng.reqs = nil
	m.setFocus(PaneFilter)
	m, _ = press(t, m, "n")
	for _, r := range eng.reqs {
		if r.Kind == bridge.GoOn {
			t.Error("n in the filter pane went on in the lesson")
		}
	}
	if help := plain(m.helpBar.Line(m.activeKeys(), m.w)); strings.Contains(help, "next step") {
		t.Errorf("the help bar offers n for the next step in the filter pane: %s", help)
	}
}
