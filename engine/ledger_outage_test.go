package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine"
)

// runQuiet processes what is admitted until rt is quiet.
func runQuiet(t *testing.T, rt *engine.Runtime) {
	t.Helper()
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// standbyLeaderRun is lesson 9's job: clicks into the table, exactly
// once, a standby job manager; 2500 records processed, then the job
// manager killed.
func standbyLeaderRun(t *testing.T) *engine.Runtime {
	t.Helper()
	return standbyLeaderRunOn(t, engine.ExecDeterministic)
}

// standbyLeaderRunOn is standbyLeaderRun under executor.
func standbyLeaderRunOn(t *testing.T, executor engine.Executor) *engine.Runtime {
	t.Helper()
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Sink, cfg.JobManagerHA = engine.ExactlyOnce, engine.SinkTable, engine.JobManagerHAStandby
	cfg.Executor = executor
	rt := honestRun(t, "clicks", cfg, 2500)
	runQuiet(t, rt)
	if err := rt.Kill(engine.JobManager); err != nil {
		t.Fatal(err)
	}
	return rt
}

// While the job has no leader, every task is cancelled and the source
// reads nothing, but the failure-free job goes on: what it would have
// delivered by now is owed (the new leader restores the last checkpoint
// and replays it), never lost, and the sink is not correct. Either
// executor: the concurrent one stops as the deterministic one does.
func TestLedgerOwedWhileTheJobHasNoLeader(t *testing.T) {
	for _, executor := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
		t.Run(string(executor), func(t *testing.T) {
			rt := standbyLeaderRunOn(t, executor)
			var owed int64
			for i := range 2 { // 10 s of the 15 s lease
				rt.AdmitFor(5 * time.Second)
				runQuiet(t, rt)
				l, _ := rt.Ledger()
				if l.Lost != 0 || l.Correct || l.Owed <= owed {
					t.Fatalf("%d s into the lease: %+v; want more owed than %d, nothing lost, not correct", 5*(i+1), l, owed)
				}
				owed = l.Owed
				if rep := rt.ReportSoFar(); rep.Sink.Pending != l.Owed || rep.Sink.Lost != 0 || rep.Sink.Correct {
					t.Fatalf("the report %+v, the ledger %+v", rep.Sink, l)
				}
			}
			if s := rt.Snapshot(); s.Ledger.Owed != owed {
				t.Fatalf("the snapshot's ledger %+v, owed %d", s.Ledger, owed)
			}
			rt.AdmitFor(10 * time.Second) // past the lease: the new leader restores and replays
			runQuiet(t, rt)
			caughtUp(t, rt)
		})
	}
}

// The lab paces a run by the played clock (PaceTo): during the lease the
// owed work grows with it, trigger by trigger (one a second), and nothing
// shows as lost. The first second's trigger closes a batch the kill had
// already closed: nothing is owed yet.
func TestLedgerOwedGrowsWithThePlayedClockDuringTheLease(t *testing.T) {
	rt := standbyLeaderRun(t)
	from := rt.AdmittedUntilMS()
	rt.AdmitFor(20 * time.Second)
	var owed int64
	for at := from + 2000; at < from+engine.DefaultLease.Milliseconds(); at += 1000 {
		rt.PaceTo(at)
		for {
			did, err := rt.Step()
			if err != nil {
				t.Fatal(err)
			}
			if !did {
				break
			}
		}
		if !rt.Held() {
			t.Fatalf("at %d ms the job is not held for its new leader", at)
		}
		l, _ := rt.Ledger()
		if l.Lost != 0 || l.Correct || l.Owed <= owed {
			t.Fatalf("%d ms into the lease: %+v after owed %d", at-from, l, owed)
		}
		owed = l.Owed
	}
	if owed == 0 {
		t.Fatal("nothing owed at the end of the lease")
	}
	// The lease runs out, the new leader restores the last checkpoint:
	// the failure-free run has got to the end of the lease by then, a
	// second after the last look, and the replay catches up with it
	// without ever showing a loss.
	before, _ := rt.Ledger()
	rt.PaceTo(1<<63 - 1)
	if did, err := rt.Step(); err != nil || !did {
		t.Fatalf("the new leader did not take over: %v", err)
	}
	if l, _ := rt.Ledger(); l.Expected <= before.Expected || l.Owed <= before.Owed || l.Lost != 0 {
		t.Fatalf("as the new leader takes over: %+v, a second before %+v", l, before)
	}
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		if l.Lost != 0 {
			t.Fatalf("step %d after the election: %+v", step, l)
		}
	})
	caughtUp(t, rt)
}

// caughtUp checks a quiet job after its recovery: nothing owed, and the
// ledger says what the complete comparison with the failure-free run
// says.
func caughtUp(t *testing.T, rt *engine.Runtime) {
	t.Helper()
	l, _ := rt.Ledger()
	rep := rt.Report()
	if l.Owed != 0 || rep.Sink.Pending != 0 {
		t.Fatalf("quiet after the recovery, still owed: %+v, report %+v", l, rep.Sink)
	}
	if l.Lost != rep.Sink.Lost || l.Correct != rep.Sink.Correct || l.Expected != rep.Sink.Expected {
		t.Fatalf("quiet: the ledger %+v, the whole comparison %+v", l, rep.Sink)
	}
	if rep.Recovery.Restarts == 0 {
		t.Fatal("nothing restarted: the case is not tested")
	}
}

// After the lease the new leader restores the job, and once the replay is
// through nothing is owed or lost: exactly once into the table is correct.
func TestLedgerAfterTheNewLeaderCaughtUp(t *testing.T) {
	rt := standbyLeaderRun(t)
	rt.AdmitFor(20 * time.Second)
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		if l.Lost != 0 {
			t.Fatalf("step %d: %+v", step, l)
		}
	})
	caughtUp(t, rt)
	if l, _ := rt.Ledger(); !l.Correct {
		t.Errorf("exactly once into the table, caught up: %+v", l)
	}
}

// wholeJobRestart kills count[1] of clicks under cfg once 1000 records
// were processed: the failure restarts every task together, after the
// provisioning of a new task manager (5 s).
func wholeJobRestart(t *testing.T, cfg engine.Config) *engine.Runtime {
	t.Helper()
	rt := honestRun(t, "clicks", cfg, 1000)
	runQuiet(t, rt)
	if err := rt.Kill("count[1]"); err != nil {
		t.Fatal(err)
	}
	if s := rt.Snapshot(); s.Nodes[0].State != engine.NodeRestarting {
		t.Fatalf("the source is %s: not a restart of the whole job", s.Nodes[0].State)
	}
	return rt
}

// While a failure restarts every task of an at-least-once job from its
// last checkpoint, what the failure-free job delivered meanwhile is owed;
// after the restart and the replay nothing is owed, and the ledger agrees
// with the complete comparison.
func TestLedgerOwedDuringWholeJobRestartAtLeastOnce(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.HA = engine.AtLeastOnce, engine.HAPassiveStandby
	rt := wholeJobRestart(t, cfg)
	rt.AdmitFor(3 * time.Second)
	runQuiet(t, rt)
	l, _ := rt.Ledger()
	if l.Owed == 0 || l.Lost != 0 || l.Correct {
		t.Fatalf("3 s into the restart: %+v; want something owed, nothing lost, not correct", l)
	}
	rt.AdmitFor(10 * time.Second)
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		if l.Lost != 0 {
			t.Fatalf("step %d: %+v", step, l)
		}
	})
	caughtUp(t, rt)
}

// Gap recovery preserves nothing: what the failure-free job delivered
// while every task restarted is lost, not owed.
func TestLedgerLostDuringWholeJobRestartAtMostOnce(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.Restart = engine.DefaultRestart(engine.HAUpstreamBackup) // a job without checkpoints that restarts
	rt := wholeJobRestart(t, cfg)
	rt.AdmitFor(3 * time.Second)
	runQuiet(t, rt)
	l, _ := rt.Ledger()
	if l.Owed != 0 || l.Lost == 0 || l.Correct {
		t.Fatalf("3 s into the restart: %+v; want something lost, nothing owed, not correct", l)
	}
	lost := l.Lost
	rt.AdmitFor(10 * time.Second)
	stepAll(t, rt, func(step int, l engine.LedgerTotals) {
		if l.Lost < lost || l.Owed != 0 {
			t.Fatalf("step %d: %+v after lost %d", step, l, lost)
		}
		lost = l.Lost
	})
	caughtUp(t, rt)
}
