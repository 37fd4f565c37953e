package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// newClicks starts clicks under ha (with its semantics) and jmHA.
func newClicks(t *testing.T, semantics Semantics, ha HAScheme, jmHA JobManagerHA, rs restart.Strategy) *Runtime {
	t.Helper()
	spec, _ := jobspec.Builtin("clicks")
	cfg := DefaultConfig()
	cfg.Semantics, cfg.HA, cfg.JobManagerHA, cfg.Lease = semantics, ha, jmHA, 15*time.Second
	cfg.Restart = rs
	rt, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return rt
}

func runFor(t *testing.T, rt *Runtime, d time.Duration) {
	t.Helper()
	rt.AdmitFor(d)
	if err := rt.Run(context.Background()); err != nil && rt.Snapshot().State != StateFailed {
		t.Fatal(err)
	}
}

func statesOf(s Snapshot) map[string]NodeState {
	out := map[string]NodeState{}
	for _, n := range s.Nodes {
		out[n.Name] = n.State
	}
	return out
}

// After the leader dies its tasks are cancelled, and nothing runs until a
// standby holds the lease: the snapshot shows no leader, the lease's end,
// every task cancelled and their counts still; then the new leader.
func TestSnapshotDrawsTheLeaderlessLease(t *testing.T) {
	rt := newClicks(t, ExactlyOnce, HAPassiveStandby, JobManagerHAStandby, restart.Strategy{})
	runFor(t, rt, 10*time.Second)
	if jm := rt.Snapshot().JobManager; jm.State != JobManagerLeader || jm.Standbys != 1 {
		t.Fatalf("before the kill: %+v", jm)
	}
	died := rt.NowMS()
	if err := rt.Kill(JobManager); err != nil {
		t.Fatal(err)
	}
	before := rt.Snapshot()
	runFor(t, rt, 10*time.Second) // less than the lease
	s := rt.Snapshot()
	if s.JobManager.State != JobManagerNoLeader || s.JobManager.LeaseEndsMS != died+15000 {
		t.Fatalf("during the lease: %+v, the leader died at %d", s.JobManager, died)
	}
	for i, n := range s.Nodes {
		if n.State != NodeCancelled || n.In != before.Nodes[i].In {
			t.Fatalf("during the lease %s is %s with %d in (had %d): a task ran without a leader", n.Name, n.State, n.In, before.Nodes[i].In)
		}
	}
	runFor(t, rt, 10*time.Second)
	s = rt.Snapshot()
	if s.JobManager.State != JobManagerLeader || s.JobManager.Failovers != 1 {
		t.Fatalf("after the lease: %+v", s.JobManager)
	}
	for _, n := range s.Nodes {
		if n.State != NodeRunning {
			t.Fatalf("after the election %s is %s", n.Name, n.State)
		}
	}
}

// A job that fails is drawn failed, with its reason and when, the failed
// task failed and the others cancelled, with no restart on the way.
func TestSnapshotDrawsAFailedJob(t *testing.T) {
	none, _ := restart.Parse(restart.None, nil)
	rt := newClicks(t, AtLeastOnce, HAUpstreamBackup, JobManagerHANone, none)
	if err := rt.KillAt("count[1]", 300); err != nil {
		t.Fatal(err)
	}
	runFor(t, rt, 30*time.Second)
	s := rt.Snapshot()
	if s.State != StateFailed || !strings.Contains(s.Error, "count[1]") {
		t.Fatalf("state %s, error %q", s.State, s.Error)
	}
	if s.FailedAtMS <= 0 || s.FailedAtMS >= s.TimeMS {
		t.Fatalf("failed at %d, the admitted time ends at %d: the failure is not the end of the run", s.FailedAtMS, s.TimeMS)
	}
	want := map[string]NodeState{"source": NodeCancelled, "parse": NodeCancelled, "count[0]": NodeCancelled, "count[1]": NodeFailed, "sink": NodeCancelled}
	for _, n := range s.Nodes {
		if n.State != want[n.Name] || n.HasRestart {
			t.Fatalf("%s is %s (restart %v), want %s with none", n.Name, n.State, n.HasRestart, want[n.Name])
		}
	}
}

// Without a standby the job manager dies with its job.
func TestSnapshotDrawsADeadJobManager(t *testing.T) {
	rt := newClicks(t, ExactlyOnce, HAPassiveStandby, JobManagerHANone, restart.Strategy{})
	runFor(t, rt, 10*time.Second)
	died := rt.NowMS()
	if err := rt.Kill(JobManager); err != nil {
		t.Fatal(err)
	}
	runFor(t, rt, 10*time.Second)
	s := rt.Snapshot()
	if s.JobManager.State != JobManagerDead || s.JobManager.Standbys != 0 || s.State != StateFailed || s.FailedAtMS != died {
		t.Fatalf("job %s at %d, job manager %+v; it died at %d", s.State, s.FailedAtMS, s.JobManager, died)
	}
	for name, st := range statesOf(s) {
		if st != NodeCancelled {
			t.Fatalf("%s is %s after its job manager died", name, st)
		}
	}
}

// Under active standby a failover leaves the node running on its replica
// with no standby until a new one is up.
func TestSnapshotDrawsTheActiveStandby(t *testing.T) {
	rs, _ := restart.Parse(restart.FixedDelay, map[string]string{"attempts": "3", "delay": "10s"})
	rt := newClicks(t, AtLeastOnce, HAActiveStandby, JobManagerHANone, rs)
	runFor(t, rt, 5*time.Second)
	for _, n := range rt.Snapshot().Nodes {
		if n.Standby != StandbyReady {
			t.Fatalf("%s's standby is %q before any failure", n.Name, n.Standby)
		}
	}
	if err := rt.Kill("count[1]"); err != nil {
		t.Fatal(err)
	}
	s := rt.Snapshot()
	n := s.Nodes[3]
	if n.Name != "count[1]" || n.State != NodeRunning || n.Standby != StandbyNone || !n.HasStandbyAt || n.StandbyAtMS <= s.TimeMS {
		t.Fatalf("after the failover: %+v", n)
	}
	runFor(t, rt, 15*time.Second)
	if n := rt.Snapshot().Nodes[3]; n.Standby != StandbyReady {
		t.Fatalf("after the restart delay count[1]'s standby is %q", n.Standby)
	}
}
