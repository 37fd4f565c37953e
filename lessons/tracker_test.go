package lessons_test

import (
	"testing"
	"testing/fstest"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/lessons"
)

// lessonFS is a minimal lesson directory for tests: meta is its lesson.yaml.
func lessonFS(meta string) fstest.MapFS {
	return fstest.MapFS{
		"01-test/lesson.yaml": {Data: []byte(meta)},
		"01-test/lesson.md":   {Data: []byte("Some text.\n\n## In the real world\n\nFlink.\n")},
	}
}

func mustLoad(t *testing.T, meta string) *lessons.Lesson {
	t.Helper()
	ls, err := lessons.Load(lessonFS(meta))
	if err != nil {
		t.Fatal(err)
	}
	return ls[0]
}

const trackerMeta = `
id: test
title: Test
summary: A lesson for tests.
steps:
  - title: Kill
    instruction: Kill it.
    goal:
      event: node-killed
      node: count[1]
      expect:
        - config.semantics == at-most-once
    hints:
      - Kill count[1].
    solution: |
      job clicks
      kill count[1] at 10
      run 100
  - title: Lost
    instruction: Look.
    goal:
      expect: [sink.lost > 0, "job.state == running"]
    hints: [Look at sink.lost.]
    solution: run 10
  - title: Refused
    instruction: Ask for too much.
    goal:
      rejected: not available yet
    hints: [Try active standby.]
    solution: set ha active-standby
check:
  kind: choice
  question: Which?
  options: [a, b]
  answer: 2
  explanation: Because.
`

func reportOf(semantics string, lost int64) *report.Report {
	return &report.Report{
		Job:    report.JobReport{Name: "clicks", State: string(engine.StateRunning)},
		Config: report.ConfigReport{Semantics: semantics},
		Sink:   report.SinkReport{Lost: lost},
	}
}

func TestTrackerFollowsStepsInOrder(t *testing.T) {
	l := mustLoad(t, trackerMeta)
	tr := lessons.NewTracker(l, 0)
	killed := []bus.Event{{Kind: bus.EventNodeKilled, Node: "count[1]"}}

	// The event without the condition, and the condition without the
	// event, do not finish the step.
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-least-once", 5), Events: killed, Session: 1}); len(got) != 0 {
		t.Fatalf("finished %v with the wrong semantics", got)
	}
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 0), Session: 2}); len(got) != 0 {
		t.Fatalf("finished %v without the event in this session", got)
	}
	wrongNode := []bus.Event{{Kind: bus.EventNodeKilled, Node: "count[0]"}}
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 0), Events: wrongNode}); len(got) != 0 {
		t.Fatalf("finished %v on another node's event", got)
	}
	// A later step's goal does not count before its turn: a rejection now
	// is not remembered for step 3.
	tr.Observe(lessons.Observation{Rejected: []lessons.Rejection{{Line: "set ha active-standby", Err: "not available yet"}}})
	if tr.Done() != 0 {
		t.Fatalf("done = %d", tr.Done())
	}

	// One observation can finish several steps in a row.
	got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 3), Events: killed})
	if len(got) != 2 || got[0] != 0 || got[1] != 1 || tr.Done() != 2 {
		t.Fatalf("finished %v, done %d; want steps 0 and 1", got, tr.Done())
	}
	if i, st, ok := tr.Current(); !ok || i != 2 || st.Title != "Refused" {
		t.Fatalf("current = %d %v %t", i, st, ok)
	}
	if got := tr.Observe(lessons.Observation{Rejected: []lessons.Rejection{{Err: "lab:3:1: invalid configuration: ha active-standby is not available yet"}}}); len(got) != 1 || !tr.Finished() {
		t.Fatalf("finished %v, finished=%t", got, tr.Finished())
	}
	if _, _, ok := tr.Current(); ok {
		t.Fatal("a finished tracker has no current step")
	}
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 3), Events: killed}); got != nil {
		t.Fatalf("a finished tracker finished %v", got)
	}
}

func TestTrackerResumes(t *testing.T) {
	l := mustLoad(t, trackerMeta)
	for _, tc := range []struct{ done, want int }{{-3, 0}, {1, 1}, {3, 3}, {99, 3}} {
		if got := lessons.NewTracker(l, tc.done).Done(); got != tc.want {
			t.Errorf("NewTracker(l, %d).Done() = %d, want %d", tc.done, got, tc.want)
		}
	}
	// Resumed at step 2, the first goal no longer matters.
	tr := lessons.NewTracker(l, 1)
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-least-once", 1)}); len(got) != 1 || got[0] != 1 {
		t.Fatalf("finished %v", got)
	}
}

func TestGoalsNeedAReport(t *testing.T) {
	l := mustLoad(t, trackerMeta)
	g := l.Steps[1].Goal
	if g.Met(lessons.Observation{}) {
		t.Fatal("an expect holds without a report")
	}
	if want := "sink.lost > 0 and job.state == running"; g.String() != want {
		t.Errorf("String() = %q, want %q", g.String(), want)
	}
	if want := "node-killed on count[1] while config.semantics == at-most-once"; l.Steps[0].Goal.String() != want {
		t.Errorf("String() = %q, want %q", l.Steps[0].Goal.String(), want)
	}
}

func TestExpectComparesLikeTheLabScript(t *testing.T) {
	rep := &report.Report{
		Job:    report.JobReport{Name: "clicks", State: string(engine.StateFailed), Error: "boom"},
		Sink:   report.SinkReport{Duplicates: 3, Correct: true},
		Config: report.ConfigReport{Restart: "fixed-delay attempts=1 delay=1s"},
	}
	for expr, want := range map[string]bool{
		"duplicates == 3":      true, // a short name, as in lab scripts
		"sink.duplicates<4":    true,
		"sink.duplicates >= 4": false,
		"sink.duplicates != 3": false,
		"sink.correct == true": true,
		"sink.correct != true": false,
		"job.state == failed":  true,
		`job.error == "boom"`:  true,
		`config.restart == "fixed-delay attempts=1 delay=1s"`: true,
		"job.state > 3":      false, // a type mismatch never holds
		"sink.correct == 1":  false,
		"job.state < failed": false,
		"no.such.field == 1": false,
	} {
		e, err := lessons.ParseExpect(expr)
		if err != nil {
			t.Fatalf("%q: %v", expr, err)
		}
		if got := e.Holds(rep); got != want {
			t.Errorf("%q holds = %t, want %t", expr, got, want)
		}
	}
	// A job that has not failed has no job.error: that never holds.
	e, _ := lessons.ParseExpect(`job.error == ""`)
	if e.Holds(&report.Report{}) {
		t.Error("job.error of a running job holds")
	}
	for _, bad := range []string{"", "sink.lost", "sink.lost = 0", "sink.lost == 0 junk"} {
		if _, err := lessons.ParseExpect(bad); err == nil {
			t.Errorf("ParseExpect(%q) gave no error", bad)
		}
	}
}

// In a played run the event and the condition can hold at different
// moments of one session: a node killed before the report says what the
// step asks.
func TestTrackerRemembersAnEventWithinItsSession(t *testing.T) {
	l := mustLoad(t, trackerMeta)
	tr := lessons.NewTracker(l, 0)
	killed := []bus.Event{{Kind: bus.EventNodeKilled, Node: "count[1]"}}
	if got := tr.Observe(lessons.Observation{Events: killed, Session: 4}); len(got) != 0 {
		t.Fatalf("finished %v without a report", got)
	}
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 0), Session: 4}); len(got) != 1 || got[0] != 0 {
		t.Fatalf("finished %v, want step 0 once the report follows the kill", got)
	}
	// In another session the kill is forgotten.
	tr = lessons.NewTracker(l, 0)
	tr.Observe(lessons.Observation{Events: killed, Session: 4})
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 0), Session: 5}); len(got) != 0 {
		t.Fatalf("finished %v with the kill of another session", got)
	}
}

func TestTrackerHoldsAFinishedStepUntilGoOn(t *testing.T) {
	l := mustLoad(t, trackerMeta)
	tr := lessons.NewTracker(l, 0)
	tr.HoldFinishedSteps()
	killed := []bus.Event{{Kind: bus.EventNodeKilled, Node: "count[1]"}}
	// The kill meets step 1, and the same report would meet step 2: held,
	// step 2 waits for the learner to go on.
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 5), Events: killed}); len(got) != 1 || got[0] != 0 {
		t.Fatalf("finished %v, want [0]", got)
	}
	if !tr.Held() || tr.Done() != 1 {
		t.Fatalf("held %v done %d, want held after step 1", tr.Held(), tr.Done())
	}
	// A follow-up in a new session is observed but judges nothing.
	if got := tr.Observe(lessons.Observation{Report: reportOf("at-most-once", 7), Session: 1}); len(got) != 0 {
		t.Fatalf("a held step let %v finish", got)
	}
	// Going on judges step 2 on the last observation, and holds it.
	if got := tr.GoOn(); len(got) != 1 || got[0] != 1 || !tr.Held() {
		t.Fatalf("GoOn finished %v (held %v), want [1] held", got, tr.Held())
	}
	if got := tr.GoOn(); len(got) != 0 || tr.Held() {
		t.Fatalf("GoOn onto the refusal step finished %v (held %v), want none", got, tr.Held())
	}
	if got := tr.Observe(lessons.Observation{Rejected: []lessons.Rejection{{Line: "set ha active-standby", Err: "not available yet"}}, Session: 1}); len(got) != 1 || !tr.Finished() || !tr.Held() {
		t.Fatalf("finished %v, finished-all %v, held %v: the last step is held too, before the check", got, tr.Finished(), tr.Held())
	}
	if got := tr.GoOn(); len(got) != 0 || tr.Held() || !tr.Finished() {
		t.Fatalf("GoOn after the last step finished %v (held %v)", got, tr.Held())
	}
}

func TestTrackerGoOnIsANoOpWhenNothingIsHeld(t *testing.T) {
	tr := lessons.NewTracker(mustLoad(t, trackerMeta), 0)
	tr.HoldFinishedSteps()
	if got := tr.GoOn(); got != nil || tr.Done() != 0 {
		t.Fatalf("GoOn with nothing held finished %v, done %d", got, tr.Done())
	}
}
