package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// failureSchedule runs clicks under ha with kills drawn from seed (and a
// job manager failure part way), and returns every event the bus carried.
func failureSchedule(t *testing.T, ha HAScheme, seed uint64) (*Runtime, []bus.Event) {
	t.Helper()
	spec, _ := jobspec.Builtin("clicks")
	cfg := DefaultConfig()
	cfg.HA, cfg.Semantics = ha, map[HAScheme]Semantics{HANone: AtMostOnce, HAUpstreamBackup: AtLeastOnce,
		HAPassiveStandby: ExactlyOnce, HAActiveStandby: AtLeastOnce}[ha]
	cfg.JobManagerHA, cfg.Lease = JobManagerHAStandby, 15*time.Second
	cfg.Deployment = DeployManaged
	cfg.Restart, _ = restart.Parse(restart.FixedDelay, map[string]string{"attempts": "3", "delay": "1s"})
	rt, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	sub := rt.Bus().Subscribe(1 << 20)
	rnd := rand.New(rand.NewPCG(seed, 7))
	nodes := []string{"source", "parse", "count[0]", "count[1]", "sink"}
	for range 3 {
		rt.KillAt(nodes[rnd.IntN(len(nodes))], 200+rnd.Int64N(3000))
	}
	ctx := context.Background()
	rt.Admit(1500 + rnd.Int64N(1000))
	rt.Run(ctx)
	if rnd.IntN(2) == 0 {
		rt.Kill(JobManager)
	}
	rt.AdmitFor(time.Duration(5+rnd.IntN(30)) * time.Second)
	rt.Run(ctx)
	rt.Kill(nodes[rnd.IntN(len(nodes))])
	rt.AdmitFor(40 * time.Second)
	rt.Run(ctx)
	evs, missed := sub.Drain()
	if missed > 0 {
		t.Fatalf("%d events missed", missed)
	}
	return rt, evs
}

// One clock: whatever fails when, the bus tells events in virtual-time
// order, a failure's "killed" after nothing later than it, a new leader
// no sooner than the lease after the leader died, and a failed job's end
// at the failure that ended it, not at the end of the admitted time.
func TestEventsFollowOneClock(t *testing.T) {
	for _, ha := range []HAScheme{HANone, HAUpstreamBackup, HAPassiveStandby, HAActiveStandby} {
		for seed := range uint64(12) {
			t.Run(fmt.Sprintf("%s/%d", ha, seed), func(t *testing.T) {
				rt, evs := failureSchedule(t, ha, seed)
				var jmDied int64 = -1
				for i, e := range evs {
					if i > 0 && e.TimeMS < evs[i-1].TimeMS {
						t.Fatalf("event %d (%s at %d: %.60s) told after %s at %d", i, e.Kind, e.TimeMS, e.Text, evs[i-1].Kind, evs[i-1].TimeMS)
					}
					switch {
					case e.Kind == bus.EventNodeKilled && e.Node == JobManager:
						jmDied = e.TimeMS
					case e.Kind == bus.EventLeaderElected:
						if jmDied < 0 || e.TimeMS < jmDied+15000 {
							t.Fatalf("leader elected at %d, the leader died at %d with a 15 s lease", e.TimeMS, jmDied)
						}
					case e.Kind == bus.EventJobFailed:
						if rt.Snapshot().TimeMS == e.TimeMS && !strings.Contains(e.Text, "job manager") {
							continue // failed at the very end: nothing to tell apart
						}
						for _, later := range evs[i+1:] {
							if later.TimeMS != e.TimeMS {
								t.Fatalf("the job failed at %d, then %s at %d", e.TimeMS, later.Kind, later.TimeMS)
							}
						}
					}
				}
			})
		}
	}
}
