// Package exercises holds streamlab's built-in exercise pack, embedded in
// the binary, and what the command line and the terminal lab need to use
// it: the list, each exercise's task and scenario, and grading one answer.
//
// The work is in the subpackages, one job each:
//
//	pack     reads and checks exercise packs (the README's "Exercise format")
//	answer   reads a student's answer file
//	grade    runs an exercise with an answer and scores its checks
//	report   writes grades as text, JSON, JUnit, TAP, Gradescope or Classroom
//	lint     checks an instructor's pack, every problem with its position
//	watch    re-grades when an answer file is saved
package exercises

import (
	"context"
	"embed"
	"io/fs"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

//go:embed all:builtin
var builtinFS embed.FS

// BuiltinName is how the built-in pack's files are named in messages.
const BuiltinName = "exercises/builtin"

var builtin = sync.OnceValues(func() (*pack.Pack, error) {
	sub, err := fs.Sub(builtinFS, "builtin")
	if err != nil {
		return nil, err
	}
	return pack.Load(sub, BuiltinName)
})

// Builtin returns the built-in pack. Its tests keep it free of problems, so
// an error here is a bug.
func Builtin() (*pack.Pack, error) { return builtin() }

// current is the pack List and Lookup serve instead of the built-in one.
var current atomic.Pointer[pack.Pack]

// Use makes List and Lookup serve pack p instead of the built-in pack (nil
// goes back to it): `streamlab exercise start --pack DIR` opens an
// instructor's exercise in the terminal lab this way. Call it before the
// lab starts.
func Use(p *pack.Pack) { current.Store(p) }

// served is the pack List and Lookup serve.
func served() (*pack.Pack, error) {
	if p := current.Load(); p != nil {
		return p, nil
	}
	return Builtin()
}

// List returns the exercises of the pack served (the built-in one unless
// Use chose another), sorted by ID.
func List() []*pack.Exercise {
	p, err := served()
	if p == nil || err != nil {
		return nil
	}
	return p.Exercises
}

// Lookup finds an exercise of the pack served by ID; its Task is the
// statement to show, ScenarioText the scenario, Starter the starter answer.
// A job file of a pack on disk is given as an absolute path, so that the
// lab opens it wherever it was started.
func Lookup(id string) (*pack.Exercise, error) {
	p, err := served()
	if err != nil {
		return nil, err
	}
	ex, err := p.Lookup(id)
	if err != nil || p.Dir == "" || !ex.JobIsFile() {
		return ex, err
	}
	abs, err := filepath.Abs(filepath.Join(p.Dir, filepath.FromSlash(ex.Dir), filepath.FromSlash(ex.Job)))
	if err != nil {
		return nil, err
	}
	cp := *ex
	cp.Job = abs
	return &cp, nil
}

// Grade grades one answer held in memory (file names it in messages), as
// the terminal lab does with a recorded session: under the exercise's seed,
// or seed when it is not nil.
func Grade(ctx context.Context, ex *pack.Exercise, file string, data []byte, seed *int64) (grade.ExerciseResult, error) {
	return grade.Bytes(ctx, ex, file, data, grade.Options{Seed: seed})
}
