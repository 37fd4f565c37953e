package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/tui"
)

// labFlags adds the flags of the commands that open the terminal lab.
func (c *cli) labFlags(cmd *cobra.Command) {
	c.tuiFlags(cmd)
	d, fs := c.defaults, cmd.Flags()
	fs.Int64("seed", d.Seed, "seed `N` of the source log and every random choice")
	fs.String("executor", d.Executor, "what runs the nodes: deterministic or concurrent")
	fs.String("db", d.DB, "keep the table sink's SQLite database at `PATH`")
}

// tuiFlags adds the terminal lab's look-and-feel flags.
func (c *cli) tuiFlags(cmd *cobra.Command) {
	d, fs := c.defaults, cmd.Flags()
	fs.String("theme", d.Theme, "color theme: default or mono")
	fs.Bool("mouse", d.Mouse, "react to the mouse (--mouse=false turns it off)")
	fs.Float64("speed", d.Speed, "playback speed: virtual seconds per real second")
}

// labOptions are the terminal lab's: its flags are all configuration keys.
type labOptions struct {
	c     *cli
	flags *pflag.FlagSet
}

func (c *cli) labCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lab [JOB]",
		Short: "Open the sandbox with a job",
		Long: `Open the terminal lab straight into the sandbox with JOB, a built-in job
(default: the configuration key job, normally clicks).

Built-in jobs: ` + strings.Join(jobspec.Names(), ", ") + `.

Exit status: 0, or 2 for an unknown job.`,
		Args: cobra.MaximumNArgs(1),
	}
	o := &labOptions{c: c, flags: cmd.Flags()}
	cmd.RunE = runE(o.run)
	c.labFlags(cmd)
	return cmd
}

// runHome opens the terminal lab on its home screen.
func (o *labOptions) runHome(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, nil)
	if err != nil {
		return err
	}
	return o.c.runTUI(cfg, "")
}

// run opens the sandbox with the job args name, or the configured one.
func (o *labOptions) run(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, nil)
	if err != nil {
		return err
	}
	if len(args) == 1 {
		if _, ok := jobspec.Builtin(args[0]); !ok {
			return badInput(fmt.Errorf("unknown job %q, known: %s", args[0], strings.Join(jobspec.Names(), ", ")))
		}
		cfg.Job = args[0]
	}
	return o.c.runTUI(cfg, "lab:"+cfg.Job)
}

// runTUI opens the terminal lab with the configuration cfg. start says on
// which screen: "" for the home screen, "lab:JOB" for the sandbox with JOB,
// "lesson:ID" for lesson ID, "exercise:ID" for exercise ID.
//
// It is the one place where the Bubble Tea program starts.
func (c *cli) runTUI(cfg Config, start string) error {
	if !isTerminal(c.stdin) || !isTerminal(c.stdout) {
		return badInput(errors.New("the terminal lab needs a terminal, and standard input or output is not one; to run a lab script without a terminal, use `streamlab run`"))
	}
	opts := tui.Options{
		Theme: cfg.Theme, Mouse: cfg.Mouse, Speed: cfg.Speed, Job: cfg.Job,
		Executor: cfg.engineExecutor(), Seed: cfg.Seed, DB: cfg.DB, ConfigFile: cfg.File,
		Start: start,
	}
	if err := tui.Run(context.Background(), opts, c.stdin, c.stdout); err != nil {
		return failed(fmt.Errorf("terminal lab: %w", err))
	}
	return nil
}

// isTerminal reports whether f is a terminal: the lab draws on it and reads
// keys from it.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && isatty.IsTerminal(file.Fd())
}
