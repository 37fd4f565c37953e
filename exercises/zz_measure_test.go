package exercises_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

func TestZZMeasure(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ZZN"))
	if n == 0 {
		t.Skip()
	}
	p := builtin(t)
	var seeds []int64
	for i := range n {
		seeds = append(seeds, int64(1000+i*7919))
	}
	for _, e := range p.Exercises {
		if e.Kind != pack.KindPrediction {
			continue
		}
		start := time.Now()
		fa, err := grade.FixedAnswers(context.Background(), e, seeds, grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (%s)", e.ID, time.Since(start))
		for _, f := range fa {
			t.Logf("   %-55s %6.1f%% (answer %s)", f.Check, 100*f.Rate(), f.Answer)
		}
	}
}
