package engine_test

import (
	"context"
	"math"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// The filter's curve counts the same first sightings and false drops as
// the report, bucket by bucket of n, and each bucket's measured rate is
// the formula's at that fill: the last, fullest buckets of an undersized
// filter agree with the formula within the binomial noise.
func TestFilterCurveMeasuresTheRateAtEachFill(t *testing.T) {
	spec, _ := jobspec.Builtin("passthrough")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Mode, cfg.Seed = engine.AtLeastOnce, engine.ModeAppend, 8
	cfg.Filter = filter.Spec{Kind: filter.KindBloom, M: 20000, K: 3}
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(10000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fs, ok := rt.FilterStats()
	if !ok {
		t.Fatal("no filter")
	}
	var sum filter.CurveBucket
	used := fs.Curve.Used()
	for _, b := range used {
		sum.Firsts += b.Firsts
		sum.FalseDrops += b.FalseDrops
		sum.Expected += b.Expected
	}
	if sum.Firsts != fs.Firsts || sum.FalseDrops != fs.FalseDrops || math.Abs(sum.Expected-fs.ExpectedFalseDrops) > 1e-6*fs.ExpectedFalseDrops {
		t.Fatalf("the curve adds up to %+v; the filter counted %d first sightings, %d false drops, %.1f expected", sum, fs.Firsts, fs.FalseDrops, fs.ExpectedFalseDrops)
	}
	if len(used) < 16 {
		t.Fatalf("%d buckets for %d first sightings", len(used), fs.Firsts)
	}
	for _, b := range used[len(used)-4 : len(used)-1] { // full buckets at high fill
		want := b.Expected
		if bound := 3*math.Sqrt(want) + 1; math.Abs(float64(b.FalseDrops)-want) > bound {
			t.Errorf("bucket of %d first sightings: %d false drops, the formula predicts %.1f (±%.1f)", b.Firsts, b.FalseDrops, want, bound)
		}
	}
	if first, last := used[0].Rate(), used[len(used)-2].Rate(); !(first < last) {
		t.Errorf("the measured rate does not grow with the fill: %.4f then %.4f", first, last)
	}
}
