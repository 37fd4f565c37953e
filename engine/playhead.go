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
