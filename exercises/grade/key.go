package grade

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/pack"
)

// Key returns the right answers of a prediction exercise under the
// grader's seed, as an answers.yaml text: what an instructor publishes once
// the exercise is due, and what tests grade as the reference solution.
func Key(ctx context.Context, ex *pack.Exercise, opts Options) ([]byte, error) {
	if ex.Kind != pack.KindPrediction {
		return nil, fmt.Errorf("%s is a %s exercise; only a prediction exercise has an answer key", ex.ID, ex.Kind)
	}
	r := &runner{ex: ex, ans: &answer.Answer{File: ex.FileName(ex.Answer)}, seed: opts.seed(ex), budget: opts.budget(ex)}
	defer r.close()
	limit := ex.TimeLimit
	if opts.TimeLimit > 0 {
		limit = opts.TimeLimit
	}
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	rep, err := r.run(runCtx)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# The answers to %s under seed %d.\n", ex.ID, r.seed)
	done := map[string]bool{}
	for _, c := range ex.Checks {
		if c.Answer == "" || done[c.Answer] {
			continue
		}
		done[c.Answer] = true
		v := strconv.Quote(c.Correct)
		if c.Field != "" {
			f, err := lab.Field(rep, c.Field)
			if err != nil {
				return nil, err
			}
			switch f := f.(type) {
			case float64:
				v = strconv.FormatFloat(f, 'g', -1, 64)
			case bool:
				v = strconv.FormatBool(f)
			case string:
				v = strconv.Quote(f)
			}
		}
		fmt.Fprintf(&b, "%s: %s\n", c.Answer, v)
	}
	return []byte(b.String()), nil
}
