package engine

import (
	"github.com/streamlab/streamlab/engine/deps"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// Validated is a job and configuration the engine accepts: the config's
// defaults filled in, the spec with the dedup stage its filter asks for,
// and the guarantee the pair really gives.
type Validated struct {
	Spec   jobspec.Spec
	Config Config
	// Semantics and HA are what the job runs with; Note says why the
	// semantics are weaker than asked, when they are.
	Semantics Semantics
	HA        HAScheme
	Note      string
}

// Validate says whether New would accept spec and cfg, and with which
// guarantee, without opening a sink, reading a source file or building
// the graph: the pickers ask it once per candidate value. The checks run
// in the order New's errors have always come in, so the first rule broken
// is the one reported.
func Validate(spec jobspec.Spec, cfg Config) (Validated, error) {
	if cfg.QueueCap <= 0 {
		cfg.QueueCap = DefaultConfig().QueueCap
	}
	if err := CheckMode(spec, cfg.Mode, spec.Source.Watermark >= 0); err != nil {
		return Validated{}, err
	}
	if err := cfg.Filter.Validate(); cfg.Filter.Kind != "" && err != nil {
		return Validated{}, badConfig("%v", err)
	}
	if err := CheckFilterBudget(cfg); err != nil {
		return Validated{}, err
	}
	spec = withDedup(spec, cfg.Filter)
	if cfg.Mode == ModeComplete && dedupAfterAggregation(spec) {
		return Validated{}, badConfig("a dedup stage after an aggregation cannot run in complete mode: every batch repeats the whole table on purpose, and the filter would drop the rows that did not change; use update or append, or dedup the input before it is counted")
	}
	if cfg.Sink != SinkLog && cfg.Sink != SinkTable {
		return Validated{}, badConfig("unknown sink %q; expected log or table", cfg.Sink)
	}
	if cfg.Executor == "" {
		cfg.Executor = ExecDeterministic
	}
	if cfg.Executor != ExecDeterministic && cfg.Executor != ExecConcurrent {
		return Validated{}, badConfig("unknown executor %q; expected deterministic or concurrent", cfg.Executor)
	}
	if err := deps.CheckDependencies(spec); err != nil {
		return Validated{}, err
	}
	semantics, ha, note, err := Guarantee(cfg, spec)
	if err != nil {
		return Validated{}, err
	}
	if cfg.Deployment != DeployStandalone && cfg.Deployment != DeployManaged {
		return Validated{}, badConfig("unknown deployment %q; expected standalone or managed", cfg.Deployment)
	}
	if cfg.Restart.Kind == "" {
		cfg.Restart = DefaultRestart(ha)
	}
	if cfg.SlotRequestTimeout <= 0 {
		cfg.SlotRequestTimeout = DefaultSlotRequestTimeout
	}
	return Validated{Spec: spec, Config: cfg, Semantics: semantics, HA: ha, Note: note}, nil
}
