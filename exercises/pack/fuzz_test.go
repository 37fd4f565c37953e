package pack_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/pack"
)

// FuzzLoad feeds any exercise.yaml to the loader: it must return problems,
// never panic, and every problem must name its file.
func FuzzLoad(f *testing.F) {
	builtin, err := exercises.Builtin()
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range builtin.Exercises {
		data, err := e.ReadFile(pack.ExerciseFile)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(exercise))
	f.Add([]byte("id: ex1\nscenario: |\n\t run 1\n"))
	f.Add([]byte("checks:\n  - expect: \"lost ==\"\n"))
	f.Add([]byte("id: &a ex1\ntitle: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := one("")
		fsys["ex1/exercise.yaml"] = &fstest.MapFile{Data: data}
		p, err := pack.Load(fsys, "pack")
		if p == nil {
			t.Fatalf("Load returned no pack: %v", err)
		}
		if err == nil {
			if len(p.Exercises) != 1 || p.Exercises[0].ID != "ex1" {
				t.Fatalf("loaded %d exercises without a problem", len(p.Exercises))
			}
			return
		}
		probs, ok := err.(pack.Problems)
		if !ok || len(probs) == 0 {
			t.Fatalf("error %T: %v", err, err)
		}
		for _, pr := range probs {
			if !strings.HasPrefix(pr.File, "pack/") || pr.Line < 0 || pr.Col < 0 || !errors.Is(pr, pack.ErrBadPack) {
				t.Fatalf("problem without a proper position: %#v", pr)
			}
		}
	})
}

// Guard the fuzz helper against drift: the MapFS must stay a valid pack.
var _ fs.FS = fstest.MapFS{}
