package engine

import (
	"math"
	"slices"

	"github.com/streamlab/streamlab/engine/filter"
)

// Snapshot is a cheap, self-contained picture of a running job for a UI to
// draw: it shares no memory with the runtime.
type Snapshot struct {
	Job      string
	State    JobState
	Executor Executor
	Mode     Mode
	Sink     SinkKind
	// TimeMS is the virtual time of the last admission, ms since the start.
	TimeMS int64
	// Admitted is how many records the source has let in; Offset is the next
	// one it will emit.
	Admitted int64
	Offset   int64
	// Steps counts the deterministic scheduler's steps.
	Steps int64
	// Watermark is the sink's watermark (Unix ms), or math.MinInt64.
	Watermark   int64
	DroppedLate int64
	Stages      []StageSnapshot
	Nodes       []NodeSnapshot
	// Rows are the sink's latest rows, oldest first.
	Rows    []Record
	Batches int64
	// Ledger compares the sink, as committed so far, with the failure-free
	// run at the same batch; HasLedger is false when the ledger is off.
	Ledger    LedgerTotals
	HasLedger bool
	// Semantics and HA are the guarantee and mechanism in effect.
	Semantics Semantics
	HA        HAScheme
	Failures  int64
	// Checkpoints counts completed checkpoints; Backup the records upstream
	// output queues hold now.
	Checkpoints int64
	Backup      int64
	// LastCheckpoint is the id of the latest completed checkpoint, the
	// one a failover restores (0: none yet).
	LastCheckpoint int64
	// Filter describes the dedup stage's (or the passwords check's) filter,
	// with Density the fill of its bit array in DensityBuckets ranges; nil
	// without a filter.
	Filter  *FilterStats
	Density []float64
	// Error says why the job failed, and FailedAtMS when (virtual ms),
	// once State is failed.
	Error      string
	FailedAtMS int64
	// JobManager is the coordinator, drawn like a node.
	JobManager JobManagerSnapshot
	// Holds is the memory the run's state holds beyond the records above
	// and the filter: windows, ledger, lineage, checkpoints (Runtime.Holds).
	Holds int64
}

// JobManagerState is whether a job manager leads the job.
type JobManagerState string

// Job manager states a snapshot shows.
const (
	JobManagerLeader   JobManagerState = "leader"    // it leads the job
	JobManagerNoLeader JobManagerState = "no leader" // the leader died; a standby waits for its lease to run out
	JobManagerDead     JobManagerState = "dead"      // it died with no standby, and the job with it
)

// JobManagerSnapshot is the job manager: whether a leader holds the job,
// its standbys, and while there is none when the dead leader's lease runs
// out.
type JobManagerSnapshot struct {
	State JobManagerState
	// Standbys is how many standby job managers wait to take over (Flink's
	// high availability); 0 without it.
	Standbys int
	// LeaseEndsMS is when a standby becomes leader (State no leader).
	LeaseEndsMS int64
	// Failovers counts the standbys that took over so far.
	Failovers int64
}

// DensityBuckets is how many ranges Snapshot.Density divides a Bloom
// filter's bits into.
const DensityBuckets = 256

// StageSnapshot is one operator and its nodes (indexes into Nodes).
type StageSnapshot struct {
	Name      string
	Kind      string
	Partition string // how records reach it: forward, hash, rebalance, gather
	Nodes     []int
}

// NodeSnapshot is one node.
type NodeSnapshot struct {
	Name  string
	Stage int
	Index int
	State NodeState
	// In and Out count records received and emitted.
	In, Out int64
	// Queue is what waits in its input queue, of QueueCap.
	Queue, QueueCap int
	// Held is what alignment holds back from inputs that ran ahead.
	Held int
	// Barriers counts checkpoint barriers waiting in its queue or held back:
	// stepping, a learner sees them move through the graph.
	Barriers  int
	Watermark int64
	// WatermarkHeld says a dead sender holds the node's watermark back
	// until its replacement has replayed (rollback and precise recovery).
	WatermarkHeld bool
	// Epoch is the sequence number of the last marker the node aligned.
	Epoch int64
	// RestartAtMS is when a scheduled restart is due (virtual ms), with
	// HasRestart; a killed node in a standalone deployment has none until
	// someone asks for it.
	RestartAtMS int64
	HasRestart  bool
	// Backup is what this node keeps in its output queues for downstream.
	Backup int
	// Failed says, during a failover of the whole job, that the node's
	// own failure is what the restart on the way recovers from: the others
	// only restart with it.
	Failed bool
	// Standby is the state of the node's active standby (ha
	// active-standby): StandbyReady, or StandbyNone from the moment it took
	// over until a new one is up at StandbyAtMS (HasStandbyAt); empty
	// under other schemes.
	Standby      string
	StandbyAtMS  int64
	HasStandbyAt bool
}

// Active standby states a snapshot shows.
const (
	StandbyReady = "ready" // a replica runs beside the node, ready to take over
	StandbyNone  = "none"  // the replica took over; no new one is up yet
)

// Snapshot describes the job now. Under the concurrent executor it is only
// meaningful between runs.
func (r *Runtime) Snapshot() Snapshot {
	s := Snapshot{
		Job: r.spec.Name, State: r.state, Executor: r.cfg.Executor, Mode: r.cfg.Mode, Sink: r.cfg.Sink,
		TimeMS: r.cur.clock, Admitted: r.cur.limit, Offset: r.cur.off,
		Watermark: math.MinInt64, DroppedLate: r.droppedLate(),
		Rows: r.sink.latest(), Batches: r.sink.batches, Holds: r.Holds(),
	}
	s.Semantics, s.HA = r.semantics, r.ha
	if r.det != nil {
		s.Steps = r.det.steps
	}
	if rc := r.recovery; rc != nil {
		s.Failures, s.Backup = rc.failures, rc.backupSize()
		if rc.ckpt != nil {
			s.Checkpoints = rc.ckpt.completed
			if rc.ckpt.last != nil {
				s.LastCheckpoint = rc.ckpt.last.id
			}
		}
	}
	if r.ledger != nil {
		s.Ledger, s.HasLedger = r.ledgerView(), true
	}
	if r.state == StateFailed {
		s.FailedAtMS = r.failedMS
		if r.err != nil {
			s.Error = r.err.Error()
		}
	}
	s.JobManager = r.jobManagerSnapshot()
	if fs, ok := r.FilterStats(); ok {
		s.Filter = &fs
		for _, n := range r.g.nodes {
			switch op := n.op.(type) {
			case *dedupOp:
				s.Density = filter.Density(op.f, DensityBuckets)
			case *breachCheck:
				s.Density = filter.Density(op.f, DensityBuckets)
			}
		}
	}
	index := map[*node]int{}
	for i, n := range r.g.nodes {
		index[n] = i
		ns := NodeSnapshot{Name: n.name, Stage: n.stage, Index: n.index, State: NodeRunning,
			In: n.counts.In, Out: n.counts.Out, QueueCap: r.cfg.QueueCap, Watermark: n.wm, Epoch: n.epoch,
			WatermarkHeld: slices.Contains(n.frozen, true)}
		if rc := r.recovery; rc != nil {
			ns.State = rc.nodeState(n)
			ns.RestartAtMS, ns.HasRestart = rc.nextRestart(n)
			ns.Failed = rc.failedNode(n)
			if ns.State != NodeCancelled && ns.State != NodeFailed {
				ns.Backup = int(rc.s.backlog(n)) // a cancelled task's output queues went with it
			}
			if r.ha == HAActiveStandby {
				ns.Standby = StandbyReady
				if !n.standby {
					ns.Standby = StandbyNone
					ns.StandbyAtMS, ns.HasStandbyAt = rc.standbyUpAt(n)
				}
			}
		}
		if r.det != nil {
			q := &r.det.queues[i]
			ns.Queue = q.len()
			for _, it := range q.items[q.head:] {
				if it.e.kind == kindBarrier {
					ns.Barriers++
				}
			}
		}
		for _, h := range n.held {
			ns.Held += h.len()
			ns.Barriers += h.barriers
		}
		s.Nodes = append(s.Nodes, ns)
	}
	s.Watermark = r.g.nodes[len(r.g.nodes)-1].wm
	for _, st := range r.g.stages {
		ss := StageSnapshot{Name: st.name, Kind: st.kind, Partition: st.partition}
		for _, n := range st.nodes {
			ss.Nodes = append(ss.Nodes, index[n])
		}
		s.Stages = append(s.Stages, ss)
	}
	return s
}

// jobManagerSnapshot describes the job manager: dead with its job when
// there is no standby, leaderless while the dead leader's lease runs, else
// leading.
func (r *Runtime) jobManagerSnapshot() JobManagerSnapshot {
	jm := JobManagerSnapshot{State: JobManagerLeader}
	if r.cfg.JobManagerHA == JobManagerHAStandby {
		jm.Standbys = 1 // a standby that takes over is replaced by a new one
	}
	rc := r.recovery
	if rc == nil {
		return jm
	}
	jm.Failovers = rc.jmFailovers
	switch {
	case rc.jmDown:
		jm.State, jm.LeaseEndsMS = JobManagerNoLeader, rc.leaseEndsMS()
	case r.state == StateFailed && rc.jmDied:
		jm.State = JobManagerDead
	}
	return jm
}
