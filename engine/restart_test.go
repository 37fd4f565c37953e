package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// In a standalone deployment a killed node stays down until someone asks;
// in a managed one it comes back after the strategy's delay and the
// provisioning delay.
func TestStandaloneWaitsForAManualRestart(t *testing.T) {
	spec, _ := jobspec.Builtin("passthrough")
	for _, deployment := range []Deployment{DeployStandalone, DeployManaged} {
		cfg := DefaultConfig()
		cfg.Deployment, cfg.Provision = deployment, 2*time.Second
		cfg.Restart, _ = restart.Parse(restart.FixedDelay, map[string]string{"attempts": "5", "delay": "1s"})
		rt, err := New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Kill("map"); err != nil {
			t.Fatal(err)
		}
		rt.AdmitFor(30 * time.Second)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		state := rt.Snapshot().Nodes[1].State
		switch deployment {
		case DeployStandalone:
			if state != NodeKilled {
				t.Fatalf("standalone: map is %s before anyone restarted it", state)
			}
			if err := rt.Restart("map"); err != nil {
				t.Fatal(err)
			}
			rt.AdmitFor(time.Second)
			if err := rt.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if s := rt.Snapshot().Nodes[1].State; s != NodeRunning {
				t.Fatalf("standalone: map is %s after `restart map`", s)
			}
		case DeployManaged:
			rep := rt.Report()
			if state != NodeRunning || rep.Recovery.DowntimeMS != 2000 {
				t.Fatalf("managed: map is %s after %d ms down, want running after 2000 (max of 1 s delay and 2 s provisioning)", state, rep.Recovery.DowntimeMS)
			}
		}
		rt.Close()
	}
}

// A crash loop: count[0] dies again each time the job restored from the
// same checkpoint replays to it. The failures must reach the restart
// strategy in the order they happened, each after the restart before it
// (a restored job replays after its restart, not when the records first
// arrived), so exponential-delay backs off 1 s, 1.5 s, 2.25 s, 3.375 s
// (±10 % jitter) instead of merging them or seeing time run backwards.
func TestCrashLoopFailuresFollowTheirRestarts(t *testing.T) {
	spec, _ := jobspec.Builtin("clicks")
	cfg := DefaultConfig()
	cfg.Semantics, cfg.HA = ExactlyOnce, HAPassiveStandby
	cfg.Provision = 0
	cfg.Restart, _ = restart.Parse(restart.Exponential, nil)
	rt, err := New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	sub := rt.Bus().Subscribe(1 << 16)
	for _, at := range []int64{1000, 1200, 1400, 1600} {
		if err := rt.KillAt("count[0]", at); err != nil {
			t.Fatal(err)
		}
	}
	rt.Admit(3000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rt.AdmitFor(60 * time.Second)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	events, _ := sub.Drain()
	var last, killedAt int64 = -1, -1
	var delays []int64
	for _, e := range events {
		switch e.Kind {
		case bus.EventNodeKilled:
			if e.TimeMS <= last {
				t.Fatalf("a failure at %d ms does not follow the restart or failure at %d ms", e.TimeMS, last)
			}
			killedAt, last = e.TimeMS, e.TimeMS
		case bus.EventRestartScheduled:
			delays = append(delays, e.N)
		case bus.EventNodeRestarted:
			if e.TimeMS < killedAt {
				t.Fatalf("a restart at %d ms comes before its failure at %d ms", e.TimeMS, killedAt)
			}
			last = e.TimeMS
		}
	}
	want := []float64{1000, 1500, 2250, 3375}
	if len(delays) != len(want) {
		t.Fatalf("restart delays %v, want %d of them", delays, len(want))
	}
	for i, d := range delays {
		if float64(d) < want[i]*0.9 || float64(d) > want[i]*1.1 {
			t.Errorf("restart %d waits %d ms, want %.0f ±10%% (all delays %v)", i+1, d, want[i], delays)
		}
	}
	if rep := rt.Report(); rep.Recovery.Restarts != 4 || !rep.Sink.Correct {
		t.Errorf("restarts %d, correct %t; want 4 restarts and a correct sink", rep.Recovery.Restarts, rep.Sink.Correct)
	}
}

// A lost task manager in a managed deployment comes back after the
// longer of the strategy's backoff and the provisioning of a new task
// manager, which run side by side from the loss (Flink restarts after the
// backoff, and the tasks wait for a slot): the event names both parts and
// its delay is the longer.
func TestRestartScheduledSaysWhatTheDelayIsMadeOf(t *testing.T) {
	for _, tc := range []struct {
		provision time.Duration
		wantN     int64
		want      []string
	}{
		{5 * time.Second, 5000, []string{"restart scheduled in 5000 ms", "provisioning a new task manager (5000 ms) outlasts the fixed-delay backoff (1000 ms)"}},
		{500 * time.Millisecond, 1000, []string{"restart scheduled in 1000 ms by fixed-delay", "provisioning a new task manager (500 ms) ends within the backoff"}},
	} {
		spec, _ := jobspec.Builtin("clicks")
		cfg := DefaultConfig()
		cfg.Provision = tc.provision
		cfg.Restart, _ = restart.Parse(restart.FixedDelay, nil)
		rt, err := New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		sub := rt.Bus().Subscribe(1 << 16)
		if err := rt.KillAt("count[1]", 300); err != nil {
			t.Fatal(err)
		}
		rt.Admit(1000)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		events, _ := sub.Drain()
		rt.Close()
		var got []string
		for _, e := range events {
			if e.Kind != bus.EventRestartScheduled {
				continue
			}
			got = append(got, e.Text)
			if e.N != tc.wantN {
				t.Errorf("provisioning %s: the restart waits %d ms, want %d", tc.provision, e.N, tc.wantN)
			}
			for _, w := range tc.want {
				if !strings.Contains(e.Text, w) {
					t.Errorf("provisioning %s: %q does not say %q", tc.provision, e.Text, w)
				}
			}
		}
		if len(got) != 1 {
			t.Errorf("provisioning %s: %d restarts scheduled, want 1: %q", tc.provision, len(got), got)
		}
	}
}
