package tui

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/reportview"
)

// reportPages opens the report overlay on the session's report and
// collects every row by paging through it, checking each frame's size.
func reportPages(t *testing.T, m Model, eng *fakeEngine, s *session, w, h int) (Model, string) {
	t.Helper()
	m, _ = press(t, m, "R")
	if !m.report.Active() {
		t.Fatal("R did not open the report")
	}
	if r, _ := eng.last(); r.Kind != bridge.WatchReport {
		t.Fatalf("R sent %+v, want WatchReport", r)
	}
	s.forward(eng)
	m.applyFrame(s.b.Frame())
	var all strings.Builder
	for i := 0; i < 40; i++ {
		view := m.View()
		checkSize(t, view, w, h)
		all.WriteString(plain(view))
		before := m.report.Offset()
		m, _ = press(t, m, "pgdown")
		if m.report.Offset() == before {
			break
		}
	}
	return m, all.String()
}

// Every report field that a lesson's text, steps, hints or check, or an
// exercise's task, names is on screen in the report overlay, at the smallest size, after the run
// that lesson 3 asks for.
func TestReportOverlayShowsEveryFieldLessonsName(t *testing.T) {
	s := newSession(t, "clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200")
	m, eng := labModel(t, 80, 24, s)
	m = s.run(m, 45*time.Second)
	m, screen := reportPages(t, m, eng, s, 80, 24)
	m, _ = press(t, m, "home")
	golden(t, "report_80x24", m.View())

	rep, err := s.b.Session().Report()
	if err != nil {
		t.Fatal(err)
	}
	rep.Config.Note, rep.Job.Error = "x", "x" // fields only present when set
	secs, err := reportview.Sections(rep)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, sec := range secs {
		for _, f := range sec.Fields {
			known[f.Name(sec)] = true
		}
	}
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile(`\b(job|config|source|window|sink|recovery|checkpoints|filter)\.[a-z_]+\b`)
	named := map[string]bool{}
	for _, l := range ls {
		text := []string{l.Text, l.Check.Question, l.Check.Explanation}
		for _, st := range l.Steps {
			text = append(text, st.Instruction)
			text = append(text, st.Hints...)
		}
		for _, found := range field.FindAllString(strings.Join(text, "\n"), -1) {
			if known[found] {
				named[found] = true
			}
		}
	}
	for _, ex := range exercises.List() {
		for _, found := range field.FindAllString(ex.Task, -1) {
			if known[found] {
				named[found] = true
			}
		}
	}
	if len(named) < 15 {
		t.Fatalf("only %d report fields found in the lessons: %v", len(named), named)
	}
	var names []string
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	// The overlay shows a section's heading, then its fields by their
	// names within it: both must be on screen.
	for _, n := range names {
		sec, key, _ := strings.Cut(n, ".")
		if n == "config.note" || n == "job.error" {
			continue // absent from this run's report: checked below
		}
		if !strings.Contains(screen, sec) || !regexp.MustCompile(`\b`+regexp.QuoteMeta(key)+`\b`).MatchString(screen) {
			t.Errorf("%s is named by a lesson but not shown in the report overlay", n)
		}
	}
	for _, want := range []string{"lost_in_flight", "downtime_ms", "dropped_late", "jobmanager_failovers", "leader_election_ms", "pending"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the report overlay does not show %s", want)
		}
	}
	// The numbers are the engine's.
	if !strings.Contains(screen, "lost_in_flight") || !regexp.MustCompile(`lost_in_flight\s+`+itoa(int(rep.Recovery.LostInFlight))+`\b`).MatchString(screen) {
		t.Errorf("lost_in_flight %d is not on screen:\n%s", rep.Recovery.LostInFlight, screen)
	}
	m, _ = press(t, m, "home", "R")
	if m.report.Active() {
		t.Error("R did not close the report")
	}
	if r, _ := eng.last(); r.Kind != bridge.StopReport {
		t.Errorf("closing sent %+v, want StopReport", r)
	}
}

// A weaker guarantee than asked shows its note in the report.
func TestReportOverlayShowsTheNote(t *testing.T) {
	s := newSession(t, "clicks", "set semantics exactly-once", "set sink log")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, 2*time.Second)
	rep, _ := s.b.Session().Report()
	if rep.Config.Note == "" {
		t.Fatal("exactly-once with a log sink gives at-least-once, and the report must say so in its note")
	}
	_, screen := reportPages(t, m, eng, s, 120, 40)
	if !strings.Contains(screen, "note") || !strings.Contains(strings.Join(strings.Fields(screen), " "), strings.Join(strings.Fields(rep.Config.Note), " ")[:30]) {
		t.Errorf("config.note %q not shown:\n%s", rep.Config.Note, screen)
	}
}

// > finishes a run that plays, the status bar saying how far it has got;
// the report command opens the overlay.
func TestFinishKeyAndReportCommand(t *testing.T) {
	s := newSession(t, "clicks")
	m, eng := labModel(t, 120, 40, s)
	m, _ = press(t, m, " ") // pause the session's running time
	s.forward(eng)
	m.applyFrame(s.b.Frame())
	m, _ = press(t, m, ">")
	if len(eng.reqs) != 0 {
		t.Errorf("> with no run playing sent %+v", eng.reqs)
	}
	m, _ = press(t, m, ":")
	m = typeText(t, m, "run 2000")
	m, _ = press(t, m, "enter")
	s.forward(eng)
	m = s.run(m, time.Second)
	if !m.frame.Playing || !strings.Contains(plain(m.View()), "▶ run to") {
		t.Fatalf("run 2000 is not shown playing:\n%s", plain(m.View()))
	}
	m, _ = press(t, m, ">")
	if r, _ := eng.last(); r.Kind != bridge.Finish {
		t.Fatalf("> sent %+v, want Finish", r)
	}
	s.forward(eng)
	m.applyFrame(s.b.Frame())
	if v := plain(m.View()); !strings.Contains(v, "▶ finishing · ") || !strings.Contains(v, " of 2.0k records") {
		t.Errorf("> is not shown finishing the run:\n%s", v)
	}
	m = s.playOut(t, m)
	if m.frame.Playing || m.frame.Snap.Offset < 2000 {
		t.Errorf("after >: playing %v, offset %d", m.frame.Playing, m.frame.Snap.Offset)
	}
	m, _ = press(t, m, ":")
	m = typeText(t, m, "report")
	m, _ = press(t, m, "enter")
	if !m.report.Active() {
		t.Error("the report command did not open the overlay")
	}
	s.forward(eng)
	m.applyFrame(s.b.Frame())
	if v := plain(m.View()); !strings.Contains(v, "lost_in_flight") || !strings.Contains(v, "Report at t") {
		t.Errorf("report overlay:\n%s", v)
	}
	m, _ = press(t, m, "esc")
	if m.report.Active() {
		t.Error("esc did not close the report")
	}
}

// The help overlay shows every key that works, at the smallest size too,
// scrolling when the keys do not fit.
func TestHelpOverlayShowsEveryKey(t *testing.T) {
	for _, lesson := range []bool{false, true} {
		var m Model
		if lesson {
			m, _, _ = lessonModel(t, "3", 80, 24)
		} else {
			m, _ = labModel(t, 80, 24, nil)
		}
		m, _ = press(t, m, "?")
		var seen strings.Builder
		for range 20 {
			view := m.View()
			checkSize(t, view, 80, 24)
			seen.WriteString(plain(view))
			m, _ = press(t, m, "down")
		}
		text := seen.String()
		for _, group := range m.activeKeys().FullHelp() {
			for _, b := range group {
				if d := b.Help().Desc; b.Enabled() && !strings.Contains(text, d) {
					t.Errorf("lesson %v: %q (%s) is not in the help overlay", lesson, d, b.Help().Key)
				}
			}
		}
	}
}

// TestServedReportHidesTheSeed: in a lab served with a grading secret
// (Options.ExerciseSeed), the R report does not show job.seed, the
// student's secret-derived seed; elsewhere it does.
func TestServedReportHidesTheSeed(t *testing.T) {
	const seed = 738291045517
	s := newSession(t, "clicks")
	rep, err := s.b.Session().Report()
	if err != nil {
		t.Fatal(err)
	}
	rep.Job.Seed = seed
	for _, served := range []bool{false, true} {
		opts := Options{Job: "clicks", Seed: 1, Speed: 1, Start: "lab:clicks", Theme: "default"}
		if served {
			opts.ExerciseSeed = func(string) int64 { return seed }
		}
		m := New(opts, newFake())
		m.report.SetReport(rep, "0:00", "")
		rows := plain(strings.Join(m.report.Rows(120), "\n"))
		if shown := strings.Contains(rows, "738291045517"); shown == served {
			t.Errorf("served %v: seed shown %v:\n%s", served, shown, rows)
		}
		if served && !strings.Contains(rows, "yours (not shown)") {
			t.Errorf("the hidden seed does not say so:\n%s", rows)
		}
	}
}
