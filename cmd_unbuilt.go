package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// This file holds the commands whose work is not built yet. They are
// registered with their documented arguments and flags, and fail with exit
// status 2 so that nobody mistakes them for working. Replace each one here
// when its package lands.

// notBuilt is the RunE of a command that is not built yet.
func notBuilt(cmd *cobra.Command, args []string) error {
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	return badInput(fmt.Errorf("%s is not built yet", name))
}

func (c *cli) unbuiltCmds() []*cobra.Command {
	lesson := &cobra.Command{
		Use:   "lesson [ID]",
		Short: "Open a guided lesson (the next one when no ID is given)",
		Long: `Open guided lesson ID in the terminal lab; without ID, the next lesson
not yet done.

Exit status: 0, or 2 for an unknown ID.`,
		Args: cobra.MaximumNArgs(1),
		RunE: notBuilt,
	}
	c.tuiFlags(lesson)

	lessons := &cobra.Command{
		Use:   "lessons",
		Short: "List the lessons and your progress",
		Args:  cobra.NoArgs,
		RunE:  notBuilt,
	}

	grade := &cobra.Command{
		Use:   "grade [EXERCISE...]",
		Short: "Grade exercise answers without a terminal (for CI)",
		Long: `Grade the answers in --answers DIR for each EXERCISE (all of them when
none is named) and write a report.

Exit status: 0 when all pass, 1 when some fail (a broken answer fails its
exercise), 2 for misuse: bad flags, a broken exercise pack.`,
		RunE: notBuilt,
	}
	gf := grade.Flags()
	gf.String("answers", ".", "read the answers from `DIR`")
	gf.String("format", c.defaults.Format, "report format: text, json, junit, tap, gradescope or classroom")
	gf.Int64("seed", c.defaults.Seed, "seed `N` of every run (overrides the exercises')")
	gf.String("out", "", "write the report to `FILE` instead of standard output")

	exercise := &cobra.Command{
		Use:   "exercise list|show|start|lint",
		Short: "Browse exercises, open one in the lab, or check an exercise pack",
		Long: `Browse the exercises, open one in the terminal lab, or check an
instructor's exercise pack.

Exit status: 0, 1 for lint findings, 2 for bad input.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return badInput(fmt.Errorf("exercise needs a subcommand: list, show, start or lint"))
		},
	}
	start := &cobra.Command{
		Use:   "start ID",
		Short: "Open exercise ID in the terminal lab",
		Args:  cobra.ExactArgs(1),
		RunE:  notBuilt,
	}
	c.tuiFlags(start)
	exercise.AddCommand(
		&cobra.Command{
			Use:   "list",
			Short: "List the exercises",
			Args:  cobra.NoArgs,
			RunE:  notBuilt,
		},
		&cobra.Command{
			Use:   "show ID",
			Short: "Print exercise ID's statement",
			Args:  cobra.ExactArgs(1),
			RunE:  notBuilt,
		},
		start,
		&cobra.Command{
			Use:   "lint [DIR...]",
			Short: "Check an exercise pack (exit 1 on findings)",
			RunE:  notBuilt,
		},
	)

	return []*cobra.Command{lesson, lessons, grade, exercise}
}
