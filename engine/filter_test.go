package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/assets"
	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/restart"
)

// The shipped list is exactly what the generator makes from its seed.
func TestPasswordListIsGenerated(t *testing.T) {
	want := strings.Join(engine.GeneratePasswords(engine.PasswordListSeed, engine.PasswordListSize), "\n") + "\n"
	if assets.Passwords != want {
		t.Fatal("assets/passwords.txt differs from GeneratePasswords(PasswordListSeed, PasswordListSize)")
	}
}

func runPasswords(t *testing.T, f filter.Spec, n int64) report.Report {
	t.Helper()
	spec, _ := jobspec.Builtin("passwords")
	cfg := engine.DefaultConfig()
	cfg.Mode, cfg.Filter = engine.ModeAppend, f
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(n)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rt.Report()
}

// The passwords job's false-positive rate, measured on clean logins,
// matches (1 − e^(−kn/m))^k within 20% for a list of 10 000, and the same
// seed gives the same count.
func TestPasswordsFalsePositivesMatchTheory(t *testing.T) {
	for _, f := range []filter.Spec{
		{Kind: filter.KindBloom, N: 10000, P: 0.01},
		{Kind: filter.KindBloom, M: 40000, K: 3},
	} {
		rep := runPasswords(t, f, 40000)
		fr := rep.Filter
		theory := filter.TheoreticalFP(fr.M, fr.K, engine.PasswordListSize)
		if fr.EstimatedFP != theory {
			t.Errorf("%s: estimated %g, formula %g", f, fr.EstimatedFP, theory)
		}
		if rel := math.Abs(fr.MeasuredFP-theory) / theory; rel > 0.2 {
			t.Errorf("%s: measured %.5f, theory %.5f (%.0f%% off)", f, fr.MeasuredFP, theory, rel*100)
		}
		if again := runPasswords(t, f, 40000); !reflect.DeepEqual(again.Filter, fr) { // approx_size is a pointer
			t.Errorf("%s: not deterministic: %+v then %+v", f, fr, again.Filter)
		}
	}
}

// An exact set holding the compromised list flags every compromised login
// the Bloom filter flags and no clean one, at the list's memory; a check
// without the list, or with one that forgets half of it, is refused.
func TestPasswordsExactSetHasNoFalseAlarms(t *testing.T) {
	bloom := runPasswords(t, filter.Spec{Kind: filter.KindBloom, N: 10000, P: 0.01}, 5000)
	exact := runPasswords(t, filter.Spec{Kind: filter.KindExact}, 5000)
	if exact.Filter.Kind != filter.KindExact || exact.Filter.FalseDrops != 0 || exact.Filter.MeasuredFP != 0 {
		t.Errorf("exact set: %+v", exact.Filter)
	}
	if bloom.Filter.FalseDrops == 0 {
		t.Fatalf("the Bloom filter made no false alarm in 5000 logins: %+v", bloom.Filter)
	}
	if hits := bloom.Sink.Delivered - bloom.Filter.FalseDrops; exact.Sink.Delivered != hits {
		t.Errorf("exact set flagged %d logins, the Bloom filter %d of which %d false", exact.Sink.Delivered, bloom.Sink.Delivered, bloom.Filter.FalseDrops)
	}
	if exact.Filter.Bytes <= 4*bloom.Filter.Bytes {
		t.Errorf("exact set %d bytes, Bloom filter %d: the list should cost far more than its bits", exact.Filter.Bytes, bloom.Filter.Bytes)
	}
	spec, _ := jobspec.Builtin("passwords")
	for _, f := range []filter.Spec{{Kind: filter.KindNone}, {Kind: filter.KindRotating, N: 1000, P: 0.01}} {
		cfg := engine.DefaultConfig()
		cfg.Filter = f
		rt, err := engine.New(spec, cfg)
		if err == nil {
			rt.Close()
			t.Errorf("%s: accepted for a breach check", f)
		} else if !errors.Is(err, engine.ErrBadConfig) || !strings.Contains(err.Error(), "needs bloom") {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Under at-least-once with random failures of nodes before it, an exact
// dedup stage leaves the sink exactly as the failure-free run; a Bloom
// filter never lets a duplicate through (its errors are losses).
func TestDedupUnderFailures(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec, _ := jobspec.Builtin("passthrough")
		cfg := engine.DefaultConfig()
		cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
		cfg.Semantics, cfg.Mode = engine.AtLeastOnce, engine.ModeAppend
		cfg.Sink = rapid.SampledFrom([]engine.SinkKind{engine.SinkLog, engine.SinkTable}).Draw(t, "sink")
		cfg.Filter = rapid.SampledFrom([]filter.Spec{
			{Kind: filter.KindExact},
			{Kind: filter.KindBloom, N: 2000, P: 0.01},
			{Kind: filter.KindBloom, M: 2048, K: 3},
		}).Draw(t, "filter")
		cfg.Restart, _ = restart.Parse(restart.FixedDelay, map[string]string{"attempts": "1000", "delay": "100ms"})
		rt, err := engine.New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		var desc []string
		for i := range rapid.IntRange(1, 4).Draw(t, "kills") {
			node := rapid.SampledFrom([]string{"source", "map", "filter"}).Draw(t, fmt.Sprint("node", i))
			at := rapid.Int64Range(0, 1500).Draw(t, fmt.Sprint("at", i))
			desc = append(desc, fmt.Sprintf("kill %s at %d", node, at))
			if err := rt.KillAt(node, at); err != nil {
				t.Fatal(err)
			}
		}
		rt.Admit(rapid.Int64Range(100, 1500).Draw(t, "records"))
		if _, err := settle(rt, 0); err != nil {
			t.Fatal(err)
		}
		rep := rt.Report()
		if rep.Sink.Duplicates != 0 {
			t.Fatalf("%s let %d duplicates through after %v", cfg.Filter, rep.Sink.Duplicates, desc)
		}
		if cfg.Filter.Kind == filter.KindExact && (!rep.Sink.Correct || rep.Sink.Lost != 0) {
			t.Fatalf("exact dedup after %v: %+v", desc, rep.Sink)
		}
		if rep.Sink.Lost != rep.Filter.FalseDrops {
			t.Fatalf("every loss must be a false drop: lost %d, false drops %d (%v %+v %+v %+v)", rep.Sink.Lost, rep.Filter.FalseDrops, desc, rep.Sink, rep.Recovery, rt.Snapshot().Nodes)
		}
	})
}

// Measured false drops against the formula's prediction of the same count:
// (1 − e^(−kn/m))^k summed over the first sightings, n the distinct ids
// offered before each. The sum is recomputed here from the report's counts
// (every first sighting is either taken for new or falsely dropped), apart
// from the engine's own arithmetic. An undersized filter agrees within
// 10 %; a well-sized one within the binomial noise.
func TestFalseDropsAsTheFormulaPredicts(t *testing.T) {
	for _, c := range []struct {
		spec    filter.Spec
		records int64
	}{
		{filter.Spec{Kind: filter.KindBloom, M: 20000, K: 3}, 10000},
		{filter.Spec{Kind: filter.KindBloom, N: 10000, P: 0.01}, 20000},
	} {
		for _, seed := range []int64{1, 2, 3, 8} {
			spec, _ := jobspec.Builtin("passthrough")
			cfg := engine.DefaultConfig()
			cfg.Semantics, cfg.Mode, cfg.Filter, cfg.Seed = engine.AtLeastOnce, engine.ModeAppend, c.spec, seed
			rt, err := engine.New(spec, cfg)
			if err != nil {
				t.Fatal(err)
			}
			rt.Admit(c.records)
			if err := rt.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			f := rt.Report().Filter
			rt.Close()
			firsts := f.Inserted + f.FalseDrops
			var want float64
			for n := range firsts {
				want += math.Pow(1-math.Exp(-float64(f.K)*float64(n)/float64(f.M)), float64(f.K))
			}
			if math.Abs(f.ExpectedFalseDrops-want) > 1e-6*want+1e-9 {
				t.Errorf("%s seed %d: expected_false_drops %.3f, the formula summed gives %.3f", c.spec, seed, f.ExpectedFalseDrops, want)
			}
			got := float64(f.FalseDrops)
			bound := 3*math.Sqrt(want) + 1
			if want > 100 {
				bound = max(bound, 0.1*want)
			}
			if math.Abs(got-want) > bound {
				t.Errorf("%s seed %d: %d false drops among %d first sightings, the formula predicts %.1f (±%.1f)", c.spec, seed, f.FalseDrops, firsts, want, bound)
			}
			t.Logf("%s seed %d: %d false drops, %.1f predicted", c.spec, seed, f.FalseDrops, want)
		}
	}
}

// A dedup stage behind a merge of parallel nodes (it sorts each epoch's
// records) keeps the same promises under at-least-once while a node before
// it is left down for a long run (a standalone deployment waits for a
// manual restart; its senders keep everything meant for it) and then comes
// back: an exact set or a Bloom filter lets no duplicate through, and
// every loss is a false drop.
func TestDedupBehindAMergeWithANodeLeftDown(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.IntRange(2, 3).Draw(t, "parallelism")
		spec := jobspec.Spec{Name: "merged", Source: jobspec.DefaultSource(), Operators: []jobspec.Operator{
			{Name: "map", Kind: jobspec.KindMap, Parallelism: p,
				Partition: rapid.SampledFrom([]string{jobspec.PartitionRebalance, jobspec.PartitionHash}).Draw(t, "partition")},
			{Name: "filter", Kind: jobspec.KindFilter, Parallelism: p, Partition: jobspec.PartitionForward, Drop: []string{"view"}},
		}}.WithDefaults()
		cfg := engine.DefaultConfig()
		cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(t, "seed")
		cfg.Semantics, cfg.Mode, cfg.Deployment = engine.AtLeastOnce, engine.ModeAppend, engine.DeployStandalone
		cfg.Filter = rapid.SampledFrom([]filter.Spec{
			{Kind: filter.KindExact},
			{Kind: filter.KindBloom, M: 512, K: 3},
			{Kind: filter.KindBloom, N: 5000, P: 0.01},
			{Kind: filter.KindRotating, N: 1000, P: 0.01},
		}).Draw(t, "filter")
		rt, err := engine.New(spec, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		var nodes []string
		for _, n := range rt.Snapshot().Nodes {
			if n.Name != "dedup" && n.Name != "sink" {
				nodes = append(nodes, n.Name)
			}
		}
		down := rapid.SampledFrom(nodes).Draw(t, "down")
		before, during := rapid.Int64Range(0, 500).Draw(t, "before"), rapid.Int64Range(500, 4000).Draw(t, "during")
		rt.Admit(before)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := rt.Kill(down); err != nil {
			t.Fatal(err)
		}
		rt.Admit(during)
		if err := rt.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := settle(rt, 0); err != nil {
			t.Fatal(err)
		}
		rep := rt.Report()
		desc := fmt.Sprintf("%s down from %d for %d records", down, before, during)
		if rep.Sink.Duplicates != 0 && cfg.Filter.Kind != filter.KindRotating {
			t.Fatalf("%s let %d duplicates through, %s", cfg.Filter, rep.Sink.Duplicates, desc)
		}
		if cfg.Filter.Kind == filter.KindExact && (!rep.Sink.Correct || rep.Sink.Lost != 0) {
			t.Fatalf("exact dedup, %s: %+v", desc, rep.Sink)
		}
		if rep.Sink.Lost != rep.Filter.FalseDrops {
			t.Fatalf("%s, %s: lost %d, false drops %d (%+v %+v)", cfg.Filter, desc, rep.Sink.Lost, rep.Filter.FalseDrops, rep.Sink, rep.Recovery)
		}
	})
}

// A Bloom filter with every bit set has no size estimate: the report
// leaves approx_size out rather than give -1, which reads as a size; one
// with bits to spare gives the library's estimate.
func TestFullBloomFilterSizeIsUnknown(t *testing.T) {
	full := runPasswords(t, filter.Spec{Kind: filter.KindBloom, M: 64, K: 3}, 3000)
	if full.Filter.BitsSet != 64 || full.Filter.ApproxSize != nil {
		t.Fatalf("bits set %d of 64, approx_size %v: want every bit set and no size", full.Filter.BitsSet, full.Filter.ApproxSize)
	}
	raw, _ := json.Marshal(full)
	if strings.Contains(string(raw), "approx_size") {
		t.Errorf("the JSON report gives a full filter's size: %s", raw)
	}
	roomy := runPasswords(t, filter.Spec{Kind: filter.KindBloom, M: 1 << 20, K: 3}, 300)
	if roomy.Filter.ApproxSize == nil || *roomy.Filter.ApproxSize <= 0 {
		t.Errorf("a filter with bits to spare has approx_size %v", roomy.Filter.ApproxSize)
	}
}
