package tui

import (
	"strings"
	"testing"
	"time"
)

// A job that fails is drawn failed on the whole screen: the status bar
// says failed (not paused), the pipeline says why and when with its tasks
// cancelled, the clock stops where it failed, and neither k nor r offers
// a node: nothing restarts a failed job.
func TestAFailedJobOnTheLabScreen(t *testing.T) {
	s := newSession(t, "clicks", "set semantics at-least-once", "set restart none", "kill count[1] at 300")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, 15*time.Second)
	view := plain(m.View())
	for _, want := range []string{"✗ failed", "✗ failed at 0:0", "count[1] failed", "✗ cancelled"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not on the screen:\n%s", want, view)
		}
	}
	for _, not := range []string{"⏸ paused", "● running", "r restarts", "KILLED", "t 0:15"} {
		if strings.Contains(view, not) {
			t.Errorf("%q on the screen of a failed job:\n%s", not, view)
		}
	}
	for _, verb := range []string{"r", "k"} {
		m2, _ := press(t, m, verb, "enter")
		if msg, isErr := m2.Message(); !isErr || !strings.Contains(msg, "the job has failed") {
			t.Errorf("%s on a failed job: message %q", verb, msg)
		}
	}
	if len(eng.reqs) != 0 {
		t.Errorf("sent %+v to a failed job", eng.reqs)
	}
}

// After kill jobmanager with a standby the screen shows the job manager
// without a leader and its lease counting down, the tasks cancelled, and
// after the lease the standby leading and the tasks running.
func TestTheLeaderlessLeaseOnTheLabScreen(t *testing.T) {
	s := newSession(t, "clicks", "set semantics exactly-once", "set jobmanager.ha standby")
	m, eng := labModel(t, 120, 40, s)
	m = s.run(m, 5*time.Second)
	if v := plain(m.View()); !strings.Contains(v, "jobmanager ● leader · ○ 1 standby") {
		t.Fatalf("no job manager drawn:\n%s", v)
	}
	m = typeText(t, m, ":kill jobmanager")
	m, _ = press(t, m, "enter")
	s.forward(eng)
	m = s.run(m, 5*time.Second)
	view := plain(m.View())
	for _, want := range []string{"jobmanager ✗ no leader · lease runs out in 11s", "✗ cancelled", "waits for a leader"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q not on the screen:\n%s", want, view)
		}
	}
	if strings.Contains(view, "● running") {
		t.Errorf("a task drawn running without a leader:\n%s", view)
	}
	m = s.run(m, 11*time.Second)
	view = plain(m.View())
	if !strings.Contains(view, "jobmanager ● leader · ○ 1 standby · 1 failover") || strings.Contains(view, "cancelled") {
		t.Errorf("after the lease:\n%s", view)
	}
}
