package engine

import "fmt"

// gapRecovery keeps nothing (ha none, at-most-once): a replacement starts
// empty from the current input, and what was in flight or arrived while a
// node was down is lost (Hwang et al.'s gap recovery).
type gapRecovery struct {
	quietScheme
	rc *recovery
}

func (gapRecovery) failed(*node, int64) (handled, whole bool) { return false, false }
func (gapRecovery) holdsWatermark() bool                      { return false }

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
	return 0, fmt.Sprintf("job restarted with empty state from the current input, offset %d: what arrived meanwhile is never read", g.rc.r.cur.off)
}
