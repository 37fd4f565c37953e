package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// TestValidateAgreesWithNew is why the pickers may ask Validate instead of
// building a runtime per candidate value: over every built-in job and
// every combination of the settings the pickers offer, Validate refuses
// exactly what New refuses, with the same message, and accepts with the
// note New's report gives.
func TestValidateAgreesWithNew(t *testing.T) {
	filters := []filter.Spec{{}, {Kind: filter.KindExact}, {Kind: filter.KindBloom, M: 0, K: 3}}
	tried, refused := 0, 0
	for _, job := range jobspec.Names() {
		spec, _ := jobspec.Builtin(job)
		for _, sem := range []engine.Semantics{engine.AtMostOnce, engine.AtLeastOnce, engine.ExactlyOnce, "twice"} {
			for _, ha := range []engine.HAScheme{"", engine.HANone, engine.HAUpstreamBackup, engine.HAPassiveStandby, engine.HAActiveStandby} {
				for _, mode := range []engine.Mode{engine.ModeAppend, engine.ModeUpdate, engine.ModeComplete} {
					for _, sink := range []engine.SinkKind{engine.SinkLog, engine.SinkTable, "pipe"} {
						for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
							for _, f := range filters {
								cfg := engine.DefaultConfig()
								cfg.Semantics, cfg.HA, cfg.Mode, cfg.Sink, cfg.Executor, cfg.Filter = sem, ha, mode, sink, exec, f
								cfg.NoLedger = true
								tried++
								v, verr := engine.Validate(spec, cfg)
								rt, nerr := engine.New(spec, cfg)
								switch {
								case verr != nil:
									refused++
									if nerr == nil || nerr.Error() != verr.Error() {
										t.Fatalf("%s %+v: Validate says %v, New says %v", job, cfg, verr, nerr)
									}
								case nerr != nil:
									t.Fatalf("%s %+v: Validate accepts, New refuses: %v", job, cfg, nerr)
								default:
									if got := rt.Report().Config.Note; got != v.Note {
										t.Fatalf("%s %+v: note %q from Validate, %q from New", job, cfg, v.Note, got)
									}
									rt.Close()
								}
							}
						}
					}
				}
			}
		}
	}
	if refused == 0 || refused == tried {
		t.Fatalf("%d of %d combinations refused: the sweep does not reach both sides", refused, tried)
	}
}

// TestConfigErrorKeepsItsReasonApart: a configuration error is still
// ErrBadConfig and reads as before, and its reason is reached by type.
func TestConfigErrorKeepsItsReasonApart(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Sink = "pipe"
	spec, _ := jobspec.Builtin("passthrough")
	_, err := engine.Validate(spec, cfg)
	if !errors.Is(err, engine.ErrBadConfig) {
		t.Fatalf("%v is not ErrBadConfig", err)
	}
	const reason = `unknown sink "pipe"; expected log or table`
	if err.Error() != "invalid configuration: "+reason {
		t.Fatalf("message %q", err)
	}
	if got := engine.ConfigReason(err); got != reason {
		t.Fatalf("reason %q, want %q", got, reason)
	}
	if other := errors.New("disk full"); engine.ConfigReason(other) != "disk full" {
		t.Fatalf("another error's reason is its message, got %q", engine.ConfigReason(other))
	}
}

// BenchmarkPickerQuestion measures what a picker pays to ask whether one
// candidate value would run: Validate, against building and closing a
// runtime (what the pickers did before; the table sink opens a database),
// and prints the ratio from the same run.
func BenchmarkPickerQuestion(b *testing.B) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Sink, cfg.NoLedger = engine.ExactlyOnce, engine.SinkTable, true
	per := map[string]float64{}
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			rt, err := engine.New(spec, cfg)
			if err != nil {
				b.Fatal(err)
			}
			rt.Close()
		}
		per["new"] = float64(b.Elapsed()) / float64(b.N)
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if _, err := engine.Validate(spec, cfg); err != nil {
				b.Fatal(err)
			}
		}
		per["validate"] = float64(b.Elapsed()) / float64(b.N)
	})
	if per["new"] > 0 && per["validate"] > 0 {
		fmt.Printf("a picker's question is %.0f times cheaper than building a runtime (same run)\n", per["new"]/per["validate"])
	}
}
