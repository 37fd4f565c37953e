package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/packtest"
)

// exerciseTestCmd is `exercise test`: grade a pack's own reference and
// wrong answers and compare their scores with the ones their author wrote
// down, so that a check rewarding the wrong thing is found before a class
// finds it.
func (c *cli) exerciseTestCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "test [ID...]",
		Short: "Grade a pack's reference and wrong answers against their expected scores",
		Long: `Grade the answers an exercise pack carries for each exercise ID (all of them
when none is named) and check each gets the score its author expects: the
answers of exercise ID are in ID/tests/, listed in ID/tests/tests.yaml with
their scores (full for full marks, a number of points, or a range such as
[1, 3]). Each is graded under --seeds seeds (the exercise's own seed and the
next ones). A prediction's stored answers hold one seed's numbers and are
graded under the exercise's seed; its answer key is computed and must score
full marks under every seed. A score that is off is printed with the
answer, the seed and the checks to look at: those that gave a wrong answer
points, or those that failed the right one.

Exit status: 0 when every score is as expected, 1 when one is off, 2 for
bad input (a pack or tests.yaml with problems).`,
	}
	o := &packTestOptions{c: c}
	packFlag(cmd, &o.packDir)
	cmd.Flags().IntVar(&o.seeds, "seeds", 3, "grade each answer under `N` seeds")
	cmd.RunE = runE(o.run)
	return cmd
}

// packTestOptions are `exercise test`'s flags.
type packTestOptions struct {
	c       *cli
	packDir string
	seeds   int
}

// packTested is what `exercise test` found so far: its output, how many
// stored answers it graded, how many scores were off and how many
// exercises had no stored answers.
type packTested struct {
	b                      strings.Builder
	answers, off, untested int
}

// run grades the stored answers of the exercises args name (every one when
// none) and says which scores are not as expected.
func (o *packTestOptions) run(ctx context.Context, args []string) error {
	if o.seeds < 1 || o.seeds > pack.MaxSeeds {
		return badInput(fmt.Errorf("--seeds must be from 1 to %d, got %d", pack.MaxSeeds, o.seeds))
	}
	exs, err := selectExercises(o.packDir, args)
	if err != nil {
		return err
	}
	var t packTested
	for _, ex := range exs {
		res, err := packtest.Exercise(ctx, ex, o.seeds)
		var probs pack.Problems
		switch {
		case ctx.Err() != nil:
			return failed(ctx.Err())
		case errors.As(err, &probs), errors.Is(err, pack.ErrBadPack), errors.Is(err, grade.ErrBrokenPack), errors.Is(err, grade.ErrGuard):
			fmt.Fprint(o.c.stdout, t.b.String())
			return badInput(err)
		case err != nil:
			return failed(err)
		}
		t.add(ex, res)
	}
	t.summary(len(exs), o.seeds)
	fmt.Fprint(o.c.stdout, t.b.String())
	if t.off > 0 {
		return failed(fmt.Errorf("%d scores off", t.off))
	}
	return nil
}

// add writes an exercise's line, and the scores off under it.
func (t *packTested) add(ex *pack.Exercise, res packtest.Result) {
	t.answers += res.Answers
	if res.Answers == 0 {
		t.untested++
	}
	if len(res.Off) == 0 {
		fmt.Fprintf(&t.b, "ok    %s: %s\n", ex.ID, tested(ex, res))
		return
	}
	t.off += len(res.Off)
	fmt.Fprintf(&t.b, "FAIL  %s: %s\n", ex.ID, tested(ex, res))
	for _, off := range res.Off {
		fmt.Fprintf(&t.b, "      %s\n", off)
	}
}

// summary writes the closing line: how many exercises and answers under
// how many seeds, and whether every score was as expected.
func (t *packTested) summary(exercises, seeds int) {
	fmt.Fprintf(&t.b, "%d exercises, %d stored answers, under %d seeds: ", exercises, t.answers, seeds)
	if t.off == 0 {
		t.b.WriteString("every score as expected")
	} else {
		fmt.Fprintf(&t.b, "%d scores off", t.off)
	}
	if t.untested > 0 {
		fmt.Fprintf(&t.b, " (%d exercises have no %s/%s)", t.untested, packtest.Dir, packtest.File)
	}
	t.b.WriteString("\n")
}

// tested says what was graded for an exercise.
func tested(ex *pack.Exercise, res packtest.Result) string {
	s := fmt.Sprintf("%d answers", res.Answers)
	if ex.Kind == pack.KindPrediction {
		s += " and the computed answer key"
	}
	seeds := make([]string, len(res.Seeds))
	for i, x := range res.Seeds {
		seeds[i] = fmt.Sprint(x)
	}
	return s + " under seeds " + strings.Join(seeds, ", ")
}
