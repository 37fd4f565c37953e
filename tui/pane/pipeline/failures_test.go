package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/styles"
)

// clicksRun starts the clicks job with cfg changed by set, runs it for d
// and returns it.
func clicksRun(t *testing.T, d time.Duration, set func(*engine.Config)) *engine.Runtime {
	t.Helper()
	spec, _ := jobspec.Builtin("clicks")
	cfg := engine.DefaultConfig()
	set(&cfg)
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	advance(rt, d)
	return rt
}

func advance(rt *engine.Runtime, d time.Duration) {
	rt.AdmitFor(d)
	_ = rt.Run(context.Background()) // a failed job is what some tests want
}

// drawn renders the pipeline pane of rt's snapshot at 120×14 with the
// lab's clock at clock.
func drawn(rt *engine.Runtime, clock int64) string {
	m := New(styles.New(styles.Mono))
	m.SetSize(120, 14)
	m.SetFrame(bridge.Frame{Gen: 1, Snap: rt.Snapshot(), ClockMS: clock})
	return ansi.Strip(m.View())
}

func mustDraw(t *testing.T, view string, want []string, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Errorf("%q not drawn:\n%s", w, view)
		}
	}
	for _, n := range not {
		if strings.Contains(view, n) {
			t.Errorf("%q drawn:\n%s", n, view)
		}
	}
}

// The job manager is drawn as the node that leads the others: the leader
// and its standby; after `kill jobmanager`, no leader, the lease counting
// down and every task cancelled (none running, none at a rate); after the
// lease, the standby leading.
func TestTheJobManagerIsDrawn(t *testing.T) {
	rt := clicksRun(t, 10*time.Second, func(c *engine.Config) {
		c.Semantics, c.HA, c.JobManagerHA, c.Lease = engine.ExactlyOnce, engine.HAPassiveStandby, engine.JobManagerHAStandby, 15*time.Second
	})
	mustDraw(t, drawn(rt, 10_000), []string{"jobmanager ● leader · ○ 1 standby", "● running"}, nil)
	died := rt.NowMS()
	if err := rt.Kill(engine.JobManager); err != nil {
		t.Fatal(err)
	}
	advance(rt, 5*time.Second)
	mustDraw(t, drawn(rt, died+7000),
		[]string{"jobmanager ✗ no leader · lease runs out in 8.0s", "✗ cancelled", "waits for a leader"},
		[]string{"● running", "/s", "r restarts", "restarting"})
	advance(rt, 15*time.Second)
	mustDraw(t, drawn(rt, died+20_000), []string{"jobmanager ● leader · ○ 1 standby · 1 failover", "● running"}, []string{"cancelled"})
}

// Without a standby the job fails with its job manager: drawn failed, with
// the reason, every task cancelled, and no key offered to restart any.
func TestAFailedJobIsDrawnFailed(t *testing.T) {
	rt := clicksRun(t, 10*time.Second, func(c *engine.Config) {
		c.Semantics, c.HA = engine.ExactlyOnce, engine.HAPassiveStandby
	})
	if err := rt.Kill(engine.JobManager); err != nil { // at 0:10.0, the end of the run
		t.Fatal(err)
	}
	advance(rt, 10*time.Second)
	mustDraw(t, drawn(rt, 20_000), []string{"✗ failed at 0:10.0 · the job manager died", "✗ cancelled", "job failed"},
		[]string{"● running", "/s", "r restarts", "KILLED"})

	none, _ := restart.Parse(restart.None, nil)
	rt = clicksRun(t, 0, func(c *engine.Config) {
		c.Semantics, c.HA, c.Restart = engine.AtLeastOnce, engine.HAUpstreamBackup, none
	})
	if err := rt.KillAt("count[1]", 300); err != nil {
		t.Fatal(err)
	}
	advance(rt, 20*time.Second)
	mustDraw(t, drawn(rt, 20_000), []string{"✗ failed at", "count[1] failed", "failed the job", "✗ cancelled"},
		[]string{"● running", "r restarts", "KILLED"})
}

// Under active standby every node shows its replica; a failover leaves the
// node running on it, drawn as taken over until a new standby is up.
func TestTheActiveStandbyIsDrawn(t *testing.T) {
	rs, _ := restart.Parse(restart.FixedDelay, map[string]string{"attempts": "3", "delay": "10s"})
	rt := clicksRun(t, 5*time.Second, func(c *engine.Config) {
		c.Semantics, c.HA, c.Restart = engine.AtLeastOnce, engine.HAActiveStandby, rs
	})
	mustDraw(t, drawn(rt, 5000), []string{"standby ○"}, []string{"took over"})
	at := rt.NowMS()
	if err := rt.Kill("count[1]"); err != nil {
		t.Fatal(err)
	}
	mustDraw(t, drawn(rt, at+1000), []string{"took over", "sb in 9.0s"}, nil)
}

// Under passive standby a failover shows the primary down and what takes
// over: the latest completed checkpoint, restored when the restart is due.
func TestThePassiveStandbyIsDrawn(t *testing.T) {
	rt := clicksRun(t, 0, func(c *engine.Config) {
		c.Semantics, c.HA = engine.AtLeastOnce, engine.HAPassiveStandby
	})
	if err := rt.KillAt("count[1]", 300); err != nil {
		t.Fatal(err)
	}
	rt.AdmitFor(6 * time.Second)
	for i := 0; i < 1_000_000; i++ { // step until count[1] is down
		if rt.Snapshot().Nodes[3].State != engine.NodeRunning {
			break
		}
		if did, _ := rt.Step(); !did {
			t.Fatal("count[1] never went down")
		}
	}
	s := rt.Snapshot()
	mustDraw(t, drawn(rt, s.TimeMS), []string{"restores checkpoint 1", "◐ restarting", "┌─ count[1] ─", "✗ down"}, []string{"r restarts"})
}

// kill sink at commit: the sink dies between the checkpoint's completion
// and its commit; the whole job restarts, and the sink is drawn down.
func TestASinkKilledAtCommitIsDrawnDown(t *testing.T) {
	rt := clicksRun(t, 0, func(c *engine.Config) {
		c.Semantics, c.HA, c.Sink = engine.ExactlyOnce, engine.HAPassiveStandby, engine.SinkTable
	})
	if err := rt.KillAtCommit("sink"); err != nil {
		t.Fatal(err)
	}
	rt.AdmitFor(15 * time.Second)
	for i := 0; rt.Snapshot().Nodes[4].State == engine.NodeRunning; i++ {
		if did, _ := rt.Step(); !did || i > 1_000_000 {
			t.Fatal("the sink never went down")
		}
	}
	view := drawn(rt, rt.Snapshot().TimeMS)
	mustDraw(t, view, []string{"✗ down"}, nil)
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "✗ down") && strings.Count(l, "✗ down") != 1 {
			t.Errorf("more than the sink drawn down:\n%s", view)
		}
	}
}
