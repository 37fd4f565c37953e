package cli

import (
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
	dir := packFlag(cmd)
	seeds := cmd.Flags().Int("seeds", 3, "grade each answer under `N` seeds")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if *seeds < 1 || *seeds > pack.MaxSeeds {
			return badInput(fmt.Errorf("--seeds must be from 1 to %d, got %d", pack.MaxSeeds, *seeds))
		}
		exs, err := selectExercises(*dir, args)
		if err != nil {
			return err
		}
		var b strings.Builder
		answers, off, untested := 0, 0, 0
		for _, ex := range exs {
			res, err := packtest.Exercise(cmd.Context(), ex, *seeds)
			var probs pack.Problems
			var prob *pack.Problem
			switch {
			case cmd.Context().Err() != nil:
				return failed(cmd.Context().Err())
			case errors.As(err, &probs), errors.As(err, &prob), errors.Is(err, grade.ErrBrokenPack), errors.Is(err, grade.ErrGuard):
				fmt.Fprint(c.stdout, b.String())
				return badInput(err)
			case err != nil:
				return failed(err)
			}
			answers += res.Answers
			if res.Answers == 0 {
				untested++
			}
			if len(res.Off) == 0 {
				fmt.Fprintf(&b, "ok    %s: %s\n", ex.ID, tested(ex, res))
				continue
			}
			off += len(res.Off)
			fmt.Fprintf(&b, "FAIL  %s: %s\n", ex.ID, tested(ex, res))
			for _, o := range res.Off {
				fmt.Fprintf(&b, "      %s\n", o)
			}
		}
		fmt.Fprintf(&b, "%d exercises, %d stored answers, under %d seeds: ", len(exs), answers, *seeds)
		if off == 0 {
			b.WriteString("every score as expected")
		} else {
			fmt.Fprintf(&b, "%d scores off", off)
		}
		if untested > 0 {
			fmt.Fprintf(&b, " (%d exercises have no %s/%s)", untested, packtest.Dir, packtest.File)
		}
		b.WriteString("\n")
		fmt.Fprint(c.stdout, b.String())
		if off > 0 {
			return failed(fmt.Errorf("%d scores off", off))
		}
		return nil
	}
	return cmd
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
