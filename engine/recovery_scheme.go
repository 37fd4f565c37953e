package engine

// scheme is one high-availability mechanism's part in recovery (Hwang et
// al., 2005): what a failure does, what a replacement starts from, and what
// the mechanism does while nothing fails. recovery keeps what every scheme
// shares — scheduled kills and restarts, the restart strategy, the counts —
// and asks its scheme at each of these points; newScheme is the one place
// that tells the schemes apart.
type scheme interface {
	// failed handles the failure of n at now, of kind (TaskFailure or
	// LostTaskManager). It reports whether the scheme dealt with it
	// entirely (an active standby took over), and otherwise whether every
	// task restarts (precise recovery) or n alone.
	failed(n *node, now int64, kind string) (handled, whole bool)
	// holdsWatermark reports whether a dead input keeps holding back the
	// watermark of the nodes it feeds: its records will be replayed.
	holdsWatermark() bool
	// sent observes a record n sent toward downstream node index t.
	sent(n *node, t int, r Record)
	// marker observes a marker n aligned.
	marker(n *node, e element)
	// start readies the state of n's replacement before it rejoins its
	// downstream nodes; replay then sends it what it must see again and
	// says how many records and in what words.
	start(n *node)
	replay(n *node) (records int64, how string)
	// restartSource positions a replaced source that comes back at virtual
	// time at and says how many records it will read again.
	restartSource(at int64) (replayed int64)
	// restartJob positions the source once every task restarted at at (a
	// failover, or a job manager's new leader) and says how much it replays.
	restartJob(at int64) (records int64, how string)
	// cancel is told that every task is being cancelled.
	cancel(why string)
	// backlog is how many records n's output queues hold for its
	// downstream nodes.
	backlog(n *node) int64
}

// newScheme builds the mechanism ha names for rc.
func newScheme(rc *recovery, ha HAScheme) scheme {
	switch ha {
	case HAUpstreamBackup:
		return newUpstreamBackup(rc)
	case HAPassiveStandby:
		return newPassiveStandby(rc)
	case HAActiveStandby:
		return newActiveStandby(rc)
	}
	return gapRecovery{rc: rc}
}

// quietScheme is what a scheme does by default while nothing fails:
// nothing, and nothing held.
type quietScheme struct{}

func (quietScheme) sent(*node, int, Record) {}
func (quietScheme) marker(*node, element)   {}
func (quietScheme) cancel(string)           {}
func (quietScheme) backlog(*node) int64     { return 0 }
