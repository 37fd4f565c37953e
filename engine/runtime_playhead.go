package engine

// NowMS is the playhead: the virtual time the source has reached, that is
// the arrival of the next record it will emit, or the end of the admitted
// time once it has emitted everything admitted. It moves only as the
// scheduler steps, so a caller that steps until NowMS passes a target
// paces a run by virtual time without the run depending on when it steps:
// stepping to quiet afterwards is exactly what Run does. A recovery that
// rewinds the source moves it back.
func (r *Runtime) NowMS() int64 { return r.cur.now() }

// AdmittedUntilMS is the end of the admitted virtual time: where NowMS
// stands once everything admitted has been emitted.
func (r *Runtime) AdmittedUntilMS() int64 { return r.cur.clock }

// PaceTo holds back what happens while the source is down — a restart of
// the whole job — until virtual time ms. Nothing else moves the clock then,
// so without it such a restart is carried out as soon as the scheduler
// looks, however far ahead in the admitted time it is due; a player that
// steps a run in wall time (the terminal lab) sets the time it has reached,
// so the job is seen down for as long as it is. The restart still happens
// at its own time in the model, so the outcome is the same whatever the
// pace. math.MaxInt64, the default, lifts it.
func (r *Runtime) PaceTo(ms int64) { r.pace = ms }

// Held reports whether the job is down as a whole with a restart PaceTo is
// holding back: quiet for now, not finished.
func (r *Runtime) Held() bool {
	return r.state == StateRunning && r.g.nodes[0].dead && len(r.recovery.restarts) > 0 && r.pace < r.cur.clock
}

// FailedAtMS is the virtual time the job failed at, and whether it has:
// its clock stops there, whatever was admitted after.
func (r *Runtime) FailedAtMS() (int64, bool) {
	return r.failedMS, r.state == StateFailed
}
