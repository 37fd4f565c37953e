package lab_test

import (
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
)

// kill and fail in a script fail: each form (now, at a record count, at
// commit) fails the node once, of its kind, and the restart strategy
// restarts it. The lab's whole subject is failures, so a kill that quietly
// did nothing, or answered that it is not available, would leave every
// lesson hollow.
func TestScriptKillsKill(t *testing.T) {
	const restart = "set restart exponential-delay\n" // gap recovery restarts nothing unless told
	for _, c := range []struct {
		name, script string
		task         bool
	}{
		{"now", "job clicks\n" + restart + "run 500\nkill count[1]\nrun 500\nrun 30s\n", false},
		{"at", "job clicks\n" + restart + "kill parse at 300\nrun 1000\nrun 30s\n", false},
		{"at commit", "job clicks\nset semantics exactly-once\nset sink table\nkill sink at commit\nrun 2500\nrun 30s\n", false},
		{"fail now", "job clicks\n" + restart + "run 500\nfail count[1]\nrun 500\nrun 30s\n", true},
		{"fail at", "job clicks\n" + restart + "fail parse at 300\nrun 1000\nrun 30s\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := runIn(t, t.TempDir(), c.script, lab.Options{})
			r := rep.Recovery
			if r.Failures != 1 || r.Restarts != 1 || len(r.Unfired) != 0 {
				t.Fatalf("recovery %+v", r)
			}
			if (r.TaskFailures == 1) != c.task || r.TaskFailures+r.TaskManagersLost != 1 {
				t.Fatalf("task failures %d, task managers lost %d; want a task failure: %t", r.TaskFailures, r.TaskManagersLost, c.task)
			}
		})
	}
}
