package engine

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// naiveNeeds is the acknowledgement rule as first written, walking
// everything kept: the predicate "d may still need this record".
func naiveNeeds(u *upstreamBackup, d *node) func(backupEntry) bool {
	r := u.rc.r
	if d.dead {
		return func(backupEntry) bool { return true }
	}
	if d.op == operator(r.sink) {
		return func(b backupEntry) bool { return b.epoch > u.sinkEpoch }
	}
	if w, ok := d.op.(*windowCount); ok {
		wm, acked := u.ackedWM[d]
		if w.mode == ModeComplete || !acked {
			return func(backupEntry) bool { return true }
		}
		return func(b backupEntry) bool { return floorDiv(b.rec.Time, w.slide)*w.slide+w.size > wm }
	}
	held := map[int64]bool{}
	for _, q := range u.backups[d] {
		for _, b := range q.entries() {
			held[b.rec.Offset] = true
		}
	}
	q := &r.det.queues[r.det.index[d]]
	for _, it := range q.items[q.head:] {
		held[it.e.rec.Offset] = true
	}
	for _, h := range d.held {
		h.each(func(e element) { held[e.rec.Offset] = true })
	}
	for _, rec := range d.epochRecs {
		held[rec.Offset] = true
	}
	return func(b backupEntry) bool { return held[b.rec.Offset] }
}

// Trimming keeps exactly what the acknowledgement rule keeps, in the order
// sent, though it no longer walks what it keeps: before each
// acknowledgement round every queue is copied, and after it each queue
// must hold the copy's entries that the rule, walking everything, says a
// downstream node may still need. Jobs with parallel stateless stages, a
// window count and a dedup stage behind a merge, with nodes killed and
// left down for a while, then restarted.
func TestTrimKeepsWhatTheRuleKeeps(t *testing.T) {
	for _, c := range []struct {
		job    string
		mode   Mode
		filter string
		kills  []string
	}{
		{"clicks", ModeUpdate, "", []string{"count[1]", "parse"}},
		{"clicks", ModeAppend, "", []string{"parse", "count[0]"}},
		{"rebalanced", ModeAppend, "exact", []string{"map[1]", "dedup"}},
		{"rebalanced", ModeUpdate, "", []string{"filter", "map[2]"}},
	} {
		t.Run(fmt.Sprint(c.job, "/", c.mode, "/", c.kills), func(t *testing.T) {
			spec, _ := jobspec.Builtin("clicks")
			if c.job == "rebalanced" {
				spec = jobspec.Spec{Name: "rebalanced", Source: jobspec.DefaultSource(), Operators: []jobspec.Operator{
					{Name: "map", Kind: jobspec.KindMap, Parallelism: 3, Partition: jobspec.PartitionRebalance},
					{Name: "filter", Kind: jobspec.KindFilter, Parallelism: 1, Partition: jobspec.PartitionRebalance, Drop: []string{"view"}},
				}}.WithDefaults()
			}
			spec.Source.Rate = 25 // a trigger every 25 records
			cfg := DefaultConfig()
			cfg.Semantics, cfg.Mode, cfg.Deployment = AtLeastOnce, c.mode, DeployStandalone
			if c.filter != "" {
				cfg.Filter.Kind = c.filter
			}
			r, err := New(spec, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			u := r.recovery.s.(*upstreamBackup)
			rounds := 0
			// Every acknowledgement round runs inside the sink's marker.
			check := func(n *node, e element) {
				if n.op != operator(r.sink) || e.kind != kindTrigger || (u.commits+1)%ackEvery != 0 {
					u.marker(n, e)
					return
				}
				before := map[*backupQueue][]backupEntry{}
				for _, qs := range u.backups {
					for _, q := range qs {
						before[q] = q.entries()
					}
				}
				u.marker(n, e)
				rounds++
				for sender, qs := range u.backups {
					for i, q := range qs {
						d := r.g.stages[sender.stage+1].nodes[i]
						need := naiveNeeds(u, d)
						var want []backupEntry
						for _, b := range before[q] {
							if need(b) {
								want = append(want, b)
							}
						}
						if got := q.entries(); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
							t.Fatalf("round %d: %s keeps %d entries for %s, the rule %d", rounds, sender.name, len(got), d.name, len(want))
						}
					}
				}
			}
			for _, n := range r.g.nodes {
				n.onMarker = check
			}
			step := func(records int64) {
				r.Admit(records)
				for r.stepOnce() {
				}
			}
			step(3000)
			if err := r.Kill(c.kills[0]); err != nil {
				t.Fatal(err)
			}
			step(3000)
			if err := r.Kill(c.kills[1]); err != nil {
				t.Fatal(err)
			}
			step(3000)
			for _, k := range c.kills {
				if err := r.Restart(k); err != nil {
					t.Fatal(err)
				}
			}
			for range 6 {
				r.AdmitFor(10e9)
				step(0)
			}
			if rounds < 15 {
				t.Fatalf("only %d acknowledgement rounds checked", rounds)
			}
		})
	}
}
