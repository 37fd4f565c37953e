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
	if r.det == nil {
		return false, ErrNotDeterministic
	}
	for i := int64(0); i < n; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		if !r.stepOnce() {
			return true, nil
		}
	}
	return false, nil
}
