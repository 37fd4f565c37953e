package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/classroom"
	"github.com/streamlab/streamlab/classroom/watch"
)

// classCmd is `streamlab class`: the instructor's side of `streamlab serve`.
func (c *cli) classCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "class",
		Short: "The instructor's view of a class served with streamlab serve",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(c.classStatusCmd())
	return cmd
}

func (c *cli) classStatusCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Each student's progress and grades, from a server's state",
		Long: `List every student in the state directory of ` + "`streamlab serve`" + `: lessons
finished, the lesson and step they are at, and their exercise grades. The
answers they graded in the lab are graded again with the same grader, under
each student's own seeds when the server has a grading secret (--secret or
STREAMLAB_GRADE_SECRET, the same as the server's), else under each
exercise's seed.

Formats: text (a table), json, csv (a gradebook: a row a student, a column
an exercise, empty where they have not answered).

With --watch the table is shown live in this terminal and read again every
second, with a dot beside each student whose lab is open and, from the
running server, what each open lab costs it: CPU (the share of a core its
engine and drawing took over the last second) and the memory its engine
says it holds.

Exit status: 0, or 2 for bad input (a missing state directory, a bad format).`,
		Args: cobra.NoArgs,
	}
	fs := cmd.Flags()
	o := &classStatusOptions{c: c, flags: fs}
	c.stateFlag(cmd)
	fs.String("format", "text", "text, json or csv")
	fs.StringVar(&o.secret, "secret", "", "the server's grading secret (else $STREAMLAB_GRADE_SECRET)")
	fs.BoolVar(&o.watch, "watch", false, "show the class live in this terminal, with each open lab's CPU and memory (q quits)")
	cmd.RunE = runE(o.run)
	return cmd
}

// classStatusOptions are `class status`'s flags that are not
// configuration keys; state and format are read through the configuration.
type classStatusOptions struct {
	c      *cli
	flags  *pflag.FlagSet
	secret string
	watch  bool
}

// run prints the class in the state directory, or with --watch shows it live.
func (o *classStatusOptions) run(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, classroom.Formats)
	if err != nil {
		return err
	}
	dir, err := classStateDir(cfg.State)
	if err != nil {
		return err
	}
	st, secret := classroom.State{Dir: dir}, gradeSecret(o.secret)
	if o.watch {
		return o.c.watchClass(ctx, st, secret)
	}
	class, err := classroom.Status(ctx, st, secret)
	switch {
	case errors.Is(err, classroom.ErrNoState):
		return err // bad input (exitFor)
	case err != nil:
		return failed(err)
	}
	return classroom.WriteStatus(o.c.stdout, class, cfg.Format)
}

// watchClass shows the class in st live until the instructor quits: the
// students from the state directory, the open labs and their cost from
// the file the running server keeps there.
func (c *cli) watchClass(ctx context.Context, st classroom.State, secret string) error {
	if !isTerminal(c.stdin) || !isTerminal(c.stdout) {
		return badInput(errors.New("--watch needs a terminal, and standard input or output is not one"))
	}
	if _, err := classroom.Status(ctx, st, secret); errors.Is(err, classroom.ErrNoState) {
		return err
	}
	grades := &classroom.Grades{}
	view := watch.New(st.Dir, func(ctx context.Context) watch.Snapshot {
		return classSnapshot(ctx, st, secret, grades, time.Now())
	}).Watching()
	_, err := tea.NewProgram(view, tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler(),
		tea.WithInput(c.stdin), tea.WithOutput(c.stdout)).Run()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return failed(err)
	}
	return nil
}

// classSnapshot reads the class and, from the server's live file, who is
// online and what their labs cost.
func classSnapshot(ctx context.Context, st classroom.State, secret string, grades *classroom.Grades, now time.Time) watch.Snapshot {
	class, err := grades.Status(ctx, st, secret)
	live, lerr := st.ReadLive(now)
	if lerr != nil {
		err = errors.Join(err, fmt.Errorf("the server's live file: %w", lerr))
	}
	return watch.Snapshot{Class: class, Online: live.Online(), Usage: live.Labs, At: live.At, Err: err}
}
