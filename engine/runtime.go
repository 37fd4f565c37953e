package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/deps"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/table"
)

// JobState is where a job is in its life: running until it finishes or fails.
type JobState string

// Job states.
const (
	StateRunning  JobState = "running"
	StateFinished JobState = "finished"
	StateFailed   JobState = "failed"
)

// ErrNotDeterministic is returned by operations only the deterministic
// executor supports, such as stepping one element at a time.
var ErrNotDeterministic = errors.New("only the deterministic executor can step")

// Runtime runs one job. It is not safe for concurrent use: one goroutine
// drives it (runs, steps, snapshots); observers use the Bus.
type Runtime struct {
	spec     jobspec.Spec
	cfg      Config
	src      *Source
	cur      *cursor
	g        *graph
	sink     *sinkOp
	writer   sinkWriter
	ref      *chain
	ledger   *Ledger
	lin      *lineage // where each sink row came from (lineage.go)
	bus      *bus.Bus
	det      *detExec
	recovery *recovery
	state    JobState
	err      error
	late     int64 // admitted records generated late
	wmOut    int64 // the sink's last published watermark
	// semantics and ha are in effect; note says why when weaker than asked.
	semantics Semantics
	ha        HAScheme
	note      string
	drops     int64 // last published dropped-late count
	// noDriver is the ClassNotFoundException the sink task meets whenever
	// it opens its connection (MissingDriver), or nil.
	noDriver error
	// tl is the ledger over virtual time with its marks, for charts.
	tl timeline
	// pace bounds the virtual time a whole-job restart may be carried out
	// by (PaceTo); math.MaxInt64 when nobody paces the run.
	pace int64
	// owedUntil is the place of the first trigger the source sent after a
	// failure stopped holding the job back; 0 once the job is quiet (ledger_owed.go).
	owedUntil int64
	// applied is the place of the last trigger whose batch the ledger has
	// counted: the failure-free run is compared there.
	applied int64
	// lateRetired counts the late records dropped by window counts that
	// were replaced since (carryLate): the total never goes back.
	lateRetired int64
	// told is the latest time an event was published at (see publish);
	// failedMS is when the job failed, once it has.
	told, failedMS int64
}

// dedupAfterAggregation reports whether a dedup stage filters an
// aggregation's result rows. One that filters input events before they
// are counted runs in every mode, as Spark runs dropDuplicates before a
// groupBy in complete mode; one after it would drop the rows complete
// mode repeats on purpose.
func dedupAfterAggregation(spec jobspec.Spec) bool {
	counted := false
	for _, o := range spec.Operators {
		switch o.Kind {
		case jobspec.KindWindowCount:
			counted = true
		case jobspec.KindDedup:
			if counted {
				return true
			}
		}
	}
	return false
}

// New prepares a job to run. Nothing is admitted until Run or Admit.
func New(spec jobspec.Spec, cfg Config) (*Runtime, error) {
	v, err := Validate(spec, cfg)
	if err != nil {
		return nil, err
	}
	spec, cfg = v.Spec, v.Config
	semantics, ha, note := v.Semantics, v.HA, v.Note
	src, err := NewSource(spec.Source, cfg.Seed)
	if err != nil {
		return nil, err
	}
	events := !aggregates(spec)
	r := &Runtime{spec: spec, cfg: cfg, src: src, bus: &bus.Bus{}, state: StateRunning, wmOut: math.MinInt64, pace: math.MaxInt64}
	r.cur = newCursor(src, &admissions{runEnd: -1}, spec.Source.Trigger, spec.Source.Watermark)
	var w sinkWriter = &logSink{}
	if cfg.Sink == SinkTable {
		ts, err := openTableSink(cfg.DBPath, cfg.Mode, events)
		if err != nil {
			if errors.Is(err, table.ErrInUse) {
				return nil, fmt.Errorf("table sink: %w", err) // not a bad configuration: try again later
			}
			if cfg.DBPath == "" { // a private temporary file: nothing the user gave is wrong
				return nil, fmt.Errorf("%w: the table sink's temporary database: %v", ErrInternal, err)
			}
			return nil, badConfig("table sink: %v", err)
		}
		// Only exactly-once commits in transactions: at-least-once asked for
		// no more, and shows what a sink without them receives.
		ts.transactional = semantics == ExactlyOnce && ha == HAPassiveStandby && cfg.SinkCommit == CommitTransactional
		ts.txn = func() int64 { return r.recovery.ckpt.txn }
		w = ts
	}
	r.writer = w
	r.sink = &sinkOp{writer: w, events: events, whole: cfg.Mode == ModeComplete, onCommit: r.committed, onHeld: r.held}
	if r.g, err = buildGraph(spec, r.newOp, r.sink); err != nil {
		w.close()
		return nil, err
	}
	if !cfg.NoLedger {
		r.ledger = newLedger(events, cfg.Mode, cfg.Sink)
		r.lin = newLineage(r.bus)
		r.sink.traced = true
		refSink := &sinkOp{writer: &logSink{}, events: events, onCommit: func(b sinkBatch) {
			r.ledger.apply(b.rows, false)
			// Whatever the failure-free run has read it has now committed:
			// the ledger may fold those offsets (ledger.go, Memory).
			r.ledger.settle(r.ref.cur.off)
		}}
		r.ref = newChain(spec, r.newOp, newCursor(src, r.cur.admissions, spec.Source.Trigger, spec.Source.Watermark), refSink)
		if w := lastWindowCount(r.ref.ops); w != nil { // it writes the sink's rows
			w.onLate, r.ledger.finalBelow, r.ledger.slide, r.ledger.size = r.ledger.addLate, w.finalBelow, w.slide, w.size
			r.ledger.windowTimes = func(key string, lo, hi int64, f func(t int64)) {
				// Only what it has read: a record it has yet to read
				// comes too late for a folded window, and counts in none.
				r.windowRecords(key, lo, hi, r.ref.cur.off, func(_, t int64) { f(t) })
			}
		}
		if r.ledger.keyed && src.RepeatedIDs(src.Len()) > 0 {
			// One row per id: the cell of an id's first event counts all of
			// them, and its exp is no longer that one record's alone.
			r.ledger.cellOf = src.firstWithID
		} else if events && recordPure(spec) {
			r.ledger.expOf = expProbe(spec, r.newOp, src)
		}
		// The timeline reads the kills, restarts and checkpoints from
		// the bus like any observer, as kinds and words.
		sub := r.bus.Subscribe(timelineEvents)
		r.tl.drain = func(mark func(ms int64, kind, node, text string)) int64 {
			evs, missed := sub.Drain()
			for _, e := range evs {
				mark(e.TimeMS, string(e.Kind), e.Node, e.Text)
			}
			return missed
		}
	}
	if cfg.Executor == ExecDeterministic {
		r.det = newDetExec(r.g, cfg.Seed, cfg.QueueCap)
	}
	r.recovery = newRecovery(r, ha)
	if r.det != nil {
		r.det.recovery = r.recovery
	}
	r.semantics, r.ha, r.note = semantics, ha, note
	r.noDriver = deps.MissingDriver(spec)
	r.publish(bus.Event{Kind: bus.EventJobStarted, Text: fmt.Sprintf("job %s started (seed %d, %s executor)", spec.Name, cfg.Seed, cfg.Executor)})
	return r, nil
}

// newOp makes the logic of one node of op.
func (r *Runtime) newOp(op jobspec.Operator) (operator, error) {
	switch op.Kind {
	case jobspec.KindDedup:
		d, err := newDedup(r.cfg.Filter)
		if err != nil {
			return nil, err
		}
		d.canon = r.src.firstWithID
		return d, nil
	case jobspec.KindBreachCheck:
		return newBreachCheck(r.cfg.Filter)
	}
	if o := newOperator(op, r.cfg.Mode); o != nil {
		return o, nil
	}
	return nil, badConfig("operator %q: unknown kind %q", op.Name, op.Kind)
}

// Bus is where the runtime publishes what happens.
func (r *Runtime) Bus() *bus.Bus { return r.bus }

// Spec is the job being run.
func (r *Runtime) Spec() jobspec.Spec { return r.spec }

// Config is the configuration the job runs with.
func (r *Runtime) Config() Config { return r.cfg }

// Source is the job's event log.
func (r *Runtime) Source() *Source { return r.src }

// Close releases the sink (and removes a temporary database).
func (r *Runtime) Close() error { return r.writer.close() }

// sinkTime is the virtual time the sink has got to: what it commits and
// acknowledges happens then, however far ahead the source has read.
func (r *Runtime) sinkTime() int64 { return r.recovery.reached(r.g.nodes[len(r.g.nodes)-1]) }

// committed is called for every micro-batch the real sink writes. A
// transactional sink's batch only counts once its transaction commits.
func (r *Runtime) committed(b sinkBatch) {
	b.trigger = r.sink.lastTrigger
	if ts, ok := r.writer.(*tableSink); ok && ts.transactional {
		c := r.recovery.ckpt
		b.rows, b.origins = slices.Clone(b.rows), slices.Clone(b.origins)
		c.batches[c.txn] = append(c.batches[c.txn], b)
		if r.ledger != nil {
			r.sampleLedger() // uncommitted rows
		}
	} else {
		r.ledgerApply(b)
	}
	r.publish(bus.Event{TimeMS: r.sinkTime(), Kind: bus.EventBatchCommitted, Node: kindSink, N: r.sink.batches,
		Text: fmt.Sprintf("batch %d committed: %d rows", r.sink.batches, len(b.rows))})
	sinkNode := r.g.nodes[len(r.g.nodes)-1]
	if sinkNode.wm > r.wmOut && sinkNode.wm != math.MinInt64 {
		r.wmOut = sinkNode.wm
		r.publish(bus.Event{TimeMS: r.sinkTime(), Kind: bus.EventWatermark, Node: kindSink, N: sinkNode.wm,
			Text: "watermark " + time.UnixMilli(sinkNode.wm).UTC().Format("15:04:05")})
	}
}

// held tells the learner, once per run of held triggers, why the
// complete-mode table stopped changing.
func (r *Runtime) held(inARow int64) {
	if inARow == 1 {
		r.publish(bus.Event{TimeMS: r.sinkTime(), Kind: bus.EventBatchHeld, Node: kindSink, N: inARow,
			Text: "batch held back: complete mode commits only a whole result table, and a counter is down or has just been replaced"})
	}
}

// fail stops the job with err at virtual time at, the time of the
// failure that ended it: the job's clock stops there, however far ahead
// the source had been admitted.
func (r *Runtime) fail(at int64, err error) {
	if r.state == StateFailed {
		return
	}
	r.state, r.err = StateFailed, err
	r.failedMS = at
	r.publish(bus.Event{TimeMS: at, Kind: bus.EventJobFailed, Text: "job failed: " + err.Error()})
}

// publish tells the bus about e in time order. The scheduler steps nodes
// that have got to different times, so an event is stamped with when it
// happened, but never before one already told: observers read one clock
// that does not run backwards within a job.
func (r *Runtime) publish(e bus.Event) {
	e.TimeMS = max(e.TimeMS, r.told)
	r.told = e.TimeMS
	r.bus.Publish(e)
}

// eventNow is the time of something the runtime notices between steps:
// where recovery's clock stands, or the failure's time once the job has
// failed (nothing happens after it).
func (r *Runtime) eventNow() int64 {
	if r.state == StateFailed {
		return r.failedMS
	}
	return r.recovery.now()
}

// stopMS is where the job's clock stands at the end of a run: the end of
// the admitted time, or the moment the job failed.
func (r *Runtime) stopMS() int64 {
	if r.state == StateFailed {
		return r.failedMS
	}
	return r.cur.clock
}

// Admit lets n more records into the source (fewer if a replayed file runs
// out) and returns how many it let in. Step or Run processes them.
func (r *Runtime) Admit(n int64) int64 {
	before, from := r.cur.limit, r.cur.clock
	got := r.cur.admitRecords(r.src, n)
	r.admitted(before, got, from)
	return got
}

// AdmitFor moves virtual time on by d and lets in what arrives meanwhile.
func (r *Runtime) AdmitFor(d time.Duration) int64 {
	before, from := r.cur.limit, r.cur.clock
	got := r.cur.admitFor(r.src, d)
	r.admitted(before, got, from)
	return got
}

// admitted tells of an admission of n records from offset from, made at
// virtual time at (where the admitted time begins: what it lets in
// arrives after).
func (r *Runtime) admitted(from, n, at int64) {
	for off := from; off < from+n; off++ {
		if r.src.IsLate(off) {
			r.late++
		}
	}
	if r.state == StateFailed {
		return // its clock stopped when it failed: nothing more happens to it
	}
	r.publish(bus.Event{TimeMS: at, Kind: bus.EventAdmitted, Node: kindSource, N: n,
		Text: fmt.Sprintf("%d records admitted (offsets %d–%d)", n, from, from+n-1)})
}

// Step processes one element at one node, chosen by the seeded scheduler,
// and reports whether there was anything to do.
func (r *Runtime) Step() (bool, error) {
	if r.det == nil {
		return false, ErrNotDeterministic
	}
	if r.state != StateRunning {
		return false, nil
	}
	did := r.stepOnce()
	r.checkSink()
	return did, nil
}

// stepOnce carries out a due restart, or lets one node process one
// element, then any kill that became due.
func (r *Runtime) stepOnce() bool {
	if r.state != StateRunning {
		return false
	}
	if r.recovery.due() || r.recovery.openSink() {
		return true
	}
	if !r.det.step(r.cur) {
		r.followFailure() // the whole job down: its clock still moves
		r.caughtUp()
		return false
	}
	if len(r.recovery.kills) > 0 {
		r.recovery.checkKills()
	}
	r.followFailure()
	r.checkMemory()
	return true
}

// Run processes everything admitted until the job is quiet.
func (r *Runtime) Run(ctx context.Context) error {
	if r.state != StateRunning {
		return r.err
	}
	var err error
	if r.det != nil {
		for i := 0; r.stepOnce(); i++ {
			if i%4096 == 0 {
				if err = ctx.Err(); err != nil {
					return err
				}
			}
		}
	} else if err = r.runConcurrent(ctx); err != nil {
		return err
	} else {
		r.followFailure()
		r.caughtUp()
	}
	r.checkSink()
	r.publish(bus.Event{TimeMS: r.stopMS(), Kind: bus.EventRunQuiet, N: r.cur.off, Text: fmt.Sprintf("quiet at offset %d", r.cur.off)})
	for _, k := range r.recovery.kills {
		text := fmt.Sprintf("kill %s at %d has not fired: %s has processed %d records so far", k.node.name, k.records, k.node.name, k.node.counts.In)
		if k.atCommit {
			text = fmt.Sprintf("kill %s at commit has not fired: no checkpoint has completed since", k.node.name)
		}
		r.publish(bus.Event{TimeMS: r.stopMS(), Kind: bus.EventKillUnfired, Node: k.node.name, N: k.records, Text: text})
	}
	return r.err
}

// jobManagerHA describes the job manager's high availability for reports.
func (r *Runtime) jobManagerHA() string {
	if r.cfg.JobManagerHA != JobManagerHAStandby {
		return string(JobManagerHANone)
	}
	return fmt.Sprintf("%s lease=%s", JobManagerHAStandby, r.cfg.Lease)
}

// runConcurrent runs what is admitted under the concurrent executor. A
// scheduled failure stops every goroutine; the job then fails over from
// its last checkpoint, single-threaded, and runs on.
func (r *Runtime) runConcurrent(ctx context.Context) error {
	for r.state == StateRunning {
		for r.recovery.due() {
		}
		if r.recovery.openSink() {
			continue
		}
		if r.g.nodes[0].dead {
			return nil // down until a restart is due: what arrives waits in the log
		}
		var mustDie func(*node) bool
		if len(r.recovery.kills) > 0 {
			mustDie = r.recovery.mustDie
		}
		failed, err := runConcurrent(ctx, r.g, r.cur, r.cfg.QueueCap, mustDie)
		if err != nil {
			return err
		}
		if failed == nil {
			return nil
		}
		r.recovery.checkKills()
	}
	return nil
}

// checkSink fails the job when the sink could not write.
func (r *Runtime) checkSink() {
	if r.sink.err != nil {
		r.fail(r.eventNow(), r.sink.err)
	}
	if d := r.droppedLate(); d > r.drops {
		r.drops = d
		r.publish(bus.Event{TimeMS: r.windowTime(), Kind: bus.EventDroppedLate, N: d, Text: fmt.Sprintf("%d records dropped late so far", d)})
	}
}

// windowTime is when the window counts dropped what they dropped last:
// the time the furthest of them has got to (not the source's, which may
// have read far ahead), or the failure's once the job has failed.
func (r *Runtime) windowTime() int64 {
	if r.state == StateFailed {
		return r.failedMS
	}
	var t int64
	for _, n := range r.g.nodes {
		if _, ok := n.op.(*windowCount); ok {
			t = max(t, r.recovery.reached(n))
		}
	}
	return t
}

// droppedLate counts the late records dropped so far, by the window
// counts running now and those they replaced.
func (r *Runtime) droppedLate() int64 {
	n := r.lateRetired
	for _, nd := range r.g.nodes {
		if w, ok := nd.op.(*windowCount); ok {
			n += w.droppedLate
		}
	}
	return n
}

// DumpSource writes the admitted source log as JSON Lines.
func (r *Runtime) DumpSource(w io.Writer) error { return r.src.Dump(w, r.cur.limit) }

// Ledger returns the ledger's totals, comparing the sink as committed so
// far with the failure-free run at the same batch.
func (r *Runtime) Ledger() (LedgerTotals, bool) {
	if r.ledger == nil {
		return LedgerTotals{}, false
	}
	return r.ledgerView(), true
}

// SinkRows returns the latest rows the sink committed, oldest first.
func (r *Runtime) SinkRows() []Record { return r.sink.latest() }

// SinkDigest identifies the sink's contents: two sinks with the same rows
// in the same order have the same digest.
func (r *Runtime) SinkDigest() uint64 {
	if l, ok := r.writer.(*logSink); ok {
		return l.digest
	}
	return 0
}

// Report describes the job as it stands. It drains the failure-free run to
// the end of the admitted input first, so the comparison is complete.
func (r *Runtime) Report() report.Report {
	if r.ref != nil {
		r.ref.drain()
		r.sampleFailure()
	}
	return r.report()
}

// ReportContext is Report, giving up with ctx's error when ctx ends while
// the failure-free run catches up with what was admitted (a time limit or
// a signal must not wait for millions of records).
func (r *Runtime) ReportContext(ctx context.Context) (report.Report, error) {
	if r.ref != nil {
		if err := r.ref.drainContext(ctx); err != nil {
			return report.Report{}, err
		}
		r.sampleFailure()
	}
	return r.report(), nil
}

// sampleFailure puts a failed job's ledger, once the failure-free run has
// gone through everything admitted, on the timeline at the failure: what
// the job will never deliver is lost there, so the chart ends where the
// ledger's figures stand.
func (r *Runtime) sampleFailure() {
	if r.state == StateFailed && r.ledger != nil {
		r.tl.sample(r.failedMS, r.ledgerView())
	}
}

// ReportSoFar is Report without first running the failure-free reference
// through everything admitted: the sink is compared with the reference up
// to the batches it has committed, so records not processed yet are not
// counted as lost. It is the report of a run still playing in the lab or
// interrupted by a signal, and costs no more than the work already done;
// once a run is quiet the two agree.
func (r *Runtime) ReportSoFar() report.Report { return r.report() }

// JobStateOf is the state a job report says, typed: reports keep it as
// text, since the report package stands below the engine.
func JobStateOf(job report.JobReport) JobState { return JobState(job.State) }

// reportedState is the job's state as its report says it: a running job
// whose source is read to its end is finished.
func (r *Runtime) reportedState() JobState {
	if r.src.Len() >= 0 && r.cur.off >= r.src.Len() && r.state == StateRunning {
		return StateFinished
	}
	return r.state
}

func (r *Runtime) report() report.Report {
	rows, err := r.writer.rows()
	if err != nil && r.err == nil {
		r.state, r.err = StateFailed, err
	}
	rep := report.Report{
		Job: report.JobReport{Name: r.spec.Name, State: string(r.reportedState()), Seed: r.cfg.Seed, Executor: string(r.cfg.Executor)},
		Config: report.ConfigReport{Semantics: string(r.semantics), Requested: string(r.cfg.Semantics), HA: string(r.ha), Note: r.note, Mode: string(r.cfg.Mode),
			Sink: string(r.cfg.Sink), Filter: filter.KindNone, Restart: r.cfg.Restart.String(), Deployment: string(r.cfg.Deployment),
			JobManagerHA: r.jobManagerHA()},
		Source: report.SourceReport{Records: r.cur.off, Offset: r.cur.off, Late: r.late, TimeMS: r.cur.clock, RepeatedIDs: r.src.RepeatedIDs(r.cur.off)},
		Sink:   report.SinkReport{Rows: rows, Batches: r.sink.batches},
		Filter: report.FilterReport{Kind: filter.KindNone},
	}
	if fs, ok := r.FilterStats(); ok {
		rep.Config.Filter = fs.Spec
		rep.Filter = report.FilterReport{Kind: fs.Kind, M: fs.M, K: fs.K, Inserted: fs.Inserted, FillRatio: fs.FillRatio,
			EstimatedFP: fs.EstimatedFP, MeasuredFP: fs.MeasuredFP, FalseDrops: fs.FalseDrops, ExpectedFalseDrops: fs.ExpectedFalseDrops, Bytes: fs.Bytes,
			Dropped: fs.Drops, ExactBytes: fs.ExactBytes, BitsSet: fs.BitsSet,
			BitsPerElement: fs.BitsPerElement, ExactBitsPerElement: fs.ExactBitsPerElement}
		if approx := fs.ApproxSize; !math.IsInf(approx, 0) { // every bit set: unknown
			rep.Filter.ApproxSize = &approx
		}
	}
	if r.err != nil {
		rep.Job.Error = r.err.Error()
	}
	if r.ha == HAPassiveStandby {
		rep.Config.CheckpointInterval = r.cfg.CheckpointInterval
	}
	if rc := r.recovery; rc != nil {
		rep.Recovery = report.RecoveryReport{Failures: rc.failures, Restarts: rc.restarted, TimeMS: rc.timeMS, DowntimeMS: rc.downtimeMS,
			Replayed: rc.replayed, LostInFlight: rc.lostFlight, BackupPeak: rc.backupPeak, BackupBytes: rc.backupPeak * recordBytes}
		for _, n := range r.g.nodes {
			rep.Recovery.StandbyWork += n.counts.Standby
		}
		rep.Recovery.Acks = rc.acks
		rep.Recovery.TaskFailures, rep.Recovery.TaskManagersLost, rep.Recovery.SlotTimeouts = rc.taskFailures, rc.tmLost, rc.slotTimeouts
		rep.Recovery.JobManagerFailovers, rep.Recovery.LeaderElectionMS = rc.jmFailovers, rc.electionMS
		rep.Recovery.Unfired = rc.unfired()
		rep.Recovery.OverheadBytes = rc.acks*ackBytes + rep.Recovery.StandbyWork*recordBytes
		if c := rc.ckpt; c != nil {
			rep.Checkpoints = report.CheckpointReport{Completed: c.completed, Aborted: c.aborted, Restores: c.restores, TotalBytes: c.totalBytes}
			rep.Recovery.OverheadBytes += c.totalBytes
			if c.last != nil {
				rep.Checkpoints.LastID, rep.Checkpoints.Bytes, rep.Checkpoints.Offset = c.last.id, c.last.bytes, c.last.at.off
			}
		}
	}
	if aggregates(r.spec) {
		wm := int64(math.MaxInt64)
		for _, nd := range r.g.nodes {
			if w, ok := nd.op.(*windowCount); ok {
				rep.Window.Open += int64(w.openWindows())
				if w.hasWM {
					wm = min(wm, w.wm)
				} else {
					wm = min(wm, 0)
				}
			}
		}
		if wm != math.MaxInt64 {
			rep.Window.Watermark = wm
		}
		rep.Window.DroppedLate = r.droppedLate()
	}
	if r.ledger != nil {
		t := r.ledgerView()
		rep.Sink.Delivered, rep.Sink.Unique, rep.Sink.Duplicates = t.Delivered, t.Unique, t.Duplicates
		rep.Sink.LateCounted = t.LateCounted
		rep.Sink.Lost, rep.Sink.Expected, rep.Sink.Correct = t.Lost, t.Expected, t.Correct
		rep.Sink.Pending, rep.Sink.Uncommitted = t.Owed, t.Uncommitted
	}
	return rep
}

// recordBytes is the in-memory size of a kept record, for overhead figures;
// ackBytes that of an acknowledgement (a node, an epoch).
const (
	recordBytes = int64(unsafe.Sizeof(backupEntry{}))
	ackBytes    = 16
)

// Kill fails a node now ("jobmanager" for the coordinator).
func (r *Runtime) Kill(name string) error {
	if err := r.failuresAllowed(); err != nil {
		return err
	}
	if r.state != StateRunning {
		return fmt.Errorf("the job is %s: nothing runs that could be killed", r.state)
	}
	if name == JobManager {
		if r.recovery.jmDown {
			return fmt.Errorf("the job manager is %w: a standby becomes leader once the lease has run out", ErrAlreadyDown)
		}
		r.recovery.killJobManager()
		return nil
	}
	n, err := r.recovery.lookup(name)
	if err != nil {
		return err
	}
	if n.dead {
		return fmt.Errorf("%s is %w: it comes back when its restart is due (in a standalone deployment, after `restart %s`)", name, ErrAlreadyDown, name)
	}
	r.recovery.kill(n, LostTaskManager)
	return nil
}

// KillAt loses a node's task manager once the node has processed n
// records in all.
func (r *Runtime) KillAt(name string, n int64) error {
	if err := r.failuresAllowed(); err != nil {
		return err
	}
	if name == JobManager {
		return fmt.Errorf("the job manager processes no records; use kill jobmanager")
	}
	return r.recovery.killAt(name, n, LostTaskManager)
}

// Fail makes a node's task throw now: its state and input queue are gone,
// its task manager and slot stay, and the restart strategy's backoff alone
// decides when it runs again, whatever the deployment.
func (r *Runtime) Fail(name string) error {
	n, err := r.failTarget(name)
	if err != nil {
		return err
	}
	if n.dead {
		return fmt.Errorf("%s is %w: it comes back when its restart is due", name, ErrAlreadyDown)
	}
	r.recovery.kill(n, TaskFailure)
	return nil
}

// FailAt makes a node's task throw once it has processed n records in all.
func (r *Runtime) FailAt(name string, n int64) error {
	if _, err := r.failTarget(name); err != nil {
		return err
	}
	return r.recovery.killAt(name, n, TaskFailure)
}

// failTarget finds the node a fail command names.
func (r *Runtime) failTarget(name string) (*node, error) {
	if err := r.failuresAllowed(); err != nil {
		return nil, err
	}
	if name == JobManager {
		return nil, fmt.Errorf("the job manager runs no task that could throw; use kill jobmanager")
	}
	if r.state != StateRunning {
		return nil, fmt.Errorf("the job is %s: nothing runs that could fail", r.state)
	}
	return r.recovery.lookup(name)
}

// KillAtCommit fails the sink once a checkpoint has completed and before
// the sink commits that checkpoint's transaction (deterministic executor).
func (r *Runtime) KillAtCommit(name string) error {
	if r.det == nil {
		return ErrNotDeterministic
	}
	return r.recovery.killAtCommit(name)
}

// Restart asks for a killed node (or the job manager) to come back: in a
// standalone deployment nothing restarts without it.
func (r *Runtime) Restart(name string) error {
	if err := r.failuresAllowed(); err != nil {
		return err
	}
	return r.recovery.restart(name)
}

// failuresAllowed says whether this executor can place failures: the
// concurrent one only fails the whole job over from a checkpoint, where the
// outcome does not depend on how far each goroutine had got.
func (r *Runtime) failuresAllowed() error {
	if r.det == nil && r.ha != HAPassiveStandby {
		return ErrConcurrentFailures
	}
	return nil
}
