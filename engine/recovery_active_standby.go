package engine

import (
	"fmt"

	"github.com/streamlab/streamlab/engine/bus"
)

// activeStandby runs a replica of every node on the same input, its output
// held back: a failed node's replica takes over at once with nothing to
// replay (at the price of doing all the work twice).
type activeStandby struct {
	quietScheme
	rc *recovery
}

func newActiveStandby(rc *recovery) *activeStandby {
	a := &activeStandby{rc: rc}
	for _, n := range rc.r.g.nodes {
		a.provision(n)
	}
	return a
}

// failed fails n over to its standby, or fails the job when the last one
// has already taken over and the next is not up yet.
func (a *activeStandby) failed(n *node, now int64, kind string) (handled, whole bool) {
	if !n.standby {
		// Replaying nothing, the scheme has nothing to fall back on.
		a.rc.lose(n)
		a.rc.r.fail(now, fmt.Errorf("%s failed with no active standby left to take over: its last one took over and the next is not up yet; active standby covers one failure at a time", n.name))
		return true, false
	}
	a.takeOver(n, now, kind)
	return true, false
}

func (*activeStandby) holdsWatermark() bool { return true }
func (*activeStandby) start(*node)          {}
func (*activeStandby) replay(n *node) (int64, string) {
	return 0, fmt.Sprintf("%s replaced", n.name)
}
func (*activeStandby) restartSource(int64) int64 { return 0 }

// restartJob restarts from the beginning of the source, every node with a
// new standby: there are no checkpoints to restore.
func (a *activeStandby) restartJob(int64) (int64, string) {
	for _, n := range a.rc.r.g.nodes {
		a.provision(n)
	}
	return rewindToStart(a.rc.r)
}

// provision brings up an active standby for n: a replica with a copy of
// its state (a state transfer), fed the same input from now on.
func (a *activeStandby) provision(n *node) {
	n.standby = true
	if n.stage == 0 || n.op == operator(a.rc.r.sink) {
		return // a second reader of the log; a sink holding the same rows
	}
	rep, _ := a.rc.r.newOp(n.spec)
	if s, ok := n.op.(stateful); ok {
		rep.(stateful).restore(s.snapshot())
	}
	n.rep = rep
}

// takeOver fails n over to its active standby: the replica has seen the
// same input, so it goes on where the primary stopped, with nothing to
// replay and nothing lost. A new standby comes up after the restart
// strategy's delay (and, when managed, the provisioning delay); until then
// another failure of n has no standby to take over.
func (a *activeStandby) takeOver(n *node, now int64, kind string) {
	rc := a.rc
	r := rc.r
	if n.rep != nil {
		r.carryLate(n.op, n.rep)
		n.op = n.rep
	}
	n.rep, n.standby = nil, false
	n.restarts++
	rc.restarted++
	rc.eventAt(now, bus.EventNodeRestarted, n.name, fmt.Sprintf("%s failed; its active standby took over at once, with nothing to replay", n.name), 0)
	delay, err := rc.backoff.OnFailure(now)
	if err != nil {
		r.fail(now, fmt.Errorf("%s failed and %w", n.name, err))
		return
	}
	p := restartPlan{node: n, at: now + delay, failedAt: now, standby: true, kind: kind, slot: rc.slotAfter(kind, now),
		up: func() { a.provision(n) }}
	rc.restarts = append(rc.restarts, p)
}
