package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// honestRun starts a built-in job with cfg and admits records.
func honestRun(t *testing.T, job string, cfg engine.Config, records int64) *engine.Runtime {
	t.Helper()
	spec, ok := jobspec.Builtin(job)
	if !ok {
		t.Fatalf("no job %s", job)
	}
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	rt.Admit(records)
	return rt
}

// stepAll steps rt until it is quiet, calling each with the ledger as
// observers see it after every step.
func stepAll(t *testing.T, rt *engine.Runtime, each func(step int, l engine.LedgerTotals)) {
	t.Helper()
	for step := 0; ; step++ {
		more, err := rt.Step()
		if err != nil {
			t.Fatal(err)
		}
		l, _ := rt.Ledger()
		each(step, l)
		if !more {
			return
		}
	}
}

// semanticsCases is every semantics, and exactly-once into the table too
// (its transactions commit on checkpoints).
var semanticsCases = []struct {
	semantics engine.Semantics
	sink      engine.SinkKind
}{
	{engine.AtMostOnce, engine.SinkLog},
	{engine.AtLeastOnce, engine.SinkLog},
	{engine.ExactlyOnce, engine.SinkLog},
	{engine.ExactlyOnce, engine.SinkTable},
}

// A failure-free run equals the failure-free run at every step: nothing
// lost, nothing owed, correct — whatever the job, semantics and sink.
func TestLedgerFailureFreeIsCorrectAtEveryStep(t *testing.T) {
	for _, job := range []string{"clicks", "passthrough", "passwords"} {
		for _, c := range semanticsCases {
			t.Run(job+"/"+string(c.semantics)+"/"+string(c.sink), func(t *testing.T) {
				cfg := engine.DefaultConfig()
				cfg.Semantics, cfg.Sink = c.semantics, c.sink
				rt := honestRun(t, job, cfg, 1500)
				stepAll(t, rt, func(step int, l engine.LedgerTotals) {
					if l.Lost != 0 || l.Owed != 0 || !l.Correct {
						t.Fatalf("step %d: %+v", step, l)
					}
				})
			})
		}
	}
}

// What an exactly-once table sink holds in an open transaction is not
// delivered yet, and not lost: it is counted as uncommitted.
func TestLedgerUncommittedIsNotLost(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Sink = engine.ExactlyOnce, engine.SinkTable
	rt := honestRun(t, "clicks", cfg, 2000)
	var held int64
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		held = max(held, l.Uncommitted)
		if l.Lost != 0 || !l.Correct {
			t.Fatalf("step %d: %+v", step, l)
		}
	})
	if held == 0 {
		t.Fatal("the sink never held a row uncommitted: the case is not tested")
	}
	rep := rt.ReportSoFar()
	if rep.Sink.Uncommitted != 0 || rep.Sink.Lost != 0 || !rep.Sink.Correct {
		t.Errorf("at the end: %+v", rep.Sink)
	}
}

// While parse is down in a standalone deployment, the failure-free run
// goes on: what it delivered is owed by upstream backup, not lost, and the
// sink is not correct; once parse is back and the replay is through,
// nothing is owed or lost.
func TestLedgerOwedWhileNodeIsDown(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Deployment = engine.AtLeastOnce, engine.DeployStandalone
	rt := honestRun(t, "clicks", cfg, 1000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := rt.Kill("parse"); err != nil {
		t.Fatal(err)
	}
	rt.Admit(1000)
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		if l.Lost != 0 {
			t.Fatalf("step %d while parse is down: %+v", step, l)
		}
	})
	l, _ := rt.Ledger()
	if l.Owed == 0 || l.Correct {
		t.Fatalf("parse down after 1000 more records: %+v; want something owed and not correct", l)
	}
	if rep := rt.ReportSoFar(); rep.Sink.Pending != l.Owed || rep.Sink.Lost != 0 || rep.Sink.Correct {
		t.Errorf("the report %+v, the ledger %+v", rep.Sink, l)
	}
	if err := rt.Restart("parse"); err != nil {
		t.Fatal(err)
	}
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		if l.Lost != 0 {
			t.Fatalf("step %d after the restart: %+v", step, l)
		}
	})
	if l, _ := rt.Ledger(); l.Owed != 0 || l.Lost != 0 {
		t.Errorf("quiet after the replay: %+v", l)
	}
}

// A job that failed does not equal the failure-free run, even when
// nothing was expected of it yet (a sink without its JDBC driver).
func TestLedgerFailedJobIsNotCorrect(t *testing.T) {
	spec, err := jobspec.Load("../lessons/content/10-job-start/no-driver.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.DefaultConfig()
	cfg.Sink = engine.SinkTable
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(3000)
	if err := rt.Run(context.Background()); err == nil {
		t.Fatal("the job without a driver ran")
	}
	rep := rt.ReportSoFar()
	if engine.JobStateOf(rep.Job) != engine.StateFailed {
		t.Fatalf("job %s", rep.Job.State)
	}
	if rep.Sink.Correct {
		t.Errorf("a failed job is correct: %+v", rep.Sink)
	}
	if l, _ := rt.Ledger(); l.Correct {
		t.Errorf("the ledger says correct: %+v", l)
	}
}

// Totals that cannot go back never do, over runs with failures under
// every semantics: lost records stay lost, late records stay dropped.
// The timeline's last sample is the ledger at every step, so the chart's
// strips and the pane's figures are one series.
func TestLedgerTotalsMonotoneAndTimelineIsTheLedger(t *testing.T) {
	for _, c := range semanticsCases {
		for _, victim := range []string{"parse", "count[1]"} {
			t.Run(fmt.Sprintf("%s/%s/%s", c.semantics, c.sink, victim), func(t *testing.T) {
				cfg := engine.DefaultConfig()
				cfg.Semantics, cfg.Sink = c.semantics, c.sink
				if c.semantics == engine.AtMostOnce {
					cfg.Restart = engine.DefaultRestart(engine.HAUpstreamBackup) // gap recovery that goes on
				}
				rt := killedRun(t, "clicks", cfg, victim, 700, 3000)
				var lost, late int64
				stepAll(t, rt, func(step int, l engine.LedgerTotals) {
					s := rt.Snapshot()
					if l.Lost < lost || s.DroppedLate < late {
						t.Fatalf("step %d: lost %d → %d, dropped late %d → %d", step, lost, l.Lost, late, s.DroppedLate)
					}
					lost, late = l.Lost, s.DroppedLate
					if s.Ledger != l {
						t.Fatalf("step %d: snapshot %+v, ledger %+v", step, s.Ledger, l)
					}
					tl := rt.Timeline()
					if n := len(tl.Samples); n > 0 && !sameSeries(tl.Samples[n-1].LedgerTotals, l) {
						t.Fatalf("step %d: the timeline ends at %+v, the ledger is %+v", step, tl.Samples[n-1].LedgerTotals, l)
					}
				})
				if rep := rt.Report(); rep.Recovery.Failures == 0 {
					t.Fatalf("%s never failed: the case is not tested", victim)
				} else if rep.Window.DroppedLate < late {
					t.Errorf("the report's dropped late %d < %d shown", rep.Window.DroppedLate, late)
				}
			})
		}
	}
}

// sameSeries reports whether a and b agree on what the ledger's chart and
// pane draw.
func sameSeries(a, b engine.LedgerTotals) bool {
	return a.Delivered == b.Delivered && a.Duplicates == b.Duplicates && a.Lost == b.Lost &&
		a.Owed == b.Owed && a.Expected == b.Expected && a.Correct == b.Correct
}

// A job that fails leaves records it will never deliver: once the report
// has run the failure-free job through everything admitted, they are lost,
// and the chart ends where the ledger's figures stand, at the failure (the
// job's clock stops there), not at the last batch before it.
func TestFailedJobsTimelineEndsAtItsLedger(t *testing.T) {
	for _, c := range semanticsCases {
		t.Run(string(c.semantics)+"/"+string(c.sink), func(t *testing.T) {
			cfg := engine.DefaultConfig()
			cfg.Semantics, cfg.Sink = c.semantics, c.sink
			cfg.Restart, _ = restart.Default(restart.None) // the first failure fails the job
			rt := killedRun(t, "clicks", cfg, "count[1]", 1200, 3000)
			if err := rt.Run(context.Background()); err == nil {
				t.Fatal("the job without restarts ran through its failure")
			}
			rep := rt.Report()
			if engine.JobStateOf(rep.Job) != engine.StateFailed {
				t.Fatalf("job %s", rep.Job.State)
			}
			l, _ := rt.Ledger()
			if l.Lost != rep.Sink.Lost || l.Lost == 0 {
				t.Fatalf("the ledger's lost %d, the report's %d", l.Lost, rep.Sink.Lost)
			}
			tl := rt.Timeline()
			last := tl.Samples[len(tl.Samples)-1]
			if !sameSeries(last.LedgerTotals, l) {
				t.Errorf("the timeline ends at %+v, the ledger is %+v", last.LedgerTotals, l)
			}
			if at, failed := rt.FailedAtMS(); !failed || last.TimeMS != at {
				t.Errorf("the timeline ends at %d ms, the job failed at %d ms (%v)", last.TimeMS, at, failed)
			}
		})
	}
}
