package lessons_test

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/streamlab/streamlab/lessons"
)

// A choice check's right option must not give itself away by being the
// most careful, longest one: in most checks it is not the longest.
func TestRightOptionIsRarelyTheLongest(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	choices, longest := 0, 0
	for _, l := range ls {
		if l.Check.Kind != lessons.CheckChoice {
			continue
		}
		ans, err := l.Solve(context.Background(), answerSeed)
		if err != nil {
			t.Fatalf("lesson %s: %v", l.ID, err)
		}
		choices++
		right := utf8.RuneCountInString(ans.Options[ans.Option])
		isLongest := true
		for i, o := range ans.Options {
			if i != ans.Option && utf8.RuneCountInString(o) >= right {
				isLongest = false
			}
		}
		if isLongest {
			longest++
			t.Logf("lesson %s: the right option is the longest (%d characters)", l.ID, right)
		}
	}
	if choices < 4 {
		t.Fatalf("only %d choice checks found", choices)
	}
	if 2*longest >= choices {
		t.Errorf("in %d of %d choice checks the right option is the longest", longest, choices)
	}
}
