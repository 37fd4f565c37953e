package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/streamlab/streamlab/classroom"
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

Exit status: 0, or 2 for bad input (a missing state directory, a bad format).`,
		Args: cobra.NoArgs,
	}
	fs := cmd.Flags()
	c.stateFlag(cmd)
	fs.String("format", "text", "text, json or csv")
	secret := fs.String("secret", "", "the server's grading secret (else $STREAMLAB_GRADE_SECRET)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		cfg, err := c.load(cmd, classroom.Formats)
		if err != nil {
			return err
		}
		dir, err := classStateDir(cfg.State)
		if err != nil {
			return err
		}
		class, err := classroom.Status(cmd.Context(), classroom.State{Dir: dir}, gradeSecret(*secret))
		if errors.Is(err, classroom.ErrNoState) {
			return badInput(err)
		}
		if err != nil {
			return failed(err)
		}
		return classroom.WriteStatus(c.stdout, class, cfg.Format)
	}
	return cmd
}
