package lessons_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/streamlab/streamlab/lessons"
)

var update = flag.Bool("update", false, "rewrite testdata/answers.golden from the engine")

// answerSeed is the seed `streamlab lessons verify` uses by default.
const answerSeed = 1

// Each lesson check's answer under the default seed is pinned, so an
// engine change that moves what a learner is told is right shows up in
// review (rewrite with -update and explain the difference).
func TestLessonAnswersArePinned(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for _, l := range ls {
		ans, err := l.Solve(context.Background(), answerSeed)
		if err != nil {
			t.Fatalf("lesson %d %s: %v", l.Number, l.ID, err)
		}
		fmt.Fprintf(&got, "lesson %d %s (seed %d): %s ", l.Number, l.ID, ans.Seed, ans.Kind)
		if len(ans.Options) > 0 {
			fmt.Fprintf(&got, "option %d %q\n", ans.Option, ans.Options[ans.Option])
		} else {
			fmt.Fprintf(&got, "%s ± %s\n", strconv.FormatFloat(ans.Value, 'g', -1, 64), strconv.FormatFloat(ans.Tolerance, 'g', -1, 64))
		}
	}
	path := filepath.Join("testdata", "answers.golden")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lessons -run AnswersArePinned -update to create it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("the lessons' answers moved; if the engine change means it, rewrite with -update and say why in review.\ngot:\n%s\nwant:\n%s", got.Bytes(), want)
	}
}
