package lessons_test

import (
	"context"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/lessons"
)

// Every lesson's reference solution completes every step, and its check
// has an answer: CI proves each lesson can be finished.
func TestEveryLessonCanBeFinished(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		t.Run(l.ID, func(t *testing.T) {
			t.Parallel()
			res := lessons.Verify(context.Background(), l, 1)
			for i, s := range res.Steps {
				t.Logf("step %d %q done=%t after %q", i+1, l.Steps[i].Title, s.Done, s.After)
			}
			if !res.OK() {
				t.Fatalf("lesson %d %s cannot be finished: %v", l.Number, l.ID, res.Err)
			}
			t.Logf("check answer: %s", res.Answer.Want())
		})
	}
}

func TestVerifyFailsALessonThatCannotBeFinished(t *testing.T) {
	cases := map[string]struct{ old, new, want string }{
		"goal never met":        {"source.records >= 100", "source.records >= 200", "step 1 (Run) is not done after its solution; its goal is source.records >= 200"},
		"refused command":       {"      run 100\n", "      set ha active-standby\n      set mode complete\n", `step 1 (Run): "set mode complete"`},
		"fresh step met before": {"check:\n", "  - title: Again\n    fresh: true\n    instruction: Run it again.\n    goal: {expect: [source.records >= 50]}\n    hints: [Run.]\n    solution: |\n      job passthrough\n      run 100\ncheck:\n", "step 2 (Again) starts a new session, but the session before already met its goal"},
		"check cannot run":      {"  kind: choice\n  question: Which?\n  options: [a, b]\n  answer: 1", "  kind: number\n  question: Which?\n  runs:\n    main: job nosuch\n  answer: main.sink.lost", `check run main`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l := mustLoad(t, strings.Replace(goodMeta, tc.old, tc.new, 1))
			res := lessons.Verify(context.Background(), l, 1)
			if res.OK() || res.Err == nil || !strings.Contains(res.Err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", res.Err, tc.want)
			}
			var b strings.Builder
			if err := res.WriteText(&b); err != nil || !strings.Contains(b.String(), "FAILED") {
				t.Fatalf("%q %v", b.String(), err)
			}
		})
	}
}
