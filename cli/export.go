package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/engine/export"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/internal/userfile"
)

func (c *cli) exportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export SCRIPT --to pyflink|flink-sql|pyspark [--out DIR]",
		Short: "Write a lab script's job as a Flink or Spark program",
		Long: `Write the job, settings and failure schedule of the lab script SCRIPT (- for
standard input) as a program for a real engine: Flink ` + export.FlinkVersion + ` through PyFlink
(--to pyflink) or the SQL client (--to flink-sql), or Spark ` + export.SparkVersion + ` through
PySpark (--to pyspark). What cannot carry over as the lab does it (upstream
backup, active standby, a kill by node in Spark, ...) is said in a comment at
the top of the program.

The script is run in the lab first, only to learn the events its runs admit:
the program reads them from ` + export.EventsFile + `, the format of run --dump-source.
Export itself needs neither Java nor Python.

With --out DIR (created if missing) it writes there:
  JOB_pyflink.py | JOB_flink.sql | JOB_pyspark.py   the program (JOB: the job's name)
  ` + export.EventsFile + `                                      the events
  ` + export.ComposeFile + `                               (Flink targets) a cluster of one
                                                    JobManager and two TaskManagers
It refuses, before writing anything, when one of these files exists, unless
--force: then each is replaced whole (never written through a link).
Without --out it prints the program alone to standard output.

A Python program, when run, writes beside itself: its log sink's rows to
JOB_TARGET.out.jsonl or its table sink's to the SQLite database JOB_TARGET.db
(table results: window_start, window_end, key, value; or events), the kills'
marker files (JOB_pyflink.fired/) and Spark's input and checkpoint
(JOB_pyspark.work/); each run starts them afresh.

Exit status: 0 when written; 2 for bad input (bad flags, an unknown target, an
unreadable or invalid script, a file in the way, an unwritable DIR).`,
		Args: cobra.ExactArgs(1),
	}
	fs := cmd.Flags()
	o := &exportOptions{c: c, flags: fs}
	fs.StringVar(&o.to, "to", "", "the target: "+strings.Join(export.Targets, ", "))
	fs.StringVar(&o.out, "out", "", "write the program, its events and (Flink) a compose file into `DIR`")
	fs.BoolVar(&o.force, "force", false, "let --out replace files that exist")
	fs.Int64("seed", 0, "seed `N` of the source log (overrides the script's)")
	cmd.RunE = runE(o.run)
	return cmd
}

// exportOptions are `streamlab export`'s flags.
type exportOptions struct {
	c     *cli
	flags *pflag.FlagSet // for --seed, which overrides only when given
	to    string
	out   string
	force bool
}

// run writes the lab script args[0] as a program for the target engine.
func (o *exportOptions) run(ctx context.Context, args []string) error {
	if err := o.checkTarget(); err != nil {
		return err
	}
	seed, err := o.seed()
	if err != nil {
		return err
	}
	src, err := o.c.readScript(args[0], false)
	if err != nil {
		return badInput(err)
	}
	plan, err := export.Load(ctx, args[0], src, seed)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: nothing was written", lab.ErrInterrupted)
		}
		return badInput(err)
	}
	files, err := export.Files(plan, o.to)
	if err != nil {
		return badInput(err)
	}
	if o.out == "" {
		_, err := o.c.stdout.Write(files[0].Data)
		fmt.Fprintf(o.c.stderr, "streamlab: note: the program reads %s; use --out DIR to write it beside the program\n", export.EventsFile)
		return err
	}
	return writeExport(o.c, o.out, files, o.force)
}

// checkTarget refuses a missing or unknown --to.
func (o *exportOptions) checkTarget() error {
	if o.to == "" {
		return badInput(fmt.Errorf("export needs --to: %s", strings.Join(export.Targets, ", ")))
	}
	if !validTarget(o.to) {
		return badInput(fmt.Errorf("unknown target %q for --to; expected %s", o.to, strings.Join(export.Targets, ", ")))
	}
	return nil
}

// seed is --seed when it was given, nil when the script's own seed holds.
func (o *exportOptions) seed() (*int64, error) {
	f := o.flags.Lookup("seed")
	if !f.Changed {
		return nil, nil
	}
	n, err := lab.ParseSeed(f.Value.String())
	if err != nil {
		return nil, badInput(err)
	}
	return &n, nil
}

func validTarget(t string) bool {
	for _, x := range export.Targets {
		if x == t {
			return true
		}
	}
	return false
}

// writeExport writes files into dir: every path is checked before any is
// written, so a refusal leaves the directory as it was.
func writeExport(c *cli, dir string, files []export.File, force bool) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return badInput(fmt.Errorf("%s: --out must be a directory", dir))
	}
	if !force {
		var in []string
		for _, f := range files {
			if _, err := os.Lstat(filepath.Join(dir, f.Name)); err == nil {
				in = append(in, filepath.Join(dir, f.Name))
			}
		}
		if len(in) > 0 {
			return badInput(fmt.Errorf("%s: exists; use --force to replace it (nothing was written)", strings.Join(in, ", ")))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return badInput(fmt.Errorf("--out: %w", err))
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		if err := userfile.WriteFile(path, force, 0o644, f.Data); err != nil {
			if errors.Is(err, userfile.ErrExists) {
				return badInput(fmt.Errorf("%w; use --force to replace it", err))
			}
			return badInput(err)
		}
		fmt.Fprintln(c.stdout, path)
	}
	return nil
}
