package engine

import "fmt"

// passiveStandby is precise recovery with aligned checkpoints (exactly-once):
// a failure restarts every task from the latest completed checkpoint and
// rewinds the source to its offsets.
type passiveStandby struct {
	quietScheme
	rc *recovery
}

func newPassiveStandby(rc *recovery) *passiveStandby {
	rc.ckpt = newCoordinator(rc.r)
	rc.r.cur.every = rc.r.cfg.CheckpointInterval
	return &passiveStandby{rc: rc}
}

// failed restarts the whole job: the pipelined region of a job whose sink
// gathers every node is the whole job (Flink's region failover gives the
// same), and a checkpoint in progress cannot complete without the failed
// task.
func (p *passiveStandby) failed(n *node, _ int64, _ string) (handled, whole bool) {
	p.rc.ckpt.abortPending(n.name + " failed")
	return false, true
}

func (*passiveStandby) holdsWatermark() bool { return true }

// marker begins a checkpoint when the source injects its barrier and takes
// each node's snapshot when the barrier has aligned there.
func (p *passiveStandby) marker(n *node, e element) {
	switch {
	case e.kind != kindBarrier:
	case n.stage == 0:
		p.rc.ckpt.begin(e.id, p.rc.r.cur.pos)
	default:
		p.rc.ckpt.ack(n, e.id)
	}
}

// cancel aborts the checkpoints in progress and injects no new barriers
// until the job restarts.
func (p *passiveStandby) cancel(why string) {
	p.rc.ckpt.abortPending(why)
	p.rc.r.cur.every = 0
}

// A single task is never replaced on its own under precise recovery.
func (*passiveStandby) start(*node) {}
func (*passiveStandby) replay(n *node) (int64, string) {
	return 0, fmt.Sprintf("%s replaced", n.name)
}
func (*passiveStandby) restartSource(int64) int64 { return 0 }

// restartJob restores the latest completed checkpoint.
func (p *passiveStandby) restartJob(int64) (int64, string) {
	r, c := p.rc.r, p.rc.ckpt
	r.cur.every = r.cfg.CheckpointInterval
	from := r.cur.off
	at := c.restore()
	return from - at, fmt.Sprintf("job restored from checkpoint %d: every node's state restored, the source rewound from offset %d to %d", c.restoredID, from, at)
}
