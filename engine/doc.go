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
// # Where things are
//
// The run itself:
//   - runtime.go: Runtime, its life cycle and its Report.
//   - config.go: Config, output modes, sinks, executors and their defaults.
//   - playhead.go, budget.go: where virtual time stands, and work counted
//     in scheduler steps for budgets.
//
// The dataflow:
//   - source.go: the replayable log (generated from a seed, or read from an
//     events file), with offsets, keys, event time, late and disordered
//     events.
//   - record.go: what flows between nodes: events, results and markers.
//   - operator.go: parse, map, filter and the event-time window count.
//   - dedup.go: the dedup stage and its membership filter (engine/filter).
//   - sink.go: the append-only log and the SQLite table (engine/table),
//     with transactions for exactly-once.
//   - passwords.go: the passwords job's breach check.
//
// Executors, which run the nodes:
//   - node.go: nodes, stages and the graph; how markers (triggers,
//     checkpoint barriers, the end) are aligned across inputs.
//   - deterministic.go: one scheduler stepping the nodes in a fixed order;
//     lessons, scripts, grading and the lab use it.
//   - concurrent.go: a goroutine per node with batched channels, for
//     throughput.
//
// Recovery:
//   - recovery.go: failures and restarts — a task that throws (fail) and a
//     task manager lost (kill) — the restart strategy (engine/restart), the
//     deployment and its slot requests, the job manager and its lease.
//   - scheme.go: what a high-availability scheme must answer; one file per
//     scheme: gap.go (none: gap recovery, at most once), upstream_backup.go
//     (rollback recovery from upstream output queues), passive_standby.go
//     (restore from the last checkpoint), active_standby.go (a twin takes
//     over).
//   - checkpoint.go: aligned barrier snapshots (Carbone et al., 2015), the
//     coordinator that begins, completes and aborts them, and restores.
//   - driver.go: a sink task that fails as it opens its connection (a
//     missing JDBC driver), through the restart strategy.
//
// Ground truth and what observers see:
//   - chain.go: the failure-free run as plain function calls (also the
//     benchmarks' baseline).
//   - ledger.go: each output row's effect in the real sink against the
//     failure-free run: delivered, duplicates, lost, pending;
//     windowfold.go: its windows folded once final, so that its memory
//     follows the job's state, not its output.
//   - lineage.go: where each sink row came from: every copy's node and
//     attempt, stamped when the node sent it, when it was produced and
//     made visible, its batch, and the failures and restarts of the run, in
//     bounded memory; explain.go answers `why ROW` from it: the offsets
//     a row counts, and the kill and replay, the lost state or the false
//     filter drop behind an extra copy or a missing one.
//   - owed.go: what the sink lacks, sorted into owed (recovery still
//     delivers it) and lost, and what open transactions hold; the one
//     view of the ledger every observer reads.
//   - timeline.go: the ledger over virtual time, with kill, restart and
//     checkpoint marks, for charts.
//   - snapshot.go: a cheap picture of the running job for the lab;
//     engine/bus carries events to observers without slowing the job.
//
// Subpackages stand alone and import nothing from engine: engine/jobspec
// (jobs as data), engine/script (lab scripts), engine/filter, engine/table,
// engine/restart, engine/report, engine/bus and engine/deps; engine/lab
// runs lab scripts on a Runtime.
package engine
