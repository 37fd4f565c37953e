// Package lint checks an exercise pack: everything the loader checks (the
// format, the files an exercise names, its scenario and checks), then a dry
// run of each exercise with its starter answer, which catches what only the
// engine knows (a node the job does not have, a setting value it rejects).
// Every problem is reported with its file, line and column.
package lint

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

// Finding is one problem in a pack.
type Finding = pack.Problem

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
	for _, ex := range p.Exercises {
		if hasProblems(ex, out) {
			continue // a dry run would only repeat them
		}
		fs, err := dryRun(ctx, ex)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
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

// hasProblems reports whether a finding is about one of ex's files.
func hasProblems(ex *pack.Exercise, fs []*Finding) bool {
	prefix := ex.FileName("")
	for _, f := range fs {
		if len(f.File) >= len(prefix) && f.File[:len(prefix)] == prefix {
			return true
		}
	}
	return false
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
	case ex.Kind == pack.KindConfiguration && !strings.HasSuffix(ex.Answer, ".lab") && strings.Contains(res.Error, "job submission failed"):
		// A starter job file that will not start is the task (fix it), not
		// a pack that cannot be graded.
		return nil, nil
	case res.At != nil && res.At.Line > 0:
		msg := strings.TrimPrefix(res.Error, fmt.Sprintf("%s:%d:%d: ", res.At.File, res.At.Line, res.At.Col))
		return []*Finding{{File: res.At.File, Line: res.At.Line, Col: res.At.Col, Msg: "the starter answer cannot be graded: " + msg}}, nil
	case res.Error != "":
		return []*Finding{{File: file, Msg: "the starter answer cannot be graded: " + res.Error}}, nil
	case res.Passed:
		return []*Finding{{File: file, Msg: fmt.Sprintf("the starter answer already scores full marks (%g points): there is nothing left to do", res.MaxScore)}}, nil
	}
	return nil, nil
}

// asFinding turns an error into a finding, keeping its position when it
// has one.
func asFinding(err error, file, prefix string) *Finding {
	var ae *answer.Error
	if errors.As(err, &ae) {
		f := *ae
		f.Msg = prefix + f.Msg
		return &f
	}
	var le *lab.Error
	if errors.As(err, &le) {
		return &Finding{File: le.File, Line: le.Line, Col: le.Col, Msg: prefix + le.Msg}
	}
	return &Finding{File: file, Msg: prefix + err.Error()}
}
