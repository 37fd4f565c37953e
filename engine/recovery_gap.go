package engine

import "fmt"

// gapRecovery keeps nothing (ha none, at-most-once): Flink's job without
// checkpoints. A failed task takes its failover region down with it (the
// default failover strategy is region, and a job whose edges are all-to-all,
// as every job here with a keyed exchange, is one region), and the region
// restarts with empty state from each source's configured start position.
// At-most-once configures that start as the latest input (Kafka's latest
// offsets), so what was in flight, in state or arrived while the job was
// down is lost (Hwang et al.'s gap recovery); a source configured to start
// from its earliest offset would read everything again instead.
type gapRecovery struct {
	quietScheme
	rc *recovery
}

// failed restarts the region, which is the whole job.
func (gapRecovery) failed(*node, int64, string) (handled, whole bool) { return false, true }
func (gapRecovery) holdsWatermark() bool                              { return false }

// start joins the replacement to the input where it is, watermark
// included: a replacement without one would count records the job had
// already given up on.
func (g gapRecovery) start(n *node) {
	r := g.rc.r
	for _, u := range r.g.upstream(n) {
		if i := r.g.inputIndex(u); !u.dead && n.alive[i] {
			n.inWM[i] = u.wm
		}
	}
	n.advanceWatermark(r.det.routers[r.det.index[n]])
}

func (gapRecovery) replay(n *node) (int64, string) {
	return 0, fmt.Sprintf("%s replaced: it starts empty from the current input (gap recovery)", n.name)
}

// restartSource resumes at the current time: what arrived meanwhile is
// never read.
func (g gapRecovery) restartSource(at int64) int64 {
	g.rc.skipDowntime(at)
	return 0
}

func (g gapRecovery) restartJob(at int64) (int64, string) {
	g.rc.skipDowntime(at)
	return 0, fmt.Sprintf("job restarted with empty state, without checkpoints, from the source's configured start (the latest input), offset %d: what was in state and what arrived meanwhile is never read", g.rc.r.cur.off)
}
