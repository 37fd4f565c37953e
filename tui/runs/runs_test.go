package runs

import (
	"flag"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package's goldens are the lab's, in package tui.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func reportOf(ha engine.HAScheme, interval, failures, replayed, recoveryMS, overhead int64) *report.Report {
	r := &report.Report{}
	r.Job.Name = "clicks"
	r.Config.HA, r.Config.CheckpointInterval = string(ha), interval
	r.Recovery.Failures, r.Recovery.Replayed, r.Recovery.TimeMS, r.Recovery.OverheadBytes = failures, replayed, recoveryMS, overhead
	return r
}

func TestHistoryKeepsASessionsLatestRun(t *testing.T) {
	var h History
	h.Add(1, reportOf(engine.HAUpstreamBackup, 1000, 0, 0, 0, 100))
	h.Add(1, reportOf(engine.HAUpstreamBackup, 1000, 1, 1400, 19000, 480)) // the same session ran on
	h.Add(2, reportOf(engine.HAPassiveStandby, 100, 1, 90, 6000, 5000))
	h.Add(3, nil)
	rs := h.Runs()
	if len(rs) != 2 || rs[0].Failures != 1 || rs[0].Replayed != 1400 || rs[1].Gen != 2 {
		t.Fatalf("%+v", rs)
	}
	if c := Checkpointed(rs); len(c) != 1 || c[0].Gen != 2 {
		t.Errorf("checkpointed %+v", c)
	}
	if r := Recovered(rs); len(r) != 2 {
		t.Errorf("recovered %+v", r)
	}
	for gen := range int64(100) {
		h.Add(10+gen, reportOf(engine.HANone, 1000, 1, 0, 0, 0))
	}
	if rs := h.Runs(); len(rs) != MaxRuns || rs[len(rs)-1].Gen != 109 {
		t.Errorf("%d runs kept, the last of session %d", len(rs), rs[len(rs)-1].Gen)
	}
}

func TestOverlayDrawsTheLearnersRuns(t *testing.T) {
	m := New(styles.New(styles.Mono), true)
	for i, iv := range []int64{100, 500, 2000} {
		m.Add(int64(i+1), reportOf(engine.HAPassiveStandby, iv, 1, iv/2, 5000+iv, 10_000/iv*100))
	}
	m.Open(-1)
	if m.View() != ViewInterval {
		t.Errorf("three checkpointed runs opened on view %d", m.View())
	}
	lines := m.Lines(76, 21)
	text := ansi.Strip(strings.Join(lines, "\n"))
	for _, want := range []string{"checkpoint interval against replay", "2.0k", "#3", "1.0k", "o"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if len(lines) != 21 {
		t.Errorf("%d lines", len(lines))
	}
	m.Open(ViewHA)
	text = ansi.Strip(strings.Join(m.Lines(76, 21), "\n"))
	if !strings.Contains(text, "P") || !strings.Contains(text, "passive-standby") {
		t.Errorf("HA view:\n%s", text)
	}
}

// Runs of different jobs are not one series: the interval chart marks
// each job's runs with its own number and joins only a job's runs, and
// both tables say which job each run was.
func TestRunsOfDifferentJobsAreToldApart(t *testing.T) {
	m := New(styles.New(styles.Mono), true)
	for i, iv := range []int64{100, 500, 2000} {
		rep := reportOf(engine.HAPassiveStandby, iv, 1, iv/2, 5000+iv, 10_000/iv*100)
		if i == 1 {
			rep.Job.Name = "passthrough"
		}
		m.Add(int64(i+1), rep)
	}
	m.Open(ViewInterval)
	text := ansi.Strip(strings.Join(m.Lines(76, 21), "\n"))
	for _, want := range []string{"1 clicks · 2 passthrough", "a line joins one job's runs"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for run, job := range map[string]string{"#1": "clicks", "#2": "passthrough", "#3": "clicks"} {
		if !regexp.MustCompile(run + ` +` + job + ` `).MatchString(text) {
			t.Errorf("run %s is not shown as %s's:\n%s", run, job, text)
		}
	}
	rs := m.Runs()
	pts := m.intervalPoints(rs, jobsOf(rs))
	if pts[0].Series != pts[2].Series || pts[0].Series == pts[1].Series || pts[0].Mark == pts[1].Mark {
		t.Errorf("clicks' and passthrough's runs share a series or a mark: %+v", pts)
	}
	m.Open(ViewHA)
	text = ansi.Strip(strings.Join(m.Lines(76, 21), "\n"))
	if !regexp.MustCompile(`#2 +passthrough +passive-standby`).MatchString(text) {
		t.Errorf("the scheme table does not say run #2 was passthrough's:\n%s", text)
	}
}
