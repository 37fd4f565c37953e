package lab_test

import (
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
)

// kill in a script kills: each form (now, at a record count, at commit)
// fails the node once, and the managed deployment restarts it. The lab's
// whole subject is failures, so a kill that quietly did nothing, or
// answered that it is not available, would leave every lesson hollow.
func TestScriptKillsKill(t *testing.T) {
	for _, c := range []struct{ name, script string }{
		{"now", "job clicks\nrun 500\nkill count[1]\nrun 500\nrun 30s\n"},
		{"at", "job clicks\nkill parse at 300\nrun 1000\nrun 30s\n"},
		{"at commit", "job clicks\nset semantics exactly-once\nset sink table\nkill sink at commit\nrun 2500\nrun 30s\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := runIn(t, t.TempDir(), c.script, lab.Options{})
			if rep.Recovery.Failures != 1 || rep.Recovery.Restarts != 1 || len(rep.Recovery.Unfired) != 0 {
				t.Fatalf("recovery %+v", rep.Recovery)
			}
		})
	}
}
