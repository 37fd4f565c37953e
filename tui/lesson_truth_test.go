package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/lessons"
)

// ledgerLost reads the Ledger pane's lost figure off a screen: the number
// on its "lost" row (the chart's strip label has no number beside it).
var ledgerLost = regexp.MustCompile(`│lost +([0-9.]+k?) `)

// TestEveryLessonsScreenTellsTheTruth types each lesson as its steps say,
// through the real model and bridge at 120×40, and reads the screen a
// second of virtual time apart while the runs play:
//
//   - under a guarantee that preserves input (at-least-once, exactly-once)
//     and no membership filter dropping by mistake, the Ledger never
//     shows a record lost: what a failure holds back is owed, not lost;
//   - every node a step kills is seen down on the pipeline, and where it
//     comes back, seen running again after;
//   - a killed job manager is seen without a leader, or its job failed.
func TestEveryLessonsScreenTellsTheTruth(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		t.Run(l.ID, func(t *testing.T) {
			m, eng, s := lessonModel(t, l.ID, 120, 40)
			for i, st := range l.Steps {
				kills := killed(st.Solution)
				down := map[string]bool{} // seen down on screen in this step
				back := map[string]bool{} // seen running on screen after that
				jmDown := false
				for _, line := range st.Solution {
					m = typeLine(t, m, eng, s, line)
					look := func(m Model, screen string) {
						if screen == "" {
							return
						}
						snap := m.frame.Snap
						if preservesInput(snap) {
							if got := ledgerLost.FindStringSubmatch(screen); got != nil && got[1] != "0" {
								t.Fatalf("step %d, %q at t %d ms: the Ledger shows lost %s under %s with nothing dropped by mistake (owed %d):\n%s",
									i+1, line, m.frame.ClockMS, got[1], snap.Semantics, snap.Ledger.Owed, screen)
							}
						}
						for _, n := range snap.Nodes {
							if !kills[n.Name] {
								continue
							}
							// An active standby takes over at once: the
							// failure shows as the standby used up.
							tookOver := n.Standby == engine.StandbyNone && strings.Contains(screen, "took over")
							if (n.State != engine.NodeRunning && shownDown(screen)) || tookOver {
								down[n.Name] = true
							} else if n.State == engine.NodeRunning && down[n.Name] && strings.Contains(screen, "● running") {
								back[n.Name] = true
							}
						}
						if strings.Contains(screen, "jobmanager ✗") || strings.Contains(screen, "✗ failed") {
							jmDown = true
						}
					}
					m, _ = playWatching(t, m, s, look)
					// The run's last screen too: a job that fails stops
					// playing where it failed.
					look(m, plain(m.View()))
				}
				for name := range kills {
					if name == "jobmanager" {
						if !jmDown {
							t.Errorf("step %d kills the job manager, but it was never seen without a leader", i+1)
						}
						continue
					}
					if !down[name] {
						t.Errorf("step %d kills %s, but it was never seen down on screen", i+1, name)
					}
					if n := nodeNamed(m.frame.Snap, name); n != nil && n.State == engine.NodeRunning && !back[name] {
						t.Errorf("step %d: %s is running again, but was never seen coming back", i+1, name)
					}
				}
				m = goOn(t, m, eng, s)
			}
		})
	}
}

// killed names the nodes a step's lines kill or fail (the job manager
// too).
func killed(lines []string) map[string]bool {
	out := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 2 && (f[0] == "kill" || f[0] == "fail") {
			out[f[1]] = true
		}
	}
	return out
}

// preservesInput reports whether nothing may be lost on the frame's job:
// a guarantee that replays its input, no filter false drop, a job that
// has not failed.
func preservesInput(s engine.Snapshot) bool {
	if s.Semantics != "at-least-once" && s.Semantics != "exactly-once" {
		return false
	}
	if s.Filter != nil && s.Filter.FalseDrops > 0 {
		return false
	}
	return s.State != engine.StateFailed
}

// shownDown reports whether the pipeline draws a node that is not running.
func shownDown(screen string) bool {
	for _, w := range []string{"✗ down", "◐ restarting", "✗ cancelled", "✗ failed", "✗ KILLED"} {
		if strings.Contains(screen, w) {
			return true
		}
	}
	return false
}

func nodeNamed(s engine.Snapshot, name string) *engine.NodeSnapshot {
	for i := range s.Nodes {
		if s.Nodes[i].Name == name {
			return &s.Nodes[i]
		}
	}
	return nil
}
