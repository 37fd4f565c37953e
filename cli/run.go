package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/engine/table"
	"github.com/streamlab/streamlab/tui"
	"github.com/streamlab/streamlab/tui/chart"
)

func (c *cli) runCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run [FILE|-]",
		Short: "Run a lab script headless and print its report",
		Long: `Run the lab script FILE (or standard input, for - or no FILE) without the
terminal lab, and print the report to standard output.

--seed overrides the script's "set seed" (so does STREAMLAB_SEED); a seed in
the configuration file does not.

--charts prints the run's charts as text after the report, for handouts and
slides: the false-positive rate against the ids offered (with a Bloom filter)
and delivered, duplicates and lost over virtual time with the kills, restarts
and checkpoints, as the terminal lab draws them; in ASCII on a plain terminal
(TERM=dumb). With --format json they go to standard error.

Exit status: 0 when every expect holds; 1 when one fails, when the job
failed (unless the script expects job.state) or could not start; 2 for bad
input (bad flags, an unreadable file, an invalid script), an interrupted
run or an internal error.`,
		Args: cobra.MaximumNArgs(1),
	}
	d, fs := c.defaults, cmd.Flags()
	o := &runOptions{c: c, flags: fs}
	fs.String("format", d.Format, "report format: text or json")
	fs.Int64("seed", d.Seed, "seed `N` of the source log and every random choice (overrides the script's)")
	fs.String("db", d.DB, "keep the table sink's SQLite database at `PATH`")
	fs.String("executor", d.Executor, "what runs the nodes: deterministic or concurrent")
	fs.StringVar(&o.dump, "dump-source", "", "write the source log as JSON Lines to `FILE`")
	fs.BoolVar(&o.force, "force", false, "let --dump-source replace a file that exists, and --db use a database streamlab did not make")
	fs.BoolVar(&o.charts, "charts", false, "after the report, print the run's charts as text")
	fs.StringArrayVar(&o.explain, "explain", nil, "after the report, explain sink row `KEY`: "+script.RowUsage+"; repeatable")
	cmd.RunE = runE(o.run)
	return cmd
}

// runOptions are `streamlab run`'s flags that are not configuration keys;
// those are read through the configuration (cli.load).
type runOptions struct {
	c       *cli
	flags   *pflag.FlagSet
	dump    string
	force   bool
	charts  bool
	explain []string
}

// run runs the lab script args name (standard input for none or -) and
// prints its report, and the charts and explanations asked for.
func (o *runOptions) run(ctx context.Context, args []string) error {
	c := o.c
	cfg, err := c.load(o.flags, reportFormats)
	if err != nil {
		return err
	}
	name := "-"
	if len(args) == 1 {
		name = args[0]
	}
	src, err := c.readScript(name, len(args) == 0)
	if err != nil {
		return badInput(err)
	}
	if o.force && cfg.DB != "" {
		// --db refuses a file streamlab did not make (its tables
		// would be dropped); --force says the user means it.
		if err := table.Adopt(cfg.DB); err != nil {
			return badInput(fmt.Errorf("--db: %w", err))
		}
	}
	opts := lab.Options{DBPath: cfg.DB, DumpSource: o.dump, Force: o.force, Executor: cfg.engineExecutor(), Log: c.stdout}
	if cfg.Format == "json" {
		opts.Log = c.stderr // standard output carries one JSON object
	}
	opts.Seed = cfg.seedOverride()
	rows, err := parseRows(o.explain)
	if err != nil {
		return badInput(err)
	}
	opts.Explain = rows
	stopLimit := limitRunHeap()
	res, err := lab.RunScript(ctx, name, src, opts)
	stopLimit()
	rep, why := res.Report, explainedRows(res)
	if rep != nil && cfg.DB != "" && rep.Config.Sink != string(engine.SinkTable) {
		fmt.Fprintf(c.stderr, "streamlab: note: the database %s was not written: --db keeps the table sink's database, and this script uses the %s sink (set sink table)\n", cfg.DB, rep.Config.Sink)
	}
	runErr := finishRun(c.stdout, cfg.Format, rep, err)
	if len(rows) > 0 && rep != nil {
		out := c.stdout
		if cfg.Format == "json" {
			out = c.stderr // standard output carries one JSON object
		}
		fmt.Fprint(out, "\n"+why.text)
		if why.err != nil {
			runErr = badInput(fmt.Errorf("--explain: %w", why.err))
		}
	}
	if o.charts && rep != nil {
		out := c.stdout
		if cfg.Format == "json" {
			out = c.stderr // standard output carries one JSON object
		}
		drawn := chart.Text(rep, res.Filter, res.Timeline, tui.PlainTerminal())
		if drawn == "" {
			drawn = "no charts: the run has no Bloom filter and its ledger committed nothing\n"
		}
		fmt.Fprint(out, "\n"+drawn)
	}
	return runErr
}

// readScript reads the lab script name ("-" for standard input). implicit
// says the user gave no FILE at all: then a terminal on standard input is an
// error rather than a silent wait for typing.
func (c *cli) readScript(name string, implicit bool) ([]byte, error) {
	if name == "-" {
		if f, ok := c.stdin.(*os.File); ok && implicit && isatty.IsTerminal(f.Fd()) {
			return nil, errors.New("no lab script: give a FILE, or pipe one in (use - to type it on the terminal)")
		}
		return readCapped(c.stdin, "standard input")
	}
	f, err := os.Open(name)
	if err == nil {
		defer f.Close()
		var st os.FileInfo
		if st, err = f.Stat(); err == nil && st.IsDir() {
			err = errors.New("is a directory")
		}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot read lab script: %w", name, err)
	}
	return readCapped(f, name)
}

// maxScriptBytes bounds a lab script: the parser takes at most MaxLines
// lines of MaxLineBytes, so anything longer is refused while it is read,
// as is a line longer than MaxLineBytes (a script named /dev/zero must
// cost a few kilobytes, not the memory).
const maxScriptBytes = script.MaxLines * (script.MaxLineBytes + 2)

// readCapped reads r, named name in messages, up to maxScriptBytes, and
// stops at the first line too long for the parser.
func readCapped(r io.Reader, name string) ([]byte, error) {
	var out []byte
	buf := make([]byte, 32<<10)
	line, lineLen := 1, 0
	for {
		n, err := r.Read(buf)
		for _, b := range buf[:n] {
			if b == '\n' {
				line, lineLen = line+1, 0
				continue
			}
			if lineLen++; lineLen > script.MaxLineBytes+1 { // +1: a \r before the \n
				return nil, fmt.Errorf("%s:%d: line is longer than %d bytes; a lab script line is at most %d", name, line, script.MaxLineBytes, script.MaxLineBytes)
			}
		}
		out = append(out, buf[:n]...)
		if len(out) > maxScriptBytes {
			return nil, fmt.Errorf("%s: a lab script has at most %d lines of %d bytes; this one is longer than %d bytes", name, script.MaxLines, script.MaxLineBytes, maxScriptBytes)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read lab script: %w", name, err)
		}
	}
}

// checksState reports whether the script expects something of job.state
// itself: a script that expects the job to fail succeeds when it does.
func checksState(rep *report.Report) bool {
	for _, e := range rep.Expectations {
		if strings.Contains(e.Expr, "job.state") {
			return true
		}
	}
	return false
}

// finishRun prints the report rep (when there is one) in format and turns
// the outcome of a run into the command's error: nil when every expect held;
// exit 2 for bad input; exit 1 for a failed expect or any other error.
func finishRun(w io.Writer, format string, rep *report.Report, runErr error) error {
	if rep != nil {
		var err error
		switch format {
		case "json":
			err = rep.WriteJSON(w)
		default:
			err = rep.WriteText(w)
		}
		if err != nil {
			return failed(fmt.Errorf("writing the report: %w", err))
		}
	}
	switch {
	case errors.Is(runErr, engine.ErrInternal):
		return internalError(runErr)
	case errors.Is(runErr, lab.ErrInterrupted):
		return badInput(fmt.Errorf("%w: the report above is what the run had done", runErr))
	case errors.Is(runErr, lab.ErrBadInput):
		return badInput(runErr)
	case runErr != nil:
		return failed(runErr)
	case rep == nil:
		return failed(errors.New("the script produced no report"))
	}
	if rep.ExpectationsHold() {
		if engine.JobStateOf(rep.Job) == engine.StateFailed && !checksState(rep) {
			return failed(fmt.Errorf("the job failed: %s", rep.Job.Error))
		}
		return nil
	}
	var bad []report.Expectation
	for _, e := range rep.Expectations {
		if !e.OK {
			bad = append(bad, e)
		}
	}
	first := bad[0]
	msg := fmt.Sprintf("expect on line %d failed: %s (actual %s)", first.Line, first.Expr, first.Actual)
	if len(bad) > 1 {
		msg += fmt.Sprintf("; %d of %d expects failed", len(bad), len(rep.Expectations))
	}
	return failed(errors.New(msg))
}

// parseRows reads the --explain rows before anything runs, so that a
// mistyped one costs no run.
func parseRows(keys []string) ([]script.Row, error) {
	rows := make([]script.Row, 0, len(keys))
	for _, k := range keys {
		row, err := script.ParseRow(k)
		if err != nil {
			return nil, fmt.Errorf("--explain %q: %w", k, err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// explained is what --explain found: the explanations, and the first row
// the run has no such row for.
type explained struct {
	text string
	err  error
}

// explainedRows is the text of the rows the finished run explained, as
// `why` writes it, and the engine's refusal that stopped them.
func explainedRows(res lab.Result) explained {
	e := explained{err: res.ExplainErr}
	for _, p := range res.Explained {
		e.text += p.Text()
	}
	return e
}
