package lint

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

// MaxTrivialShare is the most of an exercise's points an answer that does
// not do the task may score: the empty file, the starter, or a run that
// fails nothing. Above it, lint flags each check such an answer passes.
const MaxTrivialShare = 0.2

// TrivialAnswers are the answers to ex that do not do its task, by name:
// the empty file and the starter; for a script or recording, also the
// starter followed by a run of 2000 records with no failure. A prediction
// has none (its answers are numbers; see grade.FixedAnswers).
func TrivialAnswers(ex *pack.Exercise) map[string][]byte {
	if ex.Kind == pack.KindPrediction {
		return nil
	}
	out := map[string][]byte{"the empty answer": {}}
	starter, err := ex.Starter()
	if err != nil {
		return out
	}
	out["the starter"] = starter
	if ex.Kind == pack.KindScript || ex.Kind == pack.KindRecording {
		calm := append([]byte{}, starter...)
		if len(calm) > 0 && calm[len(calm)-1] != '\n' {
			calm = append(calm, '\n')
		}
		out["the starter with a run that fails nothing"] = append(calm, "run 2000\n"...)
	}
	return out
}

// trivialFindings grades ex's trivial answers and, for each that scores
// more than MaxTrivialShare of the points, flags every check it passes, at
// the check: a check a student can pass without the point of the exercise
// should carry few of its points.
func trivialFindings(ctx context.Context, ex *pack.Exercise) ([]*Finding, error) {
	answers := TrivialAnswers(ex)
	names := make([]string, 0, len(answers))
	for n := range answers {
		names = append(names, n)
	}
	sort.Strings(names)
	passedBy := map[int][]string{} // check index: the answers passing it
	share := map[string]float64{}
	for _, n := range names {
		res, err := grade.Bytes(ctx, ex, ex.FileName(ex.Answer), answers[n], grade.Options{})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, nil // the dry run reports it
		}
		if res.MaxScore == 0 || res.Score <= MaxTrivialShare*res.MaxScore {
			continue
		}
		share[n] = res.Score / res.MaxScore
		for i, c := range res.Checks {
			if c.Passed {
				passedBy[i] = append(passedBy[i], n)
			}
		}
	}
	var out []*Finding
	for i, c := range ex.Checks {
		by := passedBy[i]
		if len(by) == 0 {
			continue
		}
		var parts []string
		for _, n := range by {
			parts = append(parts, fmt.Sprintf("%s (which scores %.0f%% of the points)", n, 100*share[n]))
		}
		out = append(out, &Finding{File: ex.File, Line: c.Line, Col: c.Col,
			Msg: fmt.Sprintf("check %q is passed by %s, which do not do the task: put the exercise's points on its subject, at most %.0f%% for what a trivial answer passes",
				c.Name, strings.Join(parts, " and "), 100*MaxTrivialShare)})
	}
	return out, nil
}

// LintSeeds is how many seeds lint tries a prediction's fixed answers
// under: fewer than the 400 the built-in pack's test uses, so that lint
// stays quick; a rate near MaxFixedShare may be flagged by one and not by
// the other.
const LintSeeds = 40

// MaxFixedShare is the most seeds one fixed answer to a prediction may
// pass under before lint flags it: per-student seeds protect it no more.
const MaxFixedShare = 0.05

// FixedAllowance is how many of n seeds a fixed answer may pass under
// before lint flags it: the most that an answer passing under
// MaxFixedShare of all seeds reaches in 95% of samples of n, so that a
// sample of LintSeeds does not flag a prediction that holds the line by
// chance (3 of 40 seeds is 7.5%, and common at a true 5%).
func FixedAllowance(n int) int {
	p := MaxFixedShare
	tail := 1.0 // P(X >= k)
	pk := math.Pow(1-p, float64(n))
	for k := 0; k <= n; k++ {
		tail -= pk // now P(X >= k+1)
		if tail <= 0.05 {
			return k
		}
		pk *= float64(n-k) / float64(k+1) * p / (1 - p)
	}
	return n
}

// fixedFindings runs prediction ex's scenario under LintSeeds seeds and
// flags, at the check, each prediction judged against the engine that one
// fixed answer passes under more than MaxFixedShare of them, unless the
// check says it is seed_free.
func fixedFindings(ctx context.Context, ex *pack.Exercise) ([]*Finding, error) {
	if ex.Kind != pack.KindPrediction {
		return nil, nil
	}
	seeds := make([]int64, LintSeeds)
	for i := range seeds {
		seeds[i] = grade.NextSeed(ex.Seed, i)
	}
	fixed, err := grade.FixedAnswers(ctx, ex, seeds, grade.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil // the dry run reports it
	}
	free := map[string]bool{}
	for _, c := range ex.Checks {
		free[c.Name] = c.SeedFree
	}
	var out []*Finding
	for _, f := range fixed {
		if free[f.Check] || f.Passes <= FixedAllowance(f.Seeds) {
			continue
		}
		out = append(out, &Finding{File: ex.File, Line: f.Line, Col: f.Col,
			Msg: fmt.Sprintf("check %q: the one answer %s passes under %d of %d seeds tried, so per-student seeds do not keep a copied answer from passing; make the scenario's answer depend on the seed (or the tolerance smaller), or say seed_free: true if it cannot",
				f.Check, f.Answer, f.Passes, f.Seeds)})
	}
	return out, nil
}
