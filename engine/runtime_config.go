package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// ErrBadConfig marks a job or configuration that cannot run as asked; the
// message says which rule and why.
var ErrBadConfig = errors.New("invalid configuration")

// ConfigError is an ErrBadConfig with its reason apart, so that a caller
// that says where the mistake is (a script line, a picker's option) shows
// the reason alone: errors.As, not cutting the message up.
type ConfigError struct {
	Reason string
}

func (e *ConfigError) Error() string { return ErrBadConfig.Error() + ": " + e.Reason }

// Is makes errors.Is(err, ErrBadConfig) hold.
func (e *ConfigError) Is(target error) bool { return target == ErrBadConfig }

// badConfig is a ConfigError whose reason is formatted as fmt.Sprintf does.
func badConfig(format string, args ...any) error {
	return &ConfigError{Reason: fmt.Sprintf(format, args...)}
}

// ConfigReason is err's reason when err is a configuration error, and its
// whole message otherwise.
func ConfigReason(err error) string {
	if ce, ok := errors.AsType[*ConfigError](err); ok {
		return ce.Reason
	}
	return err.Error()
}

// ErrInternal marks a failure that is neither the input's fault nor the
// job's: the machine would not give the engine what it needs (a temporary
// file, say). Commands say so, and exit 2, instead of blaming the script
// or a student's answer.
var ErrInternal = errors.New("internal error")

// Mode is a Structured Streaming output mode.
type Mode string

// Output modes, as the Spark programming guide defines them.
const (
	ModeAppend   Mode = "append"   // only rows added since the last trigger, each row once
	ModeUpdate   Mode = "update"   // only rows changed since the last trigger
	ModeComplete Mode = "complete" // the whole result table every trigger
)

// Modes lists the output modes.
var Modes = []Mode{ModeAppend, ModeUpdate, ModeComplete}

// SinkKind is where a job's output goes, which decides whether a replayed
// row is a duplicate or overwrites itself.
type SinkKind string

// Sink kinds.
const (
	SinkLog   SinkKind = "log"   // append-only: every write is a new line
	SinkTable SinkKind = "table" // a SQLite table updated in place
)

// Executor is what runs the nodes: one at a time in a seeded order, or a
// goroutine each.
type Executor string

// Executor kinds.
const (
	ExecDeterministic Executor = "deterministic"
	ExecConcurrent    Executor = "concurrent"
)

// Config is how a job runs. The zero value is not valid; use DefaultConfig.
type Config struct {
	Seed     int64
	Executor Executor
	Mode     Mode
	Sink     SinkKind
	// DBPath keeps the table sink's database at this path ("" = temporary).
	DBPath string
	// NoLedger turns the failure-free comparison off (for benchmarks).
	NoLedger bool
	// QueueCap bounds each node's input queue, in elements.
	QueueCap int
	// Semantics is the guarantee asked for; HA the mechanism ("" picks the
	// semantics' default).
	Semantics Semantics
	HA        HAScheme
	// Restart decides whether and when failed tasks restart; its zero
	// value (Kind "") is "nothing configured", which New resolves as Flink
	// does (DefaultRestart).
	Restart restart.Strategy
	// Deployment says what replaces a lost task manager: nothing on a
	// standalone cluster (someone starts one: `restart NODE`), a resource
	// manager's new one after Provision when managed. A task that fails by
	// itself keeps its task manager either way.
	Deployment Deployment
	Provision  time.Duration
	// SlotRequestTimeout is how long a restarted task waits for a slot
	// before its request fails with NoResourceAvailableException, a new
	// failure the restart strategy counts (Flink's slot.request.timeout,
	// 5 min by default).
	SlotRequestTimeout time.Duration
	// CheckpointInterval is the number of source records between barriers.
	CheckpointInterval int64
	// SinkCommit is how an exactly-once table sink commits: transactional
	// (two-phase commit at checkpoints) or idempotent (upserts).
	SinkCommit SinkCommit
	// Filter is the membership filter of a dedup stage before the sink
	// (none: no stage).
	Filter filter.Spec
	// JobManagerHA is Flink's high-availability.type in two words: none (the
	// job manager is a single point of failure: its job fails with it) or
	// standby (a standby job manager becomes leader once the failed
	// leader's lease has run out, and restarts the job).
	JobManagerHA JobManagerHA
	Lease        time.Duration
	// MemoryBudget, when above 0, bounds the memory the run's state may
	// hold, in bytes (see Runtime.MemoryHeld): a filter bigger than it is
	// refused, and a run whose state grows past it fails, saying what
	// holds the most. The deterministic executor checks it as it steps.
	MemoryBudget int64
}

// Semantics is a delivery guarantee: what a failure may do to the output.
type Semantics string

// The guarantees, weakest first.
const (
	AtMostOnce  Semantics = "at-most-once"
	AtLeastOnce Semantics = "at-least-once"
	ExactlyOnce Semantics = "exactly-once"
)

// AllSemantics lists the guarantees, weakest first.
var AllSemantics = []Semantics{AtMostOnce, AtLeastOnce, ExactlyOnce}

// HAScheme is the mechanism that recovers a failed task's work.
type HAScheme string

// HA schemes, from keeping nothing to a twin that keeps everything.
const (
	HANone           HAScheme = "none"
	HAUpstreamBackup HAScheme = "upstream-backup"
	HAPassiveStandby HAScheme = "passive-standby"
	HAActiveStandby  HAScheme = "active-standby"
)

// HASchemes lists the HA schemes.
var HASchemes = []HAScheme{HANone, HAUpstreamBackup, HAPassiveStandby, HAActiveStandby}

// Deployment is what replaces a lost task manager: nobody, or a resource
// manager.
type Deployment string

// Deployments.
const (
	DeployStandalone Deployment = "standalone"
	DeployManaged    Deployment = "managed"
)

// SinkCommit is how an exactly-once table sink makes its writes final.
type SinkCommit string

// Sink commit protocols.
const (
	CommitTransactional SinkCommit = "transactional"
	CommitIdempotent    SinkCommit = "idempotent"
)

// JobManagerHA is whether a standby job manager takes over from a failed
// leader (Flink's high-availability.type, in two words).
type JobManagerHA string

// Job manager HA.
const (
	JobManagerHANone    JobManagerHA = "none"
	JobManagerHAStandby JobManagerHA = "standby"
)

// DefaultLease is how long a follower waits for a silent leader before
// taking over: Flink's Kubernetes HA lease duration (15 s).
const DefaultLease = 15 * time.Second

// DefaultSlotRequestTimeout is Flink's slot.request.timeout default.
const DefaultSlotRequestTimeout = 5 * time.Minute

// DefaultConfig is the configuration a lab script starts from. No restart
// strategy is configured: New picks Flink's default for the scheme
// (DefaultRestart).
func DefaultConfig() Config {
	return Config{Seed: 1, Executor: ExecDeterministic, Mode: ModeUpdate, Sink: SinkLog, QueueCap: 1024,
		Semantics: AtMostOnce, Deployment: DeployManaged, Provision: 5 * time.Second, SlotRequestTimeout: DefaultSlotRequestTimeout,
		CheckpointInterval: 1000, SinkCommit: CommitTransactional, JobManagerHA: JobManagerHANone, Lease: DefaultLease}
}

// DefaultRestart is the restart strategy a job runs with when none is
// configured, as Flink 2.3 picks it (measured): with checkpointing off,
// none (NoRestartBackoffTimeStrategy: the first failure fails the job);
// with checkpointing on, exponential-delay with its defaults and unlimited
// attempts. Here gap recovery (ha none) is the job without checkpoints.
// Upstream backup and active standby have no Flink counterpart; they exist
// to recover, and get exponential-delay like a checkpointed job.
func DefaultRestart(ha HAScheme) restart.Strategy {
	kind := restart.Exponential
	if ha == HANone {
		kind = restart.None
	}
	s, _ := restart.Default(kind)
	return s
}

// DefaultHA is the mechanism each guarantee uses unless told otherwise.
func DefaultHA(semantics Semantics) HAScheme {
	switch semantics {
	case AtLeastOnce:
		return HAUpstreamBackup
	case ExactlyOnce:
		return HAPassiveStandby
	}
	return HANone
}

// Guarantee works out which guarantee a configuration really gives, with
// a note saying why when that is weaker than asked; a combination whose
// mechanism cannot even try for the guarantee is an error that says why.
func Guarantee(cfg Config, spec jobspec.Spec) (semantics Semantics, ha HAScheme, note string, err error) {
	ha = cfg.HA
	if ha == "" {
		ha = DefaultHA(cfg.Semantics)
	}
	switch {
	case !slices.Contains(AllSemantics, cfg.Semantics):
		return "", "", "", badConfig("unknown semantics %q; expected at-most-once, at-least-once or exactly-once", cfg.Semantics)
	case !slices.Contains(HASchemes, ha):
		return "", "", "", badConfig("unknown ha %q; expected none, upstream-backup, passive-standby or active-standby", ha)
	case ha == HANone && cfg.Semantics != AtMostOnce:
		return "", "", "", badConfig("%s needs preserved input, but ha none (gap recovery) keeps nothing: a replacement starts empty from the current input; use ha %s", cfg.Semantics, strings.Join(preservingHA(cfg, spec), " or "))
	case ha == HAUpstreamBackup && cfg.Semantics == ExactlyOnce:
		return "", "", "", badConfig("exactly-once needs checkpoints: upstream backup replays whatever downstream had not acknowledged, so the sink sees some records twice; use ha passive-standby")
	case ha != HANone && cfg.Semantics == AtMostOnce:
		return "", "", "", badConfig("ha %s replays input after a failure, which gives at-least-once, more than at-most-once asks; set semantics at-least-once (or ha none)", ha)
	}
	if cfg.Executor == ExecConcurrent && (ha == HAUpstreamBackup || ha == HAActiveStandby) {
		// Both keep state per channel (backup queues trimmed by what the
		// receiver still holds; a standby fed in step) that only the
		// deterministic executor can read at a consistent point.
		return "", "", "", badConfig("ha %s needs the deterministic executor: it trims and replays per channel, from what each receiver still holds, which the concurrent executor's goroutines do not expose; use ha passive-standby or executor deterministic", ha)
	}
	if cfg.JobManagerHA != "" && cfg.JobManagerHA != JobManagerHANone && cfg.JobManagerHA != JobManagerHAStandby {
		return "", "", "", badConfig("unknown jobmanager.ha %q; expected none or standby", cfg.JobManagerHA)
	}
	inPlace := cfg.Sink == SinkTable && cfg.Mode != ModeAppend
	if cfg.Semantics == AtLeastOnce && ha == HAPassiveStandby && inPlace {
		return AtLeastOnce, ha, "at-least-once asked, and the table sink does better: it writes without transactions, but rows replayed after a restore overwrite themselves in place, so the table ends as a failure-free run's would; the log or append mode would show the duplicates", nil
	}
	if cfg.Semantics == ExactlyOnce && ha == HAActiveStandby && cfg.JobManagerHA == JobManagerHAStandby && !inPlace {
		return AtLeastOnce, ha, "exactly-once asked, at-least-once in effect: active standby keeps no checkpoints, so when the job manager fails over the new leader restarts the job from the beginning of the source, and the sink receives those records again", nil
	}
	if cfg.Semantics != ExactlyOnce || ha == HAActiveStandby {
		// An active standby replays nothing, so no sink sees a record twice.
		return cfg.Semantics, ha, "", nil
	}
	if cfg.Sink == SinkLog {
		return AtLeastOnce, ha, "exactly-once asked, at-least-once in effect: the log sink is append-only and has no transactions, so what it wrote after the last checkpoint is written again after a restore", nil
	}
	if cfg.SinkCommit == CommitIdempotent && cfg.Mode == ModeAppend {
		return AtLeastOnce, ha, "exactly-once asked, at-least-once in effect: appending rows is not idempotent, so rows replayed after a restore are appended twice; use sink.commit transactional or mode update", nil
	}
	return ExactlyOnce, ha, "", nil
}

// preservingHA lists the schemes that preserve input (upstream backup,
// passive standby) which cfg's guarantee and executor accept: a refusal
// of ha none suggests only those, never one that is refused in turn
// (upstream backup under exactly-once or the concurrent executor).
func preservingHA(cfg Config, spec jobspec.Spec) []string {
	var out []string
	for _, ha := range []HAScheme{HAUpstreamBackup, HAPassiveStandby} {
		c := cfg
		c.HA = ha
		if _, _, _, err := Guarantee(c, spec); err == nil {
			out = append(out, string(ha))
		}
	}
	return out
}

// aggregates reports whether the job has an aggregation.
func aggregates(spec jobspec.Spec) bool {
	return slices.ContainsFunc(spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
}

// CheckMode applies Spark's rules for which output modes a query allows
// (Structured Streaming programming guide, "Output Modes"):
//
//   - aggregation with a watermark: append, update, complete;
//   - aggregation without a watermark: update, complete (append would have
//     to wait forever for a window to become final);
//   - no aggregation: append, update (complete would have to keep all input).
func CheckMode(spec jobspec.Spec, mode Mode, hasWatermark bool) error {
	if !slices.Contains(Modes, mode) {
		return badConfig("unknown output mode %q; expected append, update or complete", mode)
	}
	agg := aggregates(spec)
	switch {
	case mode == ModeComplete && !agg:
		return badConfig("complete mode is not supported for job %q: it has no aggregation, and complete output would have to keep all input (Spark allows append or update here)", spec.Name)
	case mode == ModeAppend && agg && !hasWatermark:
		return badConfig("append mode needs a watermark on job %q: without one a window never becomes final, so no row could ever be appended (Spark allows update or complete here)", spec.Name)
	}
	return nil
}
