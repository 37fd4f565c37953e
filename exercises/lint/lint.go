// Package lint checks an exercise pack: everything the loader checks (the
// format, the files an exercise names, its scenario and checks), then a dry
// run of each exercise with its starter answer, which catches what only the
// engine knows (a node the job does not have, a setting value it rejects),
// then the answers that skip the point: trivial answers graded (checks they
// pass), and predictions one fixed answer passes under many seeds.
// Every problem is reported with its file, line and column.
package lint

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/packtest"
	"github.com/streamlab/streamlab/internal/poserr"
)

// Finding is one problem in a pack.
type Finding = pack.Problem

// ErrAlreadyFull is the kind of the finding that an exercise's starter
// answer already scores full marks.
var ErrAlreadyFull = errors.New("the starter answer already scores full marks")

// Dir lints the pack in directory dir. The error is for a directory that
// cannot be read at all; problems in it are findings.
func Dir(ctx context.Context, dir string) ([]*Finding, error) {
	p, err := pack.LoadDir(dir)
	if p == nil {
		return nil, err
	}
	return Pack(ctx, p, err)
}

// Pack lints a loaded pack; loadErr is what loading it returned.
func Pack(ctx context.Context, p *pack.Pack, loadErr error) ([]*Finding, error) {
	var out []*Finding
	var probs pack.Problems
	switch {
	case errors.As(loadErr, &probs):
		out = append(out, probs...)
	case loadErr != nil:
		return nil, loadErr
	}
	static := append([]*Finding{}, out...)
	for _, ex := range p.Exercises {
		dry, ok := withoutBrokenChecks(ex, static)
		if !ok {
			continue // the dry run would only repeat what is wrong
		}
		fs, err := dryRun(ctx, dry)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if dry != ex && errors.Is(f, ErrAlreadyFull) {
				continue // the checks left out may be what it lacks
			}
			if !slices.ContainsFunc(static, func(g *Finding) bool { return g.File == f.File && g.Line == f.Line && g.Col == f.Col }) {
				out = append(out, f)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out, nil
}

// Overlay lints an instructor's private overlay (pack.ReadOverlay) in dir
// for pack p: its problems, then a dry run of every exercise it adds hidden
// checks to, with them. The error is for a directory that cannot be read.
func Overlay(ctx context.Context, p *pack.Pack, dir string) ([]*Finding, error) {
	o, err := pack.ReadOverlay(p, dir)
	var probs pack.Problems
	switch {
	case errors.As(err, &probs):
		return probs, nil
	case err != nil:
		return nil, err
	}
	var out []*Finding
	for i, ex := range o.Apply(p.Exercises) {
		if len(ex.Checks) == len(p.Exercises[i].Checks) {
			continue
		}
		fs, err := dryRun(ctx, ex)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// withoutBrokenChecks returns the exercise to dry-run despite the static
// findings fs, so that one lint reports every problem: ex itself when none
// is about it, a copy without the checks that have findings when only
// checks (or files the run does not read, such as the task) do, and false
// when the exercise's own settings, scenario or job have findings.
func withoutBrokenChecks(ex *pack.Exercise, fs []*Finding) (*pack.Exercise, bool) {
	if ex.Kind == "" || !slices.Contains(pack.Kinds, ex.Kind) || ex.Answer == "" {
		return nil, false
	}
	first := 0 // the first check's line
	if len(ex.Checks) > 0 {
		first = ex.Checks[0].Line
	}
	broken := map[int]bool{}
	prefix := ex.FileName("")
	for _, f := range fs {
		switch {
		case !strings.HasPrefix(f.File, prefix):
		case f.File == ex.File && first > 0 && f.Line >= first:
			i := 0
			for i+1 < len(ex.Checks) && ex.Checks[i+1].Line <= f.Line {
				i++
			}
			broken[i] = true
		case f.File == ex.File, f.File == ex.ScenarioFile, ex.JobIsFile() && f.File == ex.FileName(ex.Job):
			return nil, false
		}
	}
	if len(broken) == 0 {
		return ex, true
	}
	cp := *ex
	cp.Checks = nil
	for i, c := range ex.Checks {
		if !broken[i] {
			cp.Checks = append(cp.Checks, c)
		}
	}
	return &cp, true
}

// Suggestions are advice that is not a problem: an exercise that sets a
// time_limit and no budget was written when the limit was wall time; it
// keeps working (the limit is now the guard) but its answers are bounded by
// the default budget.
func Suggestions(p *pack.Pack) []string {
	var out []string
	for _, ex := range p.Exercises {
		if ex.HasTimeLimit && !ex.HasBudget {
			out = append(out, fmt.Sprintf("%s: time_limit %s is now only a wall-time guard against a grader bug; an answer's work is bounded by budget (records and steps, the same on any machine), %d records and %d steps unless the exercise sets budget:",
				ex.File, ex.TimeLimit, ex.Budget.Records, ex.Budget.Steps))
		}
	}
	return out
}

// dryRun grades the starter answer: the pack is broken when the engine
// rejects the exercise's own job or scenario, or the starter answer.
func dryRun(ctx context.Context, ex *pack.Exercise) ([]*Finding, error) {
	file := ex.FileName(ex.Answer)
	data, err := ex.Starter()
	if err != nil {
		return []*Finding{{File: file, Msg: "missing: the exercise directory must hold the starter version of the answer file"}}, nil
	}
	if _, err := answer.Parse(ex, file, data); err != nil {
		return []*Finding{asFinding(err, file, "the starter answer is rejected: ")}, nil
	}
	res, err := grade.Bytes(ctx, ex, file, data, grade.Options{})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, grade.ErrBrokenPack):
		return []*Finding{asFinding(err, ex.File, "")}, nil
	case err != nil:
		return nil, err
	case ex.Kind == pack.KindConfiguration && !strings.HasSuffix(ex.Answer, ".lab") && res.NotStarted:
		// A starter job file that will not start is the task (fix it), not
		// a pack that cannot be graded.
		return nil, nil
	case ex.Kind == pack.KindConfiguration && !strings.HasSuffix(ex.Answer, ".lab") && res.InScenario:
		// The scenario may name a node the starter job does not have yet:
		// building it is the task. It is tried with the pack's reference
		// answer instead, when there is one.
		return dryRunReference(ctx, ex)
	case res.At != nil && res.At.Line > 0:
		return []*Finding{{File: res.At.File, Line: res.At.Line, Col: res.At.Col, Msg: "the starter answer cannot be graded: " + res.Reason}}, nil
	case res.Error != "":
		return []*Finding{{File: file, Msg: "the starter answer cannot be graded: " + res.Error}}, nil
	case res.Passed:
		return []*Finding{{Kind: ErrAlreadyFull, File: file, Msg: fmt.Sprintf("the starter answer already scores full marks (%g points): there is nothing left to do", res.MaxScore)}}, nil
	}
	if ex.Kind == pack.KindPrediction {
		return fixedFindings(ctx, ex)
	}
	return trivialFindings(ctx, ex)
}

// asFinding turns an error into a finding, keeping its position when it
// has one.
func asFinding(err error, file, prefix string) *Finding {
	if e, ok := poserr.As(err, nil); ok {
		f := *e
		f.Msg = prefix + f.Msg
		return &f
	}
	return &Finding{File: file, Msg: prefix + err.Error()}
}

// dryRunReference grades a job-file exercise's reference answer (the first
// of its tests/tests.yaml with full marks): its scenario must run against
// it.
func dryRunReference(ctx context.Context, ex *pack.Exercise) ([]*Finding, error) {
	cases, err := packtest.Cases(ex)
	if err != nil {
		return []*Finding{asFinding(err, ex.FileName(packtest.Dir), "")}, nil
	}
	for _, c := range cases {
		if !c.Full {
			continue
		}
		name := path.Join(packtest.Dir, c.Answer)
		data, err := ex.ReadFile(name)
		if err != nil {
			return nil, err
		}
		res, err := grade.Bytes(ctx, ex, ex.FileName(name), data, grade.Options{})
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, grade.ErrBrokenPack):
			return []*Finding{asFinding(err, ex.File, "")}, nil
		case err != nil:
			return nil, err
		case res.Error != "":
			return []*Finding{{File: ex.FileName(name), Msg: "the reference answer cannot be graded: " + res.Error}}, nil
		}
		return nil, nil
	}
	return nil, nil
}
