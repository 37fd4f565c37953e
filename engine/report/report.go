// Package report is what one run of the engine did: the Report that a lab
// script, `streamlab run` and the grader end with, in its JSON form (a
// stable contract) and its text form. It imports nothing of streamlab; the
// engine fills it in, and everything that judges a run reads it.
package report

// Report is what a run did. Its JSON form is a stable contract (the
// README's Report fields): keys are only ever added, never renamed.
type Report struct {
	Job          JobReport        `json:"job"`
	Config       ConfigReport     `json:"config"`
	Source       SourceReport     `json:"source"`
	Window       WindowReport     `json:"window"`
	Sink         SinkReport       `json:"sink"`
	Recovery     RecoveryReport   `json:"recovery"`
	Checkpoints  CheckpointReport `json:"checkpoints"`
	Filter       FilterReport     `json:"filter"`
	Expectations []Expectation    `json:"expectations"`
	// Interrupted is true when a signal stopped the script before its end:
	// the report is what the run had done by then.
	Interrupted bool `json:"interrupted,omitempty"`
}

// JobReport names the job and its final state.
type JobReport struct {
	Name  string `json:"name"`
	State string `json:"state"` // running | finished | failed
	Seed  int64  `json:"seed"`
	// Error is why the job failed, when it did.
	Error string `json:"error,omitempty"`
	// Executor is deterministic or concurrent.
	Executor string `json:"executor"`
}

// ConfigReport is the configuration in effect: what the guarantee really is,
// never what was merely asked for.
type ConfigReport struct {
	Semantics string `json:"semantics"`
	// Requested is the semantics the script asked for; Note says why the
	// one in effect is weaker, when it is.
	Requested          string `json:"requested"`
	Note               string `json:"note,omitempty"`
	HA                 string `json:"ha"`
	Mode               string `json:"mode"`
	Sink               string `json:"sink"`
	Filter             string `json:"filter"`
	Restart            string `json:"restart"`
	Deployment         string `json:"deployment"`
	CheckpointInterval int64  `json:"checkpoint_interval"`
	// JobManagerHA is none or standby, with the lease ("standby lease=15s").
	JobManagerHA string `json:"jobmanager_ha"`
}

// SourceReport describes the records admitted from the source log.
type SourceReport struct {
	Records int64 `json:"records"`
	// Offset is the next offset the source will read.
	Offset int64 `json:"offset"`
	// Late counts records generated later than the watermark delay allows.
	Late int64 `json:"late"`
	// TimeMS is the virtual processing time, in ms since the run began.
	TimeMS int64 `json:"time_ms"`
	// RepeatedIDs counts the records read whose id an earlier record of
	// a replayed file has: a table keyed by id holds one row for them all,
	// and the ledger counts them as that one row. Left out when zero.
	RepeatedIDs int64 `json:"repeated_ids,omitempty"`
}

// WindowReport describes event-time windowing, when the job has windows.
type WindowReport struct {
	// Watermark is the lowest watermark among the windowing nodes, Unix ms.
	Watermark int64 `json:"watermark"`
	// DroppedLate counts records that arrived after their window was final.
	DroppedLate int64 `json:"dropped_late"`
	// Open counts windows still held in state.
	Open int64 `json:"open"`
}

// SinkReport compares the sink against the failure-free run of the same job
// and seed (see Ledger).
type SinkReport struct {
	Rows       int64 `json:"rows"`
	Delivered  int64 `json:"delivered"`
	Unique     int64 `json:"unique"`
	Duplicates int64 `json:"duplicates"`
	// LateCounted is the part of Duplicates made of records the
	// failure-free run dropped as late and this run counted, its
	// watermark having been set back by a failure (see engine.Ledger).
	LateCounted int64 `json:"late_counted,omitempty"`
	Lost        int64 `json:"lost"`
	Expected    int64 `json:"expected"`
	Correct     bool  `json:"correct"`
	// Pending is work the sink still owes while recovery is under way: a
	// scheme that preserves input (rollback or precise recovery) delivers it
	// once the failed nodes are back, so it is not lost.
	Pending int64 `json:"pending"`
	// Uncommitted counts the rows an exactly-once sink holds in
	// transactions not committed yet: written, not visible to a reader,
	// neither delivered nor lost.
	Uncommitted int64 `json:"uncommitted"`
	// Batches counts the micro-batches the sink committed.
	Batches int64 `json:"batches"`
}

// RecoveryReport counts failures and what recovery cost.
//
// TimeMS is the recovery time the lectures compare, in virtual ms: the time
// nodes were down plus the time to replay what recovery re-sent at the
// source's rate. The rest is the runtime overhead of the scheme.
type RecoveryReport struct {
	Failures int64 `json:"failures"`
	// TaskFailures, TaskManagersLost and SlotTimeouts are failures by
	// kind: a task that threw (fail, a missing driver), a task manager
	// lost (kill), a slot request that timed out waiting for a task
	// manager. The job manager's are JobManagerFailovers.
	TaskFailures     int64 `json:"task_failures"`
	TaskManagersLost int64 `json:"taskmanagers_lost"`
	SlotTimeouts     int64 `json:"slot_timeouts"`
	Restarts         int64 `json:"restarts"`
	TimeMS           int64 `json:"time_ms"`
	DowntimeMS       int64 `json:"downtime_ms"`
	// Replayed counts records sent again: from output queues (upstream
	// backup) or from the log after a rewind (checkpoints).
	Replayed int64 `json:"replayed"`
	// LostInFlight counts records dropped with a dead node's queue or sent
	// to a node while it was down.
	LostInFlight int64 `json:"lost_in_flight"`
	// BackupPeak is the most records upstream output queues held at once,
	// BackupBytes their size in memory.
	BackupPeak  int64 `json:"backup_peak"`
	BackupBytes int64 `json:"backup_bytes"`
	// StandbyWork counts records active standbys processed beside their
	// primaries: the price of a takeover with nothing to replay.
	StandbyWork int64 `json:"standby_work"`
	// Acks counts acknowledgement messages (upstream backup).
	Acks int64 `json:"acks"`
	// OverheadBytes is what the scheme ships while nothing fails, the
	// run-time overhead Hwang et al. compare: acknowledgements (upstream
	// backup, 16 bytes each), checkpointed state (passive standby), a copy
	// of every record for the replicas (active standby). Memory held is
	// BackupBytes.
	OverheadBytes int64 `json:"overhead_bytes"`
	// JobManagerFailovers counts job manager failures a standby took over;
	// LeaderElectionMS the virtual time the job had no leader.
	JobManagerFailovers int64 `json:"jobmanager_failovers"`
	LeaderElectionMS    int64 `json:"leader_election_ms"`
	// Unfired lists scheduled kills that have not fired ("count[1] at
	// 1200"): the node had not processed that many records.
	Unfired []string `json:"unfired"`
}

// CheckpointReport counts checkpoints.
type CheckpointReport struct {
	Completed int64 `json:"completed"`
	Aborted   int64 `json:"aborted"`
	Restores  int64 `json:"restores"`
	LastID    int64 `json:"last_id"`
	// Offset is the source offset the last completed checkpoint saved;
	// Bytes the size of the state it saved.
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	// TotalBytes is the state written by every completed checkpoint: the
	// runtime cost of passive standby.
	TotalBytes int64 `json:"total_bytes"`
}

// FilterReport describes the membership filter of a dedup stage.
type FilterReport struct {
	Kind        string  `json:"kind"`
	M           uint64  `json:"m"`
	K           uint64  `json:"k"`
	Inserted    int64   `json:"inserted"`
	FillRatio   float64 `json:"fill_ratio"`
	EstimatedFP float64 `json:"estimated_fp"`
	MeasuredFP  float64 `json:"measured_fp"`
	FalseDrops  int64   `json:"false_drops"`
	// ExpectedFalseDrops is what the formula predicts for FalseDrops, the
	// same quantity: (1 − e^(−kn/m))^k at the n each first sighting met,
	// summed. EstimatedFP is the rate at the fill now.
	ExpectedFalseDrops float64 `json:"expected_false_drops"`
	Bytes              int64   `json:"bytes"`
	// Dropped counts every record the stage dropped, duplicates and false
	// positives alike; BitsSet and ApproxSize (the library's estimate of n
	// from the fill) describe a Bloom filter's bits; ExactBytes is what an
	// exact set of the same ids holds. ApproxSize is nil, and left out of
	// the JSON, when the size is unknown: every bit is set, so the fill
	// bounds nothing (it used to say -1, which reads as a size).
	Dropped             int64    `json:"dropped"`
	BitsSet             uint64   `json:"bits_set"`
	ApproxSize          *float64 `json:"approx_size,omitempty"`
	ExactBytes          int64    `json:"exact_bytes"`
	BitsPerElement      float64  `json:"bits_per_element"`
	ExactBitsPerElement float64  `json:"exact_bits_per_element"`
}

// Expectation is the outcome of one `expect` line of a lab script.
type Expectation struct {
	Line   int    `json:"line"`
	Expr   string `json:"expr"`
	OK     bool   `json:"ok"`
	Actual string `json:"actual"`
}
