package lessons_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/streamlab/streamlab/lessons"
)

// verifySeeds is how many learner seeds every lesson is verified under:
// seeds 1 to verifySeeds.
const verifySeeds = 12

// Every lesson can be finished under each of twelve seeds, not only the
// default one: a step whose goal or a check whose options hold for one
// seed's events only would leave some learners stuck. And each check's
// right answer differs between at least two of those seeds, so that the
// check asks for what the learner's own run gave, not for what the
// lesson's text or another learner can tell.
func TestEveryLessonUnderTwelveSeeds(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		t.Run(l.ID, func(t *testing.T) {
			t.Parallel()
			answers := map[string]bool{}
			for seed := int64(1); seed <= verifySeeds; seed++ {
				res := lessons.Verify(context.Background(), l, seed)
				if !res.OK() {
					t.Errorf("seed %d: lesson %d %s cannot be finished: %v", seed, l.Number, l.ID, res.Err)
					continue
				}
				answers[rightAnswer(res.Answer)] = true
			}
			if len(answers) < 2 {
				t.Errorf("the check's right answer is the same under all %d seeds (%v): the lesson's text, not the learner's run, answers it", verifySeeds, answers)
			}
		})
	}
}

// rightAnswer is what a learner must give to be right: a number check's
// value, or a choice check's option.
func rightAnswer(a *lessons.Answer) string {
	if a.Kind == lessons.CheckChoice {
		return "option " + strconv.Itoa(a.Option+1)
	}
	return strconv.FormatFloat(a.Value, 'g', -1, 64)
}
