// Package packtest tests an exercise pack against answers whose scores the
// instructor knows: the reference answer must get full marks and each wrong
// answer the score (or a score in the range) its author expects, under
// several seeds. A check that rewards a wrong answer, or fails the right
// one, is found before the students find it.
//
// The answers of exercise ID live in the pack at ID/tests/, listed in
// ID/tests/tests.yaml:
//
//   - answer: reference.lab    # a file in ID/tests/
//     score: full              # full marks
//   - answer: wrong.lab
//     score: 0                 # a number of points
//   - answer: half.lab
//     score: [1, 3]            # a range, both ends included
//
// A prediction exercise's stored answers hold the numbers of the exercise's
// own seed, so they are graded under that seed only; its answer key
// (grade.Key) is computed and graded under every seed. Other answers are
// graded under every seed. The tests directory is never copied to a
// student's starter.
package packtest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// Dir is the directory of an exercise that holds its tests; File lists them.
const (
	Dir  = "tests"
	File = "tests.yaml"
)

// Case is one answer with the score it must get.
type Case struct {
	Answer   string // a file name in the exercise's tests directory
	Full     bool   // the score is the exercise's full marks
	Min, Max float64
	Line     int // of the case in tests.yaml
}

// want describes the expected score in words.
func (c Case) want(maxScore float64) string {
	switch {
	case c.Full:
		return fmt.Sprintf("full marks (%g)", maxScore)
	case c.Min == c.Max:
		return strconv.FormatFloat(c.Min, 'g', -1, 64)
	}
	return fmt.Sprintf("%g to %g", c.Min, c.Max)
}

// Cases reads an exercise's tests.yaml; none when it has no tests
// directory.
func Cases(ex *pack.Exercise) ([]Case, error) {
	name := path.Join(Dir, File)
	data, err := ex.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	file := ex.FileName(name)
	if err != nil {
		return nil, &pack.Problem{Kind: pack.ErrBadPack, File: file, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	root, err := yamlpos.Parse(pack.ErrBadPack, file, data, pack.YAMLLimits)
	if err != nil || root == nil {
		if err == nil {
			err = &pack.Problem{Kind: pack.ErrBadPack, File: file, Msg: "no tests: list answers with their scores"}
		}
		return nil, err
	}
	d := &yamlpos.Decoder{File: file, Kind: pack.ErrBadPack}
	var out []Case
	for _, item := range d.List(yamlpos.Root("tests", root)) {
		c := Case{}
		c.Line, _ = item.Pos()
		has := map[string]bool{}
		for _, f := range d.Mapping(item, "a test", []string{"answer", "score"}) {
			has[f.Key] = true
			switch f.Key {
			case "answer":
				c.Answer = d.String(f)
				if c.Answer != "" && (path.Base(c.Answer) != c.Answer || strings.HasPrefix(c.Answer, ".")) {
					d.FailAt(f, "answer: %q must be a file name in %s, without directories", c.Answer, ex.FileName(Dir))
				} else if _, err := ex.ReadFile(path.Join(Dir, c.Answer)); err != nil {
					d.FailAt(f, "answer: cannot read %s: %v", ex.FileName(path.Join(Dir, c.Answer)), unwrap(err))
				}
			case "score":
				c.Full, c.Min, c.Max = score(d, f)
			}
		}
		for _, k := range []string{"answer", "score"} {
			if !has[k] {
				d.FailAt(item, "a test needs %s", k)
			}
		}
		out = append(out, c)
	}
	if len(d.Errs) > 0 {
		return nil, pack.Problems(d.Errs)
	}
	return out, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// score reads full, a number, or a range [lo, hi].
func score(d *yamlpos.Decoder, f yamlpos.Entry) (full bool, lo, hi float64) {
	const want = "score: expected full, a number of points or a range such as [1, 3]"
	if n, ok := yamlpos.Number(f.Value); ok {
		return false, n, n
	}
	if yamlpos.Text(f.Value) == "full" {
		return true, 0, 0
	}
	items := d.List(f)
	if len(items) != 2 {
		d.FailAt(f, "%s, got %s", want, yamlpos.Describe(f.Value))
		return false, 0, 0
	}
	lo, ok1 := yamlpos.Number(items[0].Value)
	hi, ok2 := yamlpos.Number(items[1].Value)
	if !ok1 || !ok2 || lo > hi {
		d.FailAt(f, "%s with the lower end first", want)
	}
	return false, lo, hi
}

// Result is the outcome of testing one exercise.
type Result struct {
	ID      string
	Answers int // stored answers graded (the computed key not counted)
	Seeds   []int64
	// Off describes every score that was not the expected one.
	Off []string
}

// Seeds are the base seeds an exercise is tested under: its own, then
// n-1 further ones.
func Seeds(ex *pack.Exercise, n int) []int64 {
	out := []int64{ex.Seed}
	for i := 1; i < n; i++ {
		out = append(out, ex.Seed+int64(i))
	}
	return out
}

// Exercise tests one exercise under n seeds. The error is a broken pack,
// an unreadable tests.yaml (pack.Problems) or a cancelled context.
func Exercise(ctx context.Context, ex *pack.Exercise, n int) (Result, error) {
	res := Result{ID: ex.ID, Seeds: Seeds(ex, max(n, 1))}
	cases, err := Cases(ex)
	if err != nil {
		return res, err
	}
	res.Answers = len(cases)
	full := ex.MaxPoints()
	for _, seed := range res.Seeds {
		opts := grade.Options{Seed: &seed, Reveal: true}
		if ex.Kind == pack.KindPrediction {
			key, err := grade.Key(ctx, ex, opts)
			if err != nil {
				return res, err
			}
			r, err := grade.Bytes(ctx, ex, "the answer key", key, opts)
			if err != nil {
				return res, err
			}
			if r.Score != full {
				res.Off = append(res.Off, offMessage(ex, "the answer key", seed, r, Case{Full: true}))
			}
		}
		for _, c := range cases {
			if ex.Kind == pack.KindPrediction && seed != ex.Seed {
				continue
			}
			name := path.Join(Dir, c.Answer)
			data, err := ex.ReadFile(name)
			if err != nil {
				return res, err
			}
			r, err := grade.Bytes(ctx, ex, ex.FileName(name), data, opts)
			if err != nil {
				return res, err
			}
			lo, hi := c.Min, c.Max
			if c.Full {
				lo, hi = full, full
			}
			if r.Score < lo-1e-9 || r.Score > hi+1e-9 {
				res.Off = append(res.Off, offMessage(ex, ex.FileName(name), seed, r, c))
			}
		}
	}
	return res, nil
}

// offMessage says which answer scored what under which seed, and names
// the checks to look at: those that gave it points when it scored too
// much, those that failed it when it scored too little.
func offMessage(ex *pack.Exercise, file string, seed int64, r grade.ExerciseResult, c Case) string {
	msg := fmt.Sprintf("%s under seed %d scored %g of %g, want %s", file, seed, r.Score, r.MaxScore, c.want(r.MaxScore))
	if r.Error != "" {
		return msg + ": it could not be graded: " + r.Error
	}
	tooHigh := !c.Full && r.Score > c.Max
	var names []string
	for _, ch := range r.Checks {
		if ch.Passed == tooHigh {
			s := strconv.Quote(ch.Name)
			if !ch.Passed && ch.Message != "" {
				s += " (" + ch.Message + ")"
			}
			names = append(names, s)
		}
	}
	if tooHigh {
		return msg + "; the checks that gave it points: " + strings.Join(names, ", ")
	}
	return msg + "; the checks that failed it: " + strings.Join(names, ", ")
}
