package engine

import "context"

// Steps is how many steps the deterministic scheduler has taken: a measure
// of work that is the same on every machine under any load, which a grader
// budgets instead of wall time. It is 0 under the concurrent executor.
func (r *Runtime) Steps() int64 {
	if r.det == nil {
		return 0
	}
	return r.det.steps
}

// RunSteps processes what is admitted, as Run does, but for at most n
// iterations of the scheduler, and reports whether the job went quiet
// first. A run split into RunSteps calls and finished by Run processes
// exactly what one Run would have, in the same order, so a caller can
// check a budget between slices of a long run without changing its
// outcome. It needs the deterministic executor.
func (r *Runtime) RunSteps(ctx context.Context, n int64) (quiet bool, err error) {
	return r.RunWithin(ctx, n, Work{})
}

// Work is the work a run has done that a step does not measure, counted
// so that a budget on it gives the same verdict on every machine: one
// step can check a million window timers or copy megabytes of state.
type Work struct {
	// TimerChecks counts the window timers triggers looked at: a
	// window-count node holds one timer a key and window (as Flink
	// registers one event-time timer for each), and each trigger checks
	// every one it holds, so windows a lagging watermark keeps open cost
	// again at every trigger.
	TimerChecks int64
	// CheckpointBytes counts the operator state copied into checkpoints:
	// a checkpoint every record copies the whole state every record.
	CheckpointBytes int64
}

// Over reports whether w has passed limit in a count limit sets (above 0).
func (w Work) Over(limit Work) bool {
	return (limit.TimerChecks > 0 && w.TimerChecks > limit.TimerChecks) ||
		(limit.CheckpointBytes > 0 && w.CheckpointBytes > limit.CheckpointBytes)
}

// Work returns the work done so far. It costs O(nodes).
func (r *Runtime) Work() Work {
	var w Work
	for _, n := range r.g.nodes {
		w.TimerChecks += n.timerChecks
	}
	if r.recovery != nil && r.recovery.ckpt != nil {
		w.CheckpointBytes = r.recovery.ckpt.copied
	}
	return w
}

// Timers is how many window timers the run holds now: one for each key
// and window a window-count node (or its active standby) keeps open.
func (r *Runtime) Timers() int64 {
	var n int64
	for _, x := range r.g.nodes {
		n += openTimers(x.op) + openTimers(x.rep)
	}
	return n
}

// openTimers is how many window timers op holds: none unless it counts in
// windows.
func openTimers(op operator) int64 {
	if w, ok := op.(*windowCount); ok {
		return int64(w.openWindows())
	}
	return 0
}

// StateBytes is the state the run holds now, as a checkpoint would write
// it out: every operator's (windows, filters) and active standby's, the
// checkpoints kept and in progress, and the records upstream backup
// keeps. It costs O(state): read it between slices of a run.
func (r *Runtime) StateBytes() int64 {
	var n int64
	for _, x := range r.g.nodes {
		for _, op := range []operator{x.op, x.rep} {
			if s, ok := op.(stateful); ok {
				n += s.stateBytes()
			}
		}
	}
	if r.recovery == nil {
		return n
	}
	n += r.recovery.backupNow * recordBytes
	if c := r.recovery.ckpt; c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.last != nil {
			n += c.last.bytes
		}
		for _, cp := range c.pending {
			n += cp.bytes
		}
	}
	return n
}

// RunWithin is RunSteps that also stops, not quiet, as soon as the run's
// Work passes limit in a count limit sets: the step that went over is the
// last, so a budget on work one step can do much of is overshot by one
// step's worth at most.
func (r *Runtime) RunWithin(ctx context.Context, n int64, limit Work) (quiet bool, err error) {
	if r.det == nil {
		return false, ErrNotDeterministic
	}
	limited := limit != Work{}
	for i := int64(0); i < n; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		if !r.stepOnce() {
			return true, nil
		}
		if limited && r.Work().Over(limit) {
			return false, nil
		}
	}
	return false, nil
}
