package engine

// openSink fails the sink task as it opens its connection when the job's
// database driver is missing (MissingDriver): at the start of the job and
// again after every restart that brings the sink back, as Flink's JDBC
// sink does when Class.forName cannot find the driver. The failure goes
// through the restart strategy like any task failure (`fail sink`): the
// task manager stays, so nothing waits for a new one. It reports whether
// it failed the sink.
func (rc *recovery) openSink() bool {
	r := rc.r
	if r.noDriver == nil || r.state != StateRunning || rc.jmDown {
		return false
	}
	n := r.g.nodes[len(r.g.nodes)-1]
	if n.dead {
		return false
	}
	if err := r.failuresAllowed(); err != nil {
		r.fail(rc.now(), r.noDriver)
		return true
	}
	rc.killWith(n, rc.now(), TaskFailure, r.noDriver)
	return true
}
