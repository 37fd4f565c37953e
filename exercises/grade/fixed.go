package grade

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/pack"
)

// FixedAnswer is, for one prediction check judged against the engine, the
// one answer that passes under the most of the seeds tried: what a student
// who copies one file, or a published key, scores under seeds not their
// own. Per-student seeds protect a prediction only when this is a small
// fraction of the seeds.
type FixedAnswer struct {
	Check  string // the check's name
	Answer string // the best fixed answer
	Passes int    // the seeds it passes under
	Seeds  int    // the seeds tried
	// Line and Col are the check's position in exercise.yaml.
	Line, Col int
}

// Rate is the fraction of the seeds the fixed answer passes under.
func (f FixedAnswer) Rate() float64 { return float64(f.Passes) / float64(max(f.Seeds, 1)) }

// FixedAnswers runs prediction exercise ex's scenario under each seed and
// returns, for each check judged against the engine (field:), the best
// fixed answer and how many seeds it passes under, judged as the grader
// judges (the tolerance taken of each seed's own value).
func FixedAnswers(ctx context.Context, ex *pack.Exercise, seeds []int64, opts Options) ([]FixedAnswer, error) {
	if ex.Kind != pack.KindPrediction {
		return nil, fmt.Errorf("%s is a %s exercise; only a prediction has answers to fix", ex.ID, ex.Kind)
	}
	var checks []pack.Check
	for _, c := range ex.Checks {
		if c.Answer != "" && c.Field != "" {
			checks = append(checks, c)
		}
	}
	values := make([][]any, len(checks)) // per check, per seed
	for _, seed := range seeds {
		r := &runner{ex: ex, ans: &answer.Answer{File: ex.FileName(ex.Answer)}, seed: seed, budget: opts.budget(ex)}
		rep, err := r.run(ctx)
		r.close()
		if err != nil {
			return nil, fmt.Errorf("%s under seed %d: %w", ex.ID, seed, err)
		}
		for i, c := range checks {
			v, err := lab.Field(rep, c.Field)
			if err != nil {
				return nil, err
			}
			values[i] = append(values[i], v)
		}
	}
	out := make([]FixedAnswer, len(checks))
	for i, c := range checks {
		out[i] = best(c, values[i])
		out[i].Check, out[i].Seeds, out[i].Line, out[i].Col = c.Name, len(seeds), c.Line, c.Col
	}
	return out, nil
}

// best is the answer that passes under most of values, and how many.
func best(c pack.Check, values []any) FixedAnswer {
	var nums []float64
	counts := map[string]int{}
	for _, v := range values {
		if f, ok := v.(float64); ok {
			nums = append(nums, f)
		} else {
			counts[fmt.Sprint(v)]++
		}
	}
	var b FixedAnswer
	if len(nums) == 0 {
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if counts[k] > b.Passes {
				b.Answer, b.Passes = k, counts[k]
			}
		}
		return b
	}
	tol := func(v float64) float64 {
		if c.Relative {
			return c.Tolerance * math.Abs(v)
		}
		return c.Tolerance
	}
	// The best answer can be taken at an end of some value's interval
	// of passing answers, or at a value itself.
	var cands []float64
	for _, v := range nums {
		cands = append(cands, v-tol(v), v, v+tol(v))
	}
	sort.Float64s(cands)
	for _, x := range cands {
		n := 0
		for _, v := range nums {
			if math.Abs(x-v) <= tol(v)+1e-9 {
				n++
			}
		}
		if n > b.Passes {
			b.Answer, b.Passes = strconv.FormatFloat(x, 'g', -1, 64), n
		}
	}
	return b
}
