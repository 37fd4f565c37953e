// Package engine is streamlab's streaming engine: it runs a job (a source,
// operators with a parallelism, a sink) over a seeded stream of (id, time,
// action) events, lets nodes and the job manager fail, recovers them by the
// chosen scheme, and measures the output against a failure-free run of the
// same job and seed.
//
// # A run
//
// New validates a jobspec.Spec and a Config and wires a Runtime. Admit and
// AdmitFor let source records in (a count, or a span of virtual time); Run
// processes what was
// admitted until the job is quiet; Report compares the sink with the
// failure-free run. Time is virtual: records arrive at the source's rate,
// and kills, restarts, checkpoints and leases are placed by record counts
// and virtual milliseconds, never by the wall clock, so the same job,
// script and seed give the same report on every machine.
//
// # The object graph
//
// A Runtime owns everything of one run: the Source (the replayable log)
// and a cursor that reads it as records and markers; the graph of nodes,
// one per parallel instance of each operator, grouped in stages, the last
// of which is the sink node (its sinkOp writes to a sinkWriter: the log or
// the SQLite table); the executor that moves elements between nodes
// (detExec, or goroutines for the concurrent one); recovery, which holds
// the scheduled kills and restarts, the restart strategy, the job manager
// and the scheme (one of gap, upstream backup, passive standby, active
// standby), with the checkpoint coordinator; and, unless the ledger is
// off, the failure-free run beside it (a chain over its own cursor on the
// same Source), the Ledger that compares the two sinks, and the lineage of
// every sink row. Observers never reach into these: they read Snapshot,
// Ledger, Report and the events the Runtime publishes on its bus.
//
// # The life of a record
//
// Admit moves the admission bound; the cursor then hands out the source's
// records in offset order, with a trigger at each trigger interval of
// arrival time, a watermark before each trigger, and a checkpoint barrier
// every checkpoint interval of records. The source node's router sends
// each record to a node of the next stage by the edge's partitioning
// (forward, by key hash, round robin, or all to one), and so on down the
// stages; each node's operator turns records
// into records (a parse, a filter, a window count) and markers are
// aligned across a node's inputs before it acts on them and passes them
// on. The sink buffers what arrives between two triggers and, at the
// trigger, writes it as one micro-batch, sorted, so that the sink's
// contents do not depend on which parallel node delivered first. The
// Ledger then applies the batch, beside the failure-free run's batch for
// the same trigger.
//
// # The life of a kill
//
// `kill NODE at N` becomes a killPlan: when the node has processed N
// records, recovery fails it. The failure is published first (every
// scheme's failure is in the log), then the scheme decides what is lost:
// the node's state, its input queue and what alignment held back, or, for
// a failover of the whole job, every node's. The restart strategy is asked
// for a backoff; past its budget the job fails. Otherwise a restartPlan
// waits for the backoff and for a slot (at once after a task failure,
// after provisioning when managed, never on a standalone cluster unless a
// task manager is started or the slot request times out, which is a new
// failure). When it is due the scheme brings the node back: empty (gap
// recovery), with its upstream's queues replayed (upstream backup), from
// the last checkpoint with the source rewound (passive standby), or not at
// all, its replica having taken over at once (active standby).
//
// # The life of a checkpoint
//
// The cursor injects barrier id after every checkpoint interval of
// records, and tells the coordinator the source's position first. Each
// node, once the barrier has arrived on all its inputs, snapshots its
// operator's state and acknowledges; records behind the barrier on an
// input wait until then (aligned checkpoints). A transactional table sink
// pre-commits the checkpoint's rows in a transaction of their own; the
// sink's acknowledgement completes the checkpoint, and the coordinator's word of
// completion, travelling to the sink as a message, commits it. A restore
// puts every node back to the last completed checkpoint, commits or aborts
// the transactions the table still holds pre-committed, and rewinds the
// cursor to the saved position, so the records after it are read again.
//
// # Who runs what
//
// Under the deterministic executor the goroutine that calls Run does
// everything, one element at one node per step, in an order drawn from
// the seed. Under the concurrent executor Run starts a goroutine per node
// for the span between two failures and waits for them; failures and
// restarts are handled on Run's goroutine after they stop, and the
// coordinator's pending checkpoints are the only engine state they share
// (under its mutex). The Runtime is not safe for concurrent use: callers (the
// lab's bridge, the grader) call it from one goroutine, and other
// goroutines learn what happens through the bus, whose subscriptions are
// safe to drain from anywhere.
//
// # Where things are
//
// Each file's name begins with its subsystem: runtime_, dataflow_, exec_,
// recovery_, ledger_ and lineage_.
//
// The run itself:
//   - runtime.go: Runtime, its life cycle and its Report.
//   - runtime_config.go: Config, output modes, sinks, executors and their
//     defaults.
//   - runtime_validate.go: Validate, the checks New makes before it builds
//     anything, which the pickers ask per candidate value.
//   - runtime_playhead.go, runtime_budget.go: where virtual time stands,
//     and work counted for budgets: scheduler steps, window timers checked,
//     state held and state copied into checkpoints.
//   - runtime_snapshot.go: a cheap picture of the running job for the lab;
//     engine/bus carries events to observers without slowing the job.
//     runtime_holds.go: the memory the run's state holds, estimated from
//     its containers' sizes so that every frame can show it;
//     runtime_memory.go: the budget a lab puts on it.
//
// The dataflow:
//   - dataflow_source.go: the replayable log (generated from a seed, or
//     read from an events file), with offsets, keys, event time, late and
//     disordered events, and the cursor that reads it.
//   - dataflow_record.go: what flows between nodes: events, results and
//     markers.
//   - dataflow_operator.go: parse, map, filter and the event-time window
//     count; dataflow_window_store.go: its counts, in chunks of
//     consecutive windows per key.
//   - dataflow_dedup.go: the dedup stage and its membership filter
//     (engine/filter).
//   - dataflow_sink.go: the append-only log and the SQLite table
//     (engine/table), with transactions for exactly-once.
//   - dataflow_passwords.go: the passwords job's breach check.
//
// Executors, which run the nodes:
//   - exec_graph.go: nodes, stages and the graph; how markers (triggers,
//     checkpoint barriers, the end) are aligned across inputs.
//   - exec_held.go: what a node holds back on an input while it aligns,
//     kept encoded: thousands of rows can wait behind a trigger.
//   - exec_deterministic.go: one scheduler stepping the nodes in a fixed
//     order; lessons, scripts, grading and the lab use it.
//   - exec_concurrent.go: a goroutine per node with batched channels, for
//     throughput.
//
// Recovery:
//   - recovery.go: failures and restarts — a task that throws (fail) and a
//     task manager lost (kill) — the restart strategy (engine/restart), the
//     deployment and its slot requests, the job manager and its lease.
//   - recovery_scheme.go: what a high-availability scheme must answer; one
//     file per scheme: recovery_gap.go (none: gap recovery, at most once),
//     recovery_upstream_backup.go (rollback recovery from upstream output
//     queues), recovery_passive_standby.go (restore from the last
//     checkpoint), recovery_active_standby.go (a twin takes over).
//   - recovery_checkpoint.go: aligned barrier snapshots (Carbone et al.,
//     2015), the coordinator that begins, completes and aborts them, and
//     restores.
//   - recovery_driver.go: a sink task that fails as it opens its
//     connection (a missing JDBC driver), through the restart strategy.
//
// Ground truth and what observers see:
//   - ledger_chain.go: the failure-free run as plain function calls (also
//     the benchmarks' baseline).
//   - ledger.go: each output row's effect in the real sink against the
//     failure-free run: delivered, duplicates, lost, pending;
//     ledger_windowfold.go: its windows folded once final, so that its
//     memory follows the job's state, not its output.
//   - ledger_owed.go: what the sink lacks, sorted into owed (recovery still
//     delivers it) and lost, and what open transactions hold; the one
//     view of the ledger every observer reads.
//   - ledger_timeline.go: the ledger over virtual time, with kill, restart
//     and checkpoint marks, for charts.
//   - lineage.go: where each sink row came from: every copy's node and
//     attempt, stamped when the node sent it, when it was produced and
//     made visible, its batch, and the failures and restarts of the run, in
//     bounded memory; lineage_explain.go answers `why ROW` from it: the
//     offsets a row counts, and the kill and replay, the lost state or the
//     false filter drop behind an extra copy or a missing one.
//
// Subpackages stand alone and import nothing from engine: engine/jobspec
// (jobs as data), engine/script (lab scripts), engine/filter, engine/table,
// engine/restart, engine/report, engine/bus and engine/deps; engine/lab
// runs lab scripts on a Runtime.
package engine
