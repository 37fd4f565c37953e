package export

import (
	"fmt"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// A Caveat is one part of the lab's experiment that does not carry over to
// a target as the lab does it: Topic names the setting or line (tests look
// caveats up by it), Text says what the program does instead and why.
type Caveat struct {
	Topic string
	Text  string
}

// Caveats lists what of plan p does not carry over to target, in a fixed
// order. Every program prints them in its header, so nothing the lab did
// is dropped without a word.
func Caveats(p *Plan, target string) []Caveat {
	flink := target != PySpark
	var cs []Caveat
	add := func(topic, format string, args ...any) {
		cs = append(cs, Caveat{topic, fmt.Sprintf(format, args...)})
	}
	cfg, src := p.Config, p.Spec.Source

	// Recovery: semantics and HA scheme.
	switch p.HA {
	case engine.HAUpstreamBackup:
		if flink {
			add("ha", "ha upstream-backup (the lab's at-least-once default) has no Flink equivalent: Flink keeps no\nper-channel output queues. This program uses at-least-once checkpointing, which restores\noperator state from the last checkpoint and replays the source from there.")
		} else {
			add("ha", "ha upstream-backup has no Spark equivalent: Spark replays the micro-batch from its checkpoint\n(offsets and state in checkpointLocation), like the lab's passive standby.")
		}
	case engine.HAActiveStandby:
		add("ha", "ha active-standby has no %s equivalent: no replica processes the same input beside the job.\nThis program recovers from checkpoints (the lab's passive standby) instead.", engineName(target))
	case engine.HANone:
		if flink {
			add("semantics", "at-most-once (gap recovery) has no Flink equivalent: without checkpoints a restarted Flink job\nreads its source from the start again, so records are repeated rather than lost.\nCheckpointing is off here, as in the lab.")
		} else {
			add("semantics", "at-most-once (gap recovery) has no Spark equivalent: a streaming query always records its\noffsets in checkpointLocation and replays the failed micro-batch, so nothing is lost.")
		}
	}
	if p.Note != "" {
		add("guarantee", "the lab says: %s.", p.Note)
	}
	if cfg.Sink == engine.SinkTable && cfg.SinkCommit == engine.CommitTransactional && p.Semantics == engine.ExactlyOnce {
		switch target {
		case PyFlink:
			add("sink.commit", "sink.commit transactional: the table is written by idempotent upserts (one row per window and\nkey, replaced in place), not a two-phase commit: SQLite has no XA transactions, which Flink's\nexactly-once JDBC sink needs. Replayed rows overwrite themselves, so the table ends the same.")
		case FlinkSQL:
			add("sink.commit", "sink.commit transactional: the JDBC connector's upsert sink (a primary key) is idempotent, not a\ntwo-phase commit; replayed rows overwrite themselves, so the table ends the same.")
		case PySpark:
			add("sink.commit", "sink.commit transactional: foreachBatch writes each micro-batch in one SQLite transaction of\nupserts, not a two-phase commit; a batch run again after a failure overwrites its own rows.")
		}
	}
	if flink && cfg.Semantics != engine.AtMostOnce {
		add("checkpoint.interval", "checkpoint.interval %d records: Flink checkpoints by time, so the interval is the time the\nsource takes to emit %d records at source.rate %d/s: %d ms (the source is paced to that rate).",
			cfg.CheckpointInterval, cfg.CheckpointInterval, src.Rate, checkpointMillis(p))
	}
	if !flink {
		add("checkpoint.interval", "checkpoint.interval: Spark records progress at every micro-batch (one file of %d events, the\nlab's trigger of %s at source.rate %d/s); it has no separate checkpoint interval.",
			recordsPerTrigger(p), src.Trigger, src.Rate)
	}

	// Restarts and deployment.
	if flink {
		if cfg.Restart.Kind == restart.None && cfg.Semantics != engine.AtMostOnce {
			add("restart", "restart none: set explicitly, so the first failure fails the job (with checkpointing on and\nnothing set, Flink 2.3 would restart with exponential-delay).")
		}
		if cfg.Restart.Kind == restart.Exponential && cfg.Semantics == engine.AtMostOnce {
			add("restart", "restart exponential-delay is set explicitly: with checkpointing off and nothing set, Flink\ndoes not restart at all (NoRestartBackoffTimeStrategy).")
		}
	} else {
		switch cfg.Restart.Kind {
		case restart.None:
			add("restart", "restart none: Spark has no restart strategy; a task is tried once (local[N,1]), so the first\nfailure fails the query. Restarting a failed query is left to whoever runs it.")
		case restart.FixedDelay:
			add("restart", "restart fixed-delay attempts=%d: Spark has no restart strategy; a failed task is retried within\nthe running query up to spark.task.maxFailures times (local[N,%d] here: the first try and %d\nretries). Spark does not wait between retries: delay=%s does not carry over.",
				cfg.Restart.Attempts, cfg.Restart.Attempts+1, cfg.Restart.Attempts, cfg.Restart.Delay)
		default:
			add("restart", "restart %s: Spark has no restart strategy; a failed task is retried within the running query\nup to spark.task.maxFailures times (4, Spark's default on a cluster; local[N,4] here), with no\nbackoff.", cfg.Restart.Kind)
		}
	}
	switch cfg.Deployment {
	case engine.DeployStandalone:
		if flink {
			add("deployment", "deployment standalone: a killed task manager is not replaced; on the compose cluster run\n`docker compose kill taskmanager-2` and watch the job wait for slots until slot.request.timeout\n(5 min). In this program a kill is a task failure: every task manager stays up.")
		} else {
			add("deployment", "deployment standalone: Spark local mode has no executors to lose; a kill is a task failure.")
		}
	case engine.DeployManaged:
		if flink {
			add("deployment", "deployment managed: a resource manager (Kubernetes, YARN) would replace a lost task manager\nafter about %s; the compose cluster is standalone, and here a kill is a task failure, so no\ntask manager is lost.", cfg.Provision)
		} else {
			add("deployment", "deployment managed: Spark local mode has no executors to replace; a kill is a task failure.")
		}
	}
	if cfg.JobManagerHA == engine.JobManagerHAStandby {
		if flink {
			add("jobmanager.ha", "jobmanager.ha standby (lease %s): needs high-availability.type zookeeper or kubernetes and a\nstandby job manager; the compose cluster has one job manager and no HA services.", cfg.Lease)
		} else {
			add("jobmanager.ha", "jobmanager.ha standby: Spark's driver has no standby; a lost driver ends the query, which\nresumes from checkpointLocation when started again.")
		}
	}

	// Failures.
	for _, k := range p.Kills {
		add("kill", "line %d, %s: %s", k.Line, strings.TrimSpace(killLine(k)), killCaveat(p, k, target))
		if k.After >= p.Records {
			add("kill", "line %d, %s: never fires here: the events file has %d events, and the node must\nhave processed %d before it fails.", k.Line, killLine(k), p.Records, k.After)
		}
	}
	for _, d := range p.Dropped {
		add("dropped", "line %d, %s: not carried over: %s.", d.Line, d.Text, d.Why)
	}

	// Output mode, windows, watermark.
	if aggregates(p.Spec) && flink {
		switch cfg.Mode {
		case engine.ModeUpdate:
			add("mode", "mode update: a Flink event-time window fires once, when the watermark passes its end (Spark's\nappend mode); the lab's update mode also writes each trigger's partial counts. The final count\nof each window is the same; the log shows fewer rows.")
		case engine.ModeComplete:
			add("mode", "mode complete: a Flink event-time window fires once and then drops its state; the lab's complete\nmode rewrites every window every trigger and drops no late record.")
		}
	}
	if flink && src.Watermark != jobspec.NoWatermark {
		add("watermark", "source.watermark %s: Flink's bounded out-of-orderness watermark is the largest event time minus\n%d ms minus 1 ms, emitted every pipeline.auto-watermark-interval (set to the lab's trigger, %s);\nwhich late records a real run drops depends on that cadence.", src.Watermark, millis(src.Watermark), src.Trigger)
	}
	if flink && src.Watermark == jobspec.NoWatermark && aggregates(p.Spec) {
		add("watermark", "source.watermark none: an event-time window never fires without a watermark until the bounded\nsource ends, when Flink sends the final watermark and every window fires once.")
	}
	if target == FlinkSQL && aggregates(p.Spec) {
		add("sql", "a SQL window aggregation is not split into parallel count nodes by name; parallelism.default is\nthe largest parallelism of the job.")
	}
	if flink && aggregates(p.Spec) {
		add("keys", "Flink assigns keys to subtasks by key group (murmur hash), not by the lab's hash: count[i] here\ncounts other keys than the lab's count[i].")
	}

	// Dedup filter.
	switch cfg.Filter.Kind {
	case filter.KindBloom, filter.KindRotating:
		what := map[string]string{PyFlink: "keyed state per id", FlinkSQL: "a ROW_NUMBER() dedup per id", PySpark: "dropDuplicates(\"id\")"}[target]
		add("filter", "filter %s: neither Flink nor Spark has a built-in Bloom or rotating membership filter;\nthe dedup stage here is exact (%s): it keeps every id and has no false positives.", cfg.Filter.Kind, what)
	}
	if cfg.Filter.Kind != "" && cfg.Filter.Kind != filter.KindNone && aggregates(p.Spec) {
		add("filter", "the dedup stage runs on the input ids before the window: Spark refuses a stateful operator\nafter an aggregation outside append mode, and Flink's window results carry no record ids.")
	}
	for _, o := range p.Spec.Operators {
		if o.Kind == jobspec.KindBreachCheck {
			add("breach-check", "operator %s (breach-check): the lab's check of each login against a Bloom filter of\ncompromised passwords is not exported; its events pass unchanged.", o.Name)
		}
	}
	if p.Spec.Connector != "" || p.Spec.Driver != "" || len(p.Spec.Dependencies) > 0 {
		add("connector", "the job's connector %q, driver %q and declared dependencies are the lab's model of a job's\nclass path; this program uses the sink above and needs none of them.", p.Spec.Connector, p.Spec.Driver)
	}
	if cfg.Executor == engine.ExecConcurrent {
		add("executor", "executor concurrent: the lab's own scheduling; the real engine schedules its tasks itself.")
	}
	if target == FlinkSQL && len(p.Kills) > 0 {
		add("kill", "Flink SQL cannot run user code that fails at a record without a UDF jar: the kills above are\nnot in this program. Use the PyFlink export to replay them.")
	}
	return cs
}

// engineName is the real engine a target runs on.
func engineName(target string) string {
	if target == PySpark {
		return "Spark"
	}
	return "Flink"
}

// killLine is the kill as the script wrote it.
func killLine(k Kill) string {
	if k.Immediate {
		return "kill " + k.Node
	}
	return fmt.Sprintf("kill %s at %d", k.Node, k.After)
}

// killCaveat says how a kill is replayed on target.
func killCaveat(p *Plan, k Kill, target string) string {
	where := fmt.Sprintf("after %d records", k.After)
	if k.Immediate {
		where = fmt.Sprintf("when the lab killed it, after the %d records admitted before that line", k.After)
	}
	switch target {
	case PySpark:
		return fmt.Sprintf("Spark has no nodes to kill; a UDF raises once, at the event at offset %d (%s),\na task failure standing in for a lost executor; a marker file keeps it from failing again\nwhen the task is retried. For a node behind a filter or a shuffle the lab counts only that\nnode's records, so there the failure comes earlier than in the lab.", k.After, where)
	case FlinkSQL:
		return "not replayed (see below)."
	}
	at := fmt.Sprintf("subtask %d of a map placed before %s", k.Subtask, k.Op)
	switch {
	case k.Immediate && k.Op != "source":
		return fmt.Sprintf("a map right after the source raises once after %d records (when the lab killed\n%s, whose own count at that moment the lab does not fix): a task failure standing in for a lost\ntask manager, in a task of the same failover region (the edges are all-to-all or forward); a\nmarker file keeps it from failing again after the restart.", k.After, k.Node)
	case k.Op == "source":
		at = "a map right after the source"
	case k.Op == "sink":
		at = "a map right before the sink"
	}
	return fmt.Sprintf("%s raises once %s, a task failure standing in\nfor a lost task manager (the task manager stays up); a marker file keeps it from failing\nagain after the restart.", at, where)
}
