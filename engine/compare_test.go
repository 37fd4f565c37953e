package engine_test

import (
	"context"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
)

// haRun kills map at record 1500 of a passthrough job with an exact dedup
// stage (state worth checkpointing) under one HA scheme.
func haRun(t *testing.T, semantics engine.Semantics, ha engine.HAScheme) report.Report {
	t.Helper()
	spec, _ := jobspec.Builtin("passthrough")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.HA, cfg.Sink, cfg.Mode = semantics, ha, engine.SinkTable, engine.ModeUpdate
	cfg.Filter = filter.Spec{Kind: filter.KindExact}
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if err := rt.KillAt("map", 1500); err != nil {
		t.Fatal(err)
	}
	rt.Admit(3000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := settle(rt, 0); err != nil {
		t.Fatal(err)
	}
	return rt.Report()
}

// The same failure under the three schemes orders as Hwang et al. (2005)
// say: upstream backup costs least while nothing fails and takes longest to
// recover; active standby recovers at once and costs most.
func TestHASchemesCompared(t *testing.T) {
	up := haRun(t, engine.AtLeastOnce, engine.HAUpstreamBackup)
	passive := haRun(t, engine.ExactlyOnce, engine.HAPassiveStandby)
	active := haRun(t, engine.ExactlyOnce, engine.HAActiveStandby)
	for name, r := range map[string]report.Report{"upstream-backup": up, "passive-standby": passive, "active-standby": active} {
		t.Logf("%-16s recovery %6d ms  overhead %8d bytes  replayed %4d  lost %d  duplicates %d",
			name, r.Recovery.TimeMS, r.Recovery.OverheadBytes, r.Recovery.Replayed, r.Sink.Lost, r.Sink.Duplicates)
		if r.Sink.Lost != 0 || r.Recovery.Failures != 1 {
			t.Errorf("%s: %+v %+v", name, r.Sink, r.Recovery)
		}
	}
	if !(up.Recovery.OverheadBytes < passive.Recovery.OverheadBytes && passive.Recovery.OverheadBytes < active.Recovery.OverheadBytes) {
		t.Errorf("run-time overhead should order upstream backup < passive standby < active standby: %d, %d, %d",
			up.Recovery.OverheadBytes, passive.Recovery.OverheadBytes, active.Recovery.OverheadBytes)
	}
	if !(active.Recovery.TimeMS < passive.Recovery.TimeMS && passive.Recovery.TimeMS < up.Recovery.TimeMS) {
		t.Errorf("recovery time should order active standby < passive standby < upstream backup: %d, %d, %d",
			active.Recovery.TimeMS, passive.Recovery.TimeMS, up.Recovery.TimeMS)
	}
	if active.Recovery.Replayed != 0 || active.Recovery.DowntimeMS != 0 {
		t.Errorf("an active standby takes over with nothing to replay: %+v", active.Recovery)
	}
}
