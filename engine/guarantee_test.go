package engine_test

import (
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// A refusal of ha none suggests schemes; each one it suggests is accepted
// with the same guarantee and executor (exactly-once once suggested
// upstream backup, which it refuses).
func TestRefusedHASuggestsOnlyWhatRuns(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	for _, sem := range []engine.Semantics{engine.AtLeastOnce, engine.ExactlyOnce} {
		for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
			cfg := engine.DefaultConfig()
			cfg.Semantics, cfg.HA, cfg.Executor = sem, engine.HANone, exec
			_, _, _, err := engine.Guarantee(cfg, spec)
			if err == nil {
				t.Fatalf("%s, %s: ha none accepted", sem, exec)
			}
			_, suggested, ok := strings.Cut(err.Error(), "; use ha ")
			if !ok {
				t.Fatalf("%s, %s: no scheme suggested: %v", sem, exec, err)
			}
			for _, ha := range strings.Split(suggested, " or ") {
				c := cfg
				c.HA = engine.HAScheme(ha)
				if _, _, _, err := engine.Guarantee(c, spec); err != nil {
					t.Errorf("%s, %s: ha none's refusal suggests %s, which is refused: %v", sem, exec, ha, err)
				}
			}
		}
	}
}
