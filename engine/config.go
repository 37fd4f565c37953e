package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// ErrBadConfig marks a job or configuration that cannot run as asked; the
// message says which rule and why.
var ErrBadConfig = errors.New("invalid configuration")

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

// Sink kinds.
const (
	SinkLog   = "log"   // append-only: every write is a new line
	SinkTable = "table" // a SQLite table updated in place
)

// Executor kinds.
const (
	ExecDeterministic = "deterministic"
	ExecConcurrent    = "concurrent"
)

// Config is how a job runs. The zero value is not valid; use DefaultConfig.
type Config struct {
	Seed     int64
	Executor string
	Mode     Mode
	Sink     string
	// DBPath keeps the table sink's database at this path ("" = temporary).
	DBPath string
	// NoLedger turns the failure-free comparison off (for benchmarks).
	NoLedger bool
	// QueueCap bounds each node's input queue, in elements.
	QueueCap int
}

// DefaultConfig is the configuration a lab script starts from.
func DefaultConfig() Config {
	return Config{Seed: 1, Executor: ExecDeterministic, Mode: ModeUpdate, Sink: SinkLog, QueueCap: 1024}
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
		return fmt.Errorf("%w: unknown output mode %q; expected append, update or complete", ErrBadConfig, mode)
	}
	agg := aggregates(spec)
	switch {
	case mode == ModeComplete && !agg:
		return fmt.Errorf("%w: complete mode is not supported for job %q: it has no aggregation, and complete output would have to keep all input (Spark allows append or update here)", ErrBadConfig, spec.Name)
	case mode == ModeAppend && agg && !hasWatermark:
		return fmt.Errorf("%w: append mode needs a watermark on job %q: without one a window never becomes final, so no row could ever be appended (Spark allows update or complete here)", ErrBadConfig, spec.Name)
	}
	return nil
}
