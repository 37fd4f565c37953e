package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/lessons"
)

// lessonCmd is `streamlab lesson [ID]`: open a lesson in the terminal lab.
func (c *cli) lessonCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lesson [ID]",
		Short: "Open a guided lesson (the next one when no ID is given)",
		Long: `Open guided lesson ID (its number or its name, as ` + "`streamlab lessons`" + ` lists
them) in the terminal lab; without ID, the next lesson not yet done.

Lessons run under your own lesson seed, chosen once and kept with your
progress, so that answers that depend on the seed are yours; --seed or
STREAMLAB_SEED overrides it.

Exit status: 0, or 2 for an unknown ID.`,
		Args: cobra.MaximumNArgs(1),
	}
	o := &lessonOptions{c: c, flags: cmd.Flags()}
	cmd.RunE = runE(o.open)
	c.labFlags(cmd)
	return cmd
}

// lessonOptions are the lesson commands' flags: configuration keys, and
// lessons verify's own.
type lessonOptions struct {
	c      *cli
	flags  *pflag.FlagSet
	seeds  int
	reveal bool
}

// open opens lesson args[0], or the next one not done, in the terminal lab
// under the learner's lesson seed.
func (o *lessonOptions) open(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, nil)
	if err != nil {
		return err
	}
	store, progress, err := o.c.progress()
	if err != nil {
		return err
	}
	l, err := pickLesson(progress, args)
	if err != nil {
		return err
	}
	if !cfg.SeedSet {
		if progress.EnsureSeed(newLessonSeed) {
			if err := store.Save(progress); err != nil {
				return failed(err)
			}
		}
		cfg.Seed = progress.Seed
	}
	if err := l.WriteFiles(store.Workspace(l)); err != nil {
		return failed(fmt.Errorf("lesson %s: writing its files: %w", l.ID, err))
	}
	return o.c.runTUI(cfg, "lesson:"+l.ID)
}

// lessonsCmd is `streamlab lessons` with verify and reset.
func (c *cli) lessonsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lessons",
		Short: "List the lessons and your progress",
		Long: `List the guided lessons and your progress in each.

Progress is kept in progress.json in $STREAMLAB_STATE_DIR, else
$XDG_STATE_HOME/streamlab, else ~/.local/state/streamlab.

Exit status: 0, or 2 for bad flags or configuration.`,
		Args: cobra.NoArgs,
	}
	o := &lessonOptions{c: c, flags: cmd.Flags()}
	cmd.RunE = runE(o.list)
	verify := &cobra.Command{
		Use:   "verify [ID...]",
		Short: "Run every lesson's reference solution without a terminal",
		Long: `Run the reference solution of each lesson ID (all of them when none is
named) without a terminal, feeding its steps' goals the session as a
learner's would, and solve its check; print each step as it is done.

A check's answer is printed only with --reveal (for whoever writes the
lessons): without it, the check says only whether it was solved, so that
verify is not a way around a lesson's question.

--seeds N verifies each lesson under N seeds, --seed and the next ones, as
learners' own seeds would run it: a step or a check that holds for one
seed's events only shows up as a lesson that cannot be finished under some.

Exit status: 0 when every lesson could be finished, 1 otherwise, 2 for an
unknown ID or bad flags.`,
	}
	v := &lessonOptions{c: c, flags: verify.Flags()}
	verify.RunE = runE(v.verify)
	verify.Flags().Int64("seed", c.defaults.Seed, "seed `N` of every run")
	verify.Flags().IntVar(&v.seeds, "seeds", 1, "verify each lesson under `N` seeds: --seed and the next ones")
	verify.Flags().BoolVar(&v.reveal, "reveal", false, "print each lesson check's answer")
	reset := &cobra.Command{
		Use:   "reset [ID]",
		Short: "Forget the progress of lesson ID, or of every lesson",
		Long: `Forget your progress in lesson ID, or in every lesson when no ID is given.
Your lesson seed stays.

Exit status: 0, or 2 for an unknown ID.`,
		Args: cobra.MaximumNArgs(1),
	}
	r := &lessonOptions{c: c, flags: reset.Flags()}
	reset.RunE = runE(r.reset)
	cmd.AddCommand(verify, reset)
	return cmd
}

// list prints every lesson with the learner's progress in it.
func (o *lessonOptions) list(ctx context.Context, args []string) error {
	if _, err := o.c.load(o.flags, nil); err != nil {
		return err
	}
	store, progress, err := o.c.progress()
	if err != nil {
		return err
	}
	ls, err := lessons.Catalog()
	if err != nil {
		return failed(err)
	}
	w := o.c.stdout
	fmt.Fprintf(w, "Lessons (progress in %s", store.Path())
	if progress.Seed != 0 {
		fmt.Fprintf(w, "; your lesson seed is %d", progress.Seed)
	}
	fmt.Fprintln(w, ")")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range ls {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", l.Number, l.ID, l.Title, progress.Status(l))
	}
	if err := tw.Flush(); err != nil {
		return failed(err)
	}
	if next := progress.Next(ls); progress.Done(next) {
		fmt.Fprintf(w, "\nAll %d lessons are done. Open one again with `streamlab lesson ID`, or try the exercises: `streamlab exercise list`.\n", len(ls))
	} else {
		fmt.Fprintf(w, "\nOpen one with `streamlab lesson ID`; the next one is %d (%s).\n", next.Number, next.ID)
	}
	return nil
}

// verify runs the reference solutions of the lessons args name (every one
// when none) under --seeds seeds from --seed.
func (o *lessonOptions) verify(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, nil)
	if err != nil {
		return err
	}
	if o.seeds < 1 || o.seeds > maxVerifySeeds {
		return badInput(fmt.Errorf("--seeds must be from 1 to %d, got %d", maxVerifySeeds, o.seeds))
	}
	ls, err := lessonsNamed(args)
	if err != nil {
		return err
	}
	var bad []string
	for _, l := range ls {
		failedSeeds, err := verifyUnderSeeds(ctx, o.c.stdout, l, cfg.Seed, o.seeds, o.reveal)
		if err != nil {
			return failed(err)
		}
		if len(failedSeeds) > 0 {
			bad = append(bad, lessonWithSeeds(l.ID, failedSeeds, o.seeds))
		}
	}
	if len(bad) > 0 {
		return failed(fmt.Errorf("%d of %d lessons cannot be finished: %s", len(bad), len(ls), strings.Join(bad, ", ")))
	}
	fmt.Fprintf(o.c.stdout, "%d of %d lessons can be finished%s\n", len(ls), len(ls), seedRange(cfg.Seed, o.seeds))
	return nil
}

// reset forgets the progress of lesson args[0], or of every lesson.
func (o *lessonOptions) reset(ctx context.Context, args []string) error {
	if _, err := o.c.load(o.flags, nil); err != nil {
		return err
	}
	store, progress, err := o.c.progress()
	if err != nil {
		return err
	}
	what := "every lesson"
	if len(args) == 1 {
		l, err := lessons.Find(args[0])
		if err != nil {
			return badInput(err)
		}
		progress.Reset(l.ID)
		what = fmt.Sprintf("lesson %d (%s)", l.Number, l.ID)
	} else {
		progress.ResetAll()
	}
	if err := store.Save(progress); err != nil {
		return failed(err)
	}
	fmt.Fprintf(o.c.stdout, "reset the progress of %s\n", what)
	return nil
}

// progress opens the progress store and loads it. A damaged progress file
// is only a warning: Load has moved it aside and starts afresh.
func (c *cli) progress() (lessons.Store, *lessons.Progress, error) {
	dir, err := lessons.StateDir()
	if err != nil {
		return lessons.Store{}, nil, internalError(err)
	}
	store := lessons.Store{Dir: dir}
	p, err := store.Load()
	switch {
	case errors.Is(err, lessons.ErrDamaged):
		fmt.Fprintf(c.stderr, "streamlab: warning: %v\n", err)
	case errors.Is(err, untrusted.ErrNotRegular), errors.Is(err, untrusted.ErrTooLarge):
		// Something other than a progress file stands in its place: bad
		// input (exitFor).
		return store, nil, err
	case err != nil:
		return store, nil, internalError(err)
	}
	return store, p, nil
}

// pickLesson finds the lesson args name, or the next one not done.
func pickLesson(p *lessons.Progress, args []string) (*lessons.Lesson, error) {
	if len(args) == 1 {
		l, err := lessons.Find(args[0])
		if err != nil {
			return nil, badInput(err)
		}
		return l, nil
	}
	ls, err := lessons.Catalog()
	if err != nil {
		return nil, failed(err)
	}
	return p.Next(ls), nil
}

// lessonsNamed finds the lessons ids name, or returns every lesson.
func lessonsNamed(ids []string) ([]*lessons.Lesson, error) {
	if len(ids) == 0 {
		ls, err := lessons.Catalog()
		if err != nil {
			return nil, failed(err)
		}
		return ls, nil
	}
	var out []*lessons.Lesson
	for _, id := range ids {
		l, err := lessons.Find(id)
		if err != nil {
			return nil, badInput(err)
		}
		out = append(out, l)
	}
	return out, nil
}

// maxVerifySeeds bounds lessons verify --seeds: each seed runs every
// lesson's solution and check again.
const maxVerifySeeds = 100

// verifyUnderSeeds verifies lesson l under seeds first, first+1, … (n of
// them), writes each result to w, and returns the seeds it failed under.
func verifyUnderSeeds(ctx context.Context, w io.Writer, l *lessons.Lesson, first int64, n int, reveal bool) ([]int64, error) {
	var failedSeeds []int64
	for seed := first; seed < first+int64(n); seed++ {
		res := lessons.Verify(ctx, l, seed)
		if err := writeVerify(w, res, reveal); err != nil {
			return nil, err
		}
		if !res.OK() {
			failedSeeds = append(failedSeeds, seed)
		}
	}
	return failedSeeds, nil
}

// lessonWithSeeds names a lesson that failed, with the seeds it failed
// under when more than one seed was tried: "streams (seeds 3, 7)".
func lessonWithSeeds(id string, failedSeeds []int64, tried int) string {
	if tried == 1 {
		return id
	}
	names := make([]string, len(failedSeeds))
	for i, s := range failedSeeds {
		names[i] = strconv.FormatInt(s, 10)
	}
	word := "seeds"
	if len(names) == 1 {
		word = "seed"
	}
	return fmt.Sprintf("%s (%s %s)", id, word, strings.Join(names, ", "))
}

// seedRange says which seeds a verification ran under, when more than one:
// " under seeds 1 to 12".
func seedRange(first int64, n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf(" under seeds %d to %d", first, first+int64(n)-1)
}

// newLessonSeed picks a learner's lesson seed: a small positive number
// that is easy to read out and type.
func newLessonSeed() int64 { return 1 + rand.Int64N(999_999) }

// writeVerify writes a lesson's verification, its check's answer only when
// reveal is set.
func writeVerify(w io.Writer, res *lessons.Result, reveal bool) error {
	if reveal || res.Answer == nil {
		return res.WriteText(w)
	}
	shown := *res
	shown.Answer = nil
	var b strings.Builder
	if err := shown.WriteText(&b); err != nil {
		return err
	}
	text := strings.TrimSuffix(b.String(), "\n")
	i := strings.LastIndex(text, "\n")
	_, err := io.WriteString(w, text[:i+1]+"  check: solved (--reveal prints its answer)\n"+text[i+1:]+"\n")
	return err
}
