package exercises_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

var update = flag.Bool("update", false, "rewrite testdata/keys.golden from the engine")

// The built-in prediction exercises' answer keys under their own seeds are
// what students are graded against: they are pinned, so an engine change
// that moves them shows up in review (rewrite with -update and explain the
// difference).
func TestBuiltinAnswerKeysArePinned(t *testing.T) {
	var got bytes.Buffer
	for _, ex := range exercises.List() {
		if ex.Kind != pack.KindPrediction {
			continue
		}
		key, err := grade.Key(context.Background(), ex, grade.Options{})
		if err != nil {
			t.Fatalf("%s: %v", ex.ID, err)
		}
		got.WriteString("## " + ex.ID + "\n")
		got.Write(key)
	}
	if got.Len() == 0 {
		t.Fatal("no prediction exercise among the built-in ones: nothing pinned")
	}
	path := filepath.Join("testdata", "keys.golden")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./exercises -run AnswerKeys -update to create it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("the built-in answer keys moved; if the engine change means it, rewrite with -update and say why in review.\ngot:\n%s\nwant:\n%s", got.Bytes(), want)
	}
}
