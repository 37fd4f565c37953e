package engine_test

import (
	"context"
	"errors"
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

// drawSpec draws a job shape: one of the built-in jobs, or 1–4 operator
// stages of parse, map, filter and (last) a tumbling or sliding window
// count, each with a parallelism of 1–4 and forward, hash or rebalance
// edges.
func drawSpec(t *rapid.T) jobspec.Spec {
	if rapid.IntRange(0, 3).Draw(t, "builtin") == 0 {
		spec, _ := jobspec.Builtin(rapid.SampledFrom([]string{"clicks", "passthrough"}).Draw(t, "job"))
		return spec
	}
	spec := jobspec.Spec{Name: "shape", Source: jobspec.DefaultSource()}
	actions := spec.Source.Actions
	prev := 1
	stages := rapid.IntRange(1, 4).Draw(t, "stages")
	for i := range stages {
		kinds := []string{jobspec.KindParse, jobspec.KindMap, jobspec.KindFilter}
		if i == stages-1 {
			kinds = append(kinds, jobspec.KindWindowCount, jobspec.KindWindowCount)
		}
		op := jobspec.Operator{Name: fmt.Sprintf("op%d", i), Kind: rapid.SampledFrom(kinds).Draw(t, "kind"),
			Parallelism: rapid.IntRange(1, 4).Draw(t, "parallelism")}
		partitions := []string{jobspec.PartitionHash, jobspec.PartitionRebalance}
		if op.Parallelism == prev {
			partitions = append(partitions, jobspec.PartitionForward)
		}
		if op.Kind == jobspec.KindWindowCount && op.Parallelism > 1 {
			partitions = []string{jobspec.PartitionHash} // counts per key need keyed input
		}
		op.Partition = rapid.SampledFrom(partitions).Draw(t, "partition")
		switch op.Kind {
		case jobspec.KindFilter:
			op.Drop = rapid.SliceOfNDistinct(rapid.SampledFrom(actions), 0, 2, rapid.ID[string]).Draw(t, "drop")
		case jobspec.KindWindowCount:
			op.Window = time.Duration(rapid.SampledFrom([]int{5, 10, 20}).Draw(t, "window")) * time.Second
			op.Slide = op.Window / time.Duration(rapid.SampledFrom([]int{1, 1, 2, 4}).Draw(t, "slides"))
		}
		spec.Operators = append(spec.Operators, op)
		prev = op.Parallelism
	}
	if err := spec.WithDefaults().Validate(); err != nil {
		t.Fatalf("drew an invalid spec: %v", err)
	}
	return spec.WithDefaults()
}

// drawRestart draws a restart strategy that keeps restarting through a
// scenario's few failures, with delays up to a few seconds.
func drawRestart(t *rapid.T) engine.RestartStrategy {
	ms := func(label string, hi int) string { return fmt.Sprintf("%dms", rapid.IntRange(0, hi).Draw(t, label)) }
	var s engine.RestartStrategy
	var err error
	switch rapid.IntRange(0, 2).Draw(t, "restart") {
	case 0:
		s, err = engine.ParseRestart(engine.RestartFixedDelay, map[string]string{"attempts": "1000", "delay": ms("delay", 3000)})
	case 1:
		s, err = engine.ParseRestart(engine.RestartFailureRate, map[string]string{"max": "1000", "interval": "1m", "delay": ms("delay", 3000)})
	default:
		s, err = engine.ParseRestart(engine.RestartExponential, map[string]string{"initial": "1s", "max": "5s", "jitter": "0.1"})
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func drawScenario(t *rapid.T, semantics string) scenario {
	spec := drawSpec(t)
	spec.Source.Rate = rapid.SampledFrom([]int{50, 100, 200}).Draw(t, "rate")
	cfg := engine.DefaultConfig()
	cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
	cfg.Semantics = semantics
	aggregates := slices.ContainsFunc(spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
	modes := []engine.Mode{engine.ModeAppend, engine.ModeUpdate}
	if aggregates {
		modes = append(modes, engine.ModeComplete)
	}
	cfg.Mode = rapid.SampledFrom(modes).Draw(t, "mode")
	cfg.Sink = rapid.SampledFrom([]string{engine.SinkLog, engine.SinkTable}).Draw(t, "sink")
	switch semantics {
	case engine.ExactlyOnce:
		cfg.Sink = engine.SinkTable
		cfg.HA = rapid.SampledFrom([]string{engine.HAPassiveStandby, engine.HAActiveStandby}).Draw(t, "ha")
		if cfg.Mode != engine.ModeAppend {
			cfg.SinkCommit = rapid.SampledFrom([]string{engine.CommitTransactional, engine.CommitIdempotent}).Draw(t, "commit")
		}
	case engine.AtLeastOnce:
		cfg.HA = rapid.SampledFrom([]string{engine.HAUpstreamBackup, engine.HAPassiveStandby, engine.HAActiveStandby}).Draw(t, "ha")
	}
	cfg.CheckpointInterval = rapid.Int64Range(50, 800).Draw(t, "interval")
	cfg.Restart = drawRestart(t)
	cfg.Deployment = rapid.SampledFrom([]string{engine.DeployManaged, engine.DeployManaged, engine.DeployStandalone}).Draw(t, "deployment")
	cfg.Provision = time.Duration(rapid.IntRange(0, 60_000).Draw(t, "provision")) * time.Millisecond
	cfg.JobManagerHA = rapid.SampledFrom([]string{engine.JobManagerHAStandby, engine.JobManagerHAStandby, engine.JobManagerHANone}).Draw(t, "jobmanager.ha")
	cfg.Lease = time.Duration(rapid.IntRange(1, 20).Draw(t, "lease")) * time.Second

	nodes := spec.Nodes()
	transactional := cfg.Sink == engine.SinkTable && semantics == engine.ExactlyOnce && cfg.HA == engine.HAPassiveStandby && cfg.SinkCommit == engine.CommitTransactional
	s := scenario{spec: spec, cfg: cfg}
	for i := range rapid.IntRange(1, 5).Draw(t, "phases") {
		switch rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("action%d", i)) {
		case 0, 1:
			name, at := rapid.SampledFrom(nodes).Draw(t, "node"), rapid.Int64Range(0, 1500).Draw(t, "at")
			s.desc = append(s.desc, fmt.Sprintf("kill %s at %d", name, at))
			s.steps = append(s.steps, func(rt *engine.Runtime) error { return rt.KillAt(name, at) })
		case 2:
			name := rapid.SampledFrom(append(slices.Clone(nodes), engine.JobManager)).Draw(t, "now")
			s.desc = append(s.desc, "kill "+name)
			s.steps = append(s.steps, func(rt *engine.Runtime) error {
				if err := rt.Kill(name); !errors.Is(err, engine.ErrAlreadyDown) {
					return err
				}
				return nil // a second failure of a node that is down changes nothing
			})
		case 3:
			if transactional {
				s.desc = append(s.desc, "kill sink at commit")
				s.steps = append(s.steps, func(rt *engine.Runtime) error { return rt.KillAtCommit("sink") })
			}
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

// settle runs quiet time, 10 s at a time, restarting by hand what a
// standalone deployment leaves down: rounds of it if rounds > 0, or until
// every node is up again; it returns how many rounds that took.
func settle(rt *engine.Runtime, rounds int) (int, error) {
	limit := rounds
	if limit <= 0 {
		limit = 40
	}
	for i := 1; i <= limit; i++ {
		if rt.Config().Deployment == engine.DeployStandalone {
			for _, n := range rt.Snapshot().Nodes {
				if n.State == engine.NodeKilled {
					if err := rt.Restart(n.Name); err != nil {
						return i, err
					}
				}
			}
		}
		if err := quiet(rt, 1); err != nil {
			return i, err
		}
		up := !slices.ContainsFunc(rt.Snapshot().Nodes, func(n engine.NodeSnapshot) bool { return n.State != engine.NodeRunning })
		if rounds <= 0 && up {
			return i, nil
		}
	}
	if rounds > 0 {
		return rounds, nil
	}
	return limit, fmt.Errorf("nodes still down after %d s of quiet time", limit*10)
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
	rounds, err = settle(rt, rounds)
	if err != nil && rt.Snapshot().State != engine.StateFailed {
		t.Fatalf("%v", err)
	}
	return rt.Report(), rounds
}

// The guarantees hold whatever the job shape, seed and failure schedule:
// exactly-once never loses or duplicates and matches the failure-free run;
// at-least-once never loses; at-most-once never duplicates. A job fails
// only for the reasons the scheme documents.
func TestGuaranteesUnderFailures(t *testing.T) {
	for _, semantics := range []string{engine.AtMostOnce, engine.AtLeastOnce, engine.ExactlyOnce} {
		t.Run(semantics, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := drawScenario(t, semantics)
				rep, rounds := s.run(t, 0)
				if rep.Job.State == engine.StateFailed {
					switch {
					case rep.Config.HA == engine.HAActiveStandby && strings.Contains(rep.Job.Error, "no active standby left"):
						return // a second failure before a new standby was up: the scheme gives up, as it says
					case s.cfg.JobManagerHA == engine.JobManagerHANone && strings.Contains(rep.Job.Error, "high availability is off"):
						return // without HA the job fails with its job manager, as Flink's does
					}
					t.Fatalf("job failed: %s (%v)", rep.Job.Error, s.desc)
				}
				sk := rep.Sink
				if sk.Pending != 0 {
					t.Fatalf("every node is up, yet %d pending: %+v after %v", sk.Pending, sk, s.desc)
				}
				switch rep.Config.Semantics {
				case engine.ExactlyOnce:
					if sk.Lost != 0 || sk.Duplicates != 0 || !sk.Correct {
						t.Fatalf("exactly-once broken: %+v after %v", sk, s.desc)
					}
					if rep.Config.HA == engine.HAPassiveStandby && !slices.Contains(s.desc, "kill sink at commit") {
						// The concurrent executor fails over from the same
						// checkpoints, wherever its goroutines had got to.
						// Both get the same quiet time: enough for either to
						// have every node up again.
						s.cfg.Executor = engine.ExecConcurrent
						crep, crounds := s.run(t, 0)
						switch {
						case crounds > rounds:
							s.cfg.Executor = engine.ExecDeterministic
							rep, _ = s.run(t, crounds)
							sk = rep.Sink
						case crounds < rounds:
							crep, _ = s.run(t, rounds)
						}
						c := crep.Sink
						if c.Pending != 0 || sk.Pending != 0 {
							return // the longer quiet time let a later kill fire: one of them is still recovering
						}
						c.Batches = sk.Batches
						if crep.Job.State != rep.Job.State || c != sk {
							t.Fatalf("concurrent executor %s %+v, deterministic %s %+v, after %v", crep.Job.State, c, rep.Job.State, sk, s.desc)
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
