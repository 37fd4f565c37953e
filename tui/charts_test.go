package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/tui/runs"
)

// ledgerLab is the clicks job under passive standby with count[1] killed
// once it has processed 300 records, after twelve seconds: killed,
// replaced five seconds later, checkpoints on either side.
func ledgerLab(t testing.TB, w, h int) (Model, *fakeEngine, *session) {
	t.Helper()
	s := newSession(t, "clicks", "set semantics at-least-once", "set ha passive-standby", "set checkpoint.interval 300", "kill count[1] at 300")
	m, eng := labModel(t, w, h, s)
	m = s.run(m, 12*time.Second)
	return m, eng, s
}

// focusPane tabs to pane p.
func focusPane(t testing.TB, m Model, p Pane) Model {
	t.Helper()
	for range paneCount {
		if m.Focus() == p {
			return m
		}
		m, _ = press(t, m, "tab")
	}
	t.Fatalf("tab never reached pane %d", p)
	return m
}

// The ledger chart: at 120×40 it sits under the numbers by itself; at
// 80×24 c swaps the numbers for it. Either way the kill, the replacement
// and the checkpoints are marked, on a time axis, from the engine's
// timeline.
func TestGoldenLedgerChart(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m, _, _ := ledgerLab(t, size.w, size.h)
		m = focusPane(t, m, PaneLedger)
		if size.w == 80 {
			if strings.Contains(plain(m.View()), "killed") {
				t.Error("80×24 shows the chart before c")
			}
			m, _ = press(t, m, "c")
		}
		view := m.View()
		checkSize(t, view, size.w, size.h)
		text := plain(view)
		for _, want := range []string{"events", "deliv", "lost", "✗", "▲", "•", "0s", "kill", "restart"} {
			if !strings.Contains(text, want) {
				t.Errorf("%d×%d: no %q in\n%s", size.w, size.h, want, text)
			}
		}
		tl := m.frame.Timeline
		if len(tl.Marks) < 3 || len(tl.Samples) == 0 {
			t.Fatalf("the timeline has %d marks and %d samples", len(tl.Marks), len(tl.Samples))
		}
		golden(t, "ledger_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
	// c again brings the numbers and their sparklines back.
	m, _, _ := ledgerLab(t, 80, 24)
	m = focusPane(t, m, PaneLedger)
	m, _ = press(t, m, "c", "c")
	if text := plain(m.View()); strings.Contains(text, "restart ") || !strings.Contains(text, "expected") {
		t.Errorf("c twice:\n%s", text)
	}
}

// The Filter pane's chart of the false-positive rate against the ids
// offered, at 80×24 (the shared slot) and 120×40 (stacked).
func TestGoldenFilterChart(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m, _, _ := bloomLab(t, size.w, size.h)
		m = focusFilter(t, m)
		m, _ = press(t, m, "c")
		view := m.View()
		checkSize(t, view, size.w, size.h)
		text := plain(view)
		f := m.frame.Snap.Filter
		wants := []string{"formula", "fill", "ids", "rate now", "●"}
		if size.w >= 120 {
			wants = append(wants, "false positives", "measured ·", "expected")
		} else {
			wants = append(wants, "exp ")
		}
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%d×%d: no %q in\n%s", size.w, size.h, want, text)
			}
		}
		if f == nil || f.Curve.N == 0 {
			t.Fatal("no curve measured")
		}
		golden(t, "filterchart_"+itoa(size.w)+"x"+itoa(size.h), view)
	}
}

// Charts of the learner's runs: each finished run of lesson 7's steps is
// a point of its scheme, and the same runs answer lesson 6's chart when
// they checkpointed. Nothing is there before a run finishes.
func TestRunsChartsFromFinishedRuns(t *testing.T) {
	m, eng, s := lessonModel(t, "high-availability", 80, 24)
	m, _ = press(t, m, "C")
	if !m.runs.Active() || m.runs.View() != runs.ViewHA {
		t.Fatalf("C in lesson 7: active %v, view %d", m.runs.Active(), m.runs.View())
	}
	if text := plain(m.View()); !strings.Contains(text, "No run under an HA scheme") || !strings.Contains(text, "C/esc") {
		t.Errorf("before any run:\n%s", text)
	}
	m, _ = press(t, m, "esc")
	if m.runs.Active() {
		t.Fatal("esc did not close the charts")
	}
	for _, ha := range []string{"upstream-backup", "passive-standby"} {
		m = lines(t, m, eng, s, "job clicks", "set semantics at-least-once", "set ha "+ha, "kill count[1] at 1200", "run 3000", "run 30s")
		m = goOn(t, m, eng, s)
	}
	got := m.Runs()
	if len(got) != 2 || got[0].HA != "upstream-backup" || got[1].HA != "passive-standby" || got[0].Gen == got[1].Gen {
		t.Fatalf("runs %+v", got)
	}
	for _, r := range got {
		if r.Failures != 1 || r.RecoveryMS <= 0 || r.OverheadBytes <= 0 {
			t.Errorf("a run's numbers: %+v", r)
		}
	}
	m, _ = press(t, m, "C")
	view := m.View()
	checkSize(t, view, 80, 24)
	text := plain(view)
	for _, want := range []string{"recovery time against overhead", "U upstream backup", "upstream-backup", "passive-standby"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	// Both marks are plotted, inside the chart (a line with the axis).
	for _, mark := range []string{"U", "P"} {
		if !regexp.MustCompile(`│[^│]*` + mark).MatchString(text) {
			t.Errorf("no %s plotted:\n%s", mark, text)
		}
	}
	golden(t, "runs_80x24", view)
	m, _ = press(t, m, "tab")
	text = plain(m.View())
	if m.runs.View() != runs.ViewInterval || !strings.Contains(text, "checkpoint interval against replay") || !strings.Contains(text, "1.0k") {
		t.Errorf("tab to lesson 6's chart:\n%s", text)
	}
	m, _ = press(t, m, "C")
	if m.runs.Active() {
		t.Error("C did not close the charts")
	}
}
