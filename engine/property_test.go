package engine_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// scenario is a random job, configuration and failure schedule.
type scenario struct {
	spec  jobspec.Spec
	cfg   engine.Config
	steps []func(*engine.Runtime) error
	desc  []string
}

func drawScenario(t *rapid.T, semantics string) scenario {
	job := rapid.SampledFrom([]string{"clicks", "passthrough"}).Draw(t, "job")
	spec, _ := jobspec.Builtin(job)
	spec.Source.Rate = rapid.SampledFrom([]int{50, 100, 200}).Draw(t, "rate")
	cfg := engine.DefaultConfig()
	cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
	cfg.Semantics = semantics
	modes := []engine.Mode{engine.ModeAppend, engine.ModeUpdate}
	if job == "clicks" {
		modes = append(modes, engine.ModeComplete)
	}
	cfg.Mode = rapid.SampledFrom(modes).Draw(t, "mode")
	cfg.Sink = rapid.SampledFrom([]string{engine.SinkLog, engine.SinkTable}).Draw(t, "sink")
	if semantics == engine.ExactlyOnce {
		cfg.Sink = engine.SinkTable
		cfg.CheckpointInterval = rapid.Int64Range(50, 800).Draw(t, "interval")
		if cfg.Mode != engine.ModeAppend {
			cfg.SinkCommit = rapid.SampledFrom([]string{engine.CommitTransactional, engine.CommitIdempotent}).Draw(t, "commit")
		}
	}
	if semantics == engine.AtLeastOnce {
		cfg.HA = rapid.SampledFrom([]string{engine.HAUpstreamBackup, engine.HAPassiveStandby, engine.HAActiveStandby}).Draw(t, "ha")
		cfg.CheckpointInterval = rapid.Int64Range(50, 800).Draw(t, "interval")
	}
	if semantics == engine.ExactlyOnce {
		cfg.HA = rapid.SampledFrom([]string{engine.HAPassiveStandby, engine.HAActiveStandby}).Draw(t, "ha")
	}
	cfg.Restart, _ = engine.ParseRestart(engine.RestartFixedDelay, map[string]string{
		"attempts": "1000", "delay": fmt.Sprintf("%dms", rapid.IntRange(0, 2000).Draw(t, "delay"))})
	cfg.Provision = time.Duration(rapid.IntRange(0, 2000).Draw(t, "provision")) * time.Millisecond

	nodes := []string{"source", "sink"}
	for _, op := range spec.Operators {
		for i := range op.Parallelism {
			if op.Parallelism == 1 {
				nodes = append(nodes, op.Name)
			} else {
				nodes = append(nodes, fmt.Sprintf("%s[%d]", op.Name, i))
			}
		}
	}
	s := scenario{spec: spec, cfg: cfg}
	for i := range rapid.IntRange(1, 5).Draw(t, "phases") {
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("action%d", i)) {
		case 0:
			name, at := rapid.SampledFrom(nodes).Draw(t, "node"), rapid.Int64Range(0, 1500).Draw(t, "at")
			s.desc = append(s.desc, fmt.Sprintf("kill %s at %d", name, at))
			s.steps = append(s.steps, func(rt *engine.Runtime) error { return rt.KillAt(name, at) })
		case 1:
			name := rapid.SampledFrom(append(slices.Clone(nodes), engine.JobManager)).Draw(t, "now")
			s.desc = append(s.desc, "kill "+name)
			s.steps = append(s.steps, func(rt *engine.Runtime) error { return rt.Kill(name) })
		}
		n := rapid.Int64Range(1, 600).Draw(t, "records")
		s.desc = append(s.desc, fmt.Sprintf("run %d", n))
		s.steps = append(s.steps, func(rt *engine.Runtime) error {
			rt.Admit(n)
			return rt.Run(context.Background())
		})
	}
	// Quiet time at the end, until every node is up again, lets every
	// scheduled restart happen (see run).
	s.desc = append(s.desc, "run 10s until all nodes run")
	return s
}

// settle runs quiet time, 10 s at a time, until every node is up again,
// and returns how many rounds that took.
func settle(rt *engine.Runtime) (int, error) {
	for i := 1; i <= 20; i++ {
		if err := quiet(rt, 1); err != nil {
			return i, err
		}
		if !slices.ContainsFunc(rt.Snapshot().Nodes, func(n engine.NodeSnapshot) bool { return n.State != engine.NodeRunning }) {
			return i, nil
		}
	}
	return 20, fmt.Errorf("nodes still down after 200 s of quiet time")
}

// quiet runs rounds × 10 s of quiet time.
func quiet(rt *engine.Runtime, rounds int) error {
	for range rounds {
		rt.AdmitFor(10 * time.Second)
		if err := rt.Run(context.Background()); err != nil {
			return err
		}
	}
	return nil
}

// run plays the scenario, then quiet time: rounds of it if rounds > 0, or
// until every node is up again; it returns the report and the rounds.
func (s scenario) run(t *rapid.T, rounds int) (engine.Report, int) {
	rt, err := engine.New(s.spec, s.cfg)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer rt.Close()
	for _, step := range s.steps {
		if err := step(rt); err != nil {
			if rt.Snapshot().State == engine.StateFailed {
				return rt.Report(), rounds // the report says why
			}
			t.Fatalf("%v", err)
		}
	}
	if rounds > 0 {
		err = quiet(rt, rounds)
	} else {
		rounds, err = settle(rt)
	}
	if err != nil && rt.Snapshot().State != engine.StateFailed {
		t.Fatalf("%v", err)
	}
	return rt.Report(), rounds
}

// The guarantees hold whatever the job, seed and failure schedule:
// exactly-once never loses or duplicates and matches the failure-free run;
// at-least-once never loses; at-most-once never duplicates.
func TestGuaranteesUnderFailures(t *testing.T) {
	for _, semantics := range []string{engine.AtMostOnce, engine.AtLeastOnce, engine.ExactlyOnce} {
		t.Run(semantics, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := drawScenario(t, semantics)
				rep, rounds := s.run(t, 0)
				if rep.Job.State == engine.StateFailed {
					if rep.Config.HA == engine.HAActiveStandby && strings.Contains(rep.Job.Error, "no active standby left") {
						t.Skip("a second failure before a new standby was up: the scheme gives up, as it says")
					}
					t.Fatalf("job failed: %s (%v)", rep.Job.Error, s.desc)
				}
				sk := rep.Sink
				switch rep.Config.Semantics {
				case engine.ExactlyOnce:
					if sk.Lost != 0 || sk.Duplicates != 0 || !sk.Correct {
						t.Fatalf("exactly-once broken: %+v after %v", sk, s.desc)
					}
					if rep.Config.HA == engine.HAPassiveStandby {
						// The concurrent executor fails over from the same
						// checkpoints, wherever its goroutines had got to.
						s.cfg.Executor = engine.ExecConcurrent
						crep, _ := s.run(t, rounds)
						c := crep.Sink
						c.Batches = sk.Batches
						if c != sk {
							t.Fatalf("concurrent executor %+v, deterministic %+v, after %v", c, sk, s.desc)
						}
					}
				case engine.AtLeastOnce:
					if sk.Lost != 0 {
						t.Fatalf("at-least-once lost %d: %+v after %v", sk.Lost, sk, s.desc)
					}
				case engine.AtMostOnce:
					if sk.Duplicates != 0 {
						t.Fatalf("at-most-once duplicated %d: %+v after %v", sk.Duplicates, sk, s.desc)
					}
				}
			})
		})
	}
}
