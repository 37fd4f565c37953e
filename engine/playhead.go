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

// ReportSoFar is Report for a run that is still being processed: it leaves
// the failure-free run where the sink is (at the same batch, as Snapshot's
// ledger does) instead of draining it to the end of the admitted input, so
// the records not processed yet are not counted as lost. Once the run is
// quiet the two agree.
func (r *Runtime) ReportSoFar() Report {
	ref := r.ref
	r.ref = nil // Report drains the reference only when there is one
	defer func() { r.ref = ref }()
	return r.Report()
}
