package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/lint"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/report"
	"github.com/streamlab/streamlab/exercises/watch"
	"github.com/streamlab/streamlab/internal/userfile"
)

func (c *cli) exerciseCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "exercise list|show|start|lint|test|watch|init",
		Short: "Browse exercises, open one in the lab, or check an exercise pack",
		Long: `Browse the exercises, open one in the terminal lab, check an instructor's
exercise pack, re-grade an answer whenever it is saved, or copy the starter
files to work on.

Exit status: 0, 1 for lint findings or a score off, 2 for bad input.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return badInput(fmt.Errorf("exercise needs a subcommand: list, show, start, lint, test, watch or init"))
		},
	}
	cmd.AddCommand(c.exerciseListCmd(), c.exerciseShowCmd(), c.exerciseStartCmd(), c.exerciseLintCmd(),
		c.exerciseWatchCmd(), c.exerciseInitCmd(), c.exerciseTestCmd())
	return cmd
}

// packOptions are the flags of the exercise commands that read a pack and
// nothing else: --pack, and the configuration (start reads it).
type packOptions struct {
	c       *cli
	flags   *pflag.FlagSet
	packDir string
}

func (c *cli) exerciseStartCmd() *cobra.Command {
	start := &cobra.Command{
		Use:   "start ID",
		Short: "Open exercise ID in the terminal lab (--pack DIR for an instructor's)",
		Args:  cobra.ExactArgs(1),
	}
	o := &packOptions{c: c, flags: start.Flags()}
	packFlag(start, &o.packDir)
	start.RunE = runE(o.start)
	c.tuiFlags(start)
	return start
}

// start opens exercise args[0] in the terminal lab.
func (o *packOptions) start(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, nil)
	if err != nil {
		return err
	}
	if o.packDir != "" {
		p, err := loadPack(o.packDir)
		if err != nil {
			return err
		}
		exercises.Use(p)
		defer exercises.Use(nil)
	}
	if _, err := exercises.Lookup(args[0]); err != nil {
		return badInput(err)
	}
	return o.c.runTUI(cfg, "exercise:"+args[0])
}

// packFlag adds --pack DIR to cmd, bound to dir.
func packFlag(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "pack", "", "use the exercise pack in `DIR` instead of the built-in one")
}

func (c *cli) exerciseListCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the exercises",
		Args:  cobra.NoArgs,
	}
	o := &packOptions{c: c, flags: cmd.Flags()}
	packFlag(cmd, &o.packDir)
	cmd.RunE = runE(o.list)
	return cmd
}

// list prints the pack's exercises, a row each.
func (o *packOptions) list(ctx context.Context, args []string) error {
	p, err := loadPack(o.packDir)
	if err != nil {
		return err
	}
	idw, kindw := len("ID"), len("KIND")
	for _, e := range p.Exercises {
		idw, kindw = max(idw, len(e.ID)), max(kindw, len(e.Kind))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %6s  %s\n", idw, "ID", kindw, "KIND", "POINTS", "TITLE")
	for _, e := range p.Exercises {
		fmt.Fprintf(&b, "%-*s  %-*s  %6g  %s\n", idw, e.ID, kindw, e.Kind, e.MaxPoints(), e.Title)
	}
	_, err = fmt.Fprint(o.c.stdout, b.String())
	return err
}

func (c *cli) exerciseShowCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print exercise ID's statement",
		Args:  cobra.ExactArgs(1),
	}
	o := &packOptions{c: c, flags: cmd.Flags()}
	packFlag(cmd, &o.packDir)
	cmd.RunE = runE(o.show)
	return cmd
}

// show prints exercise args[0]'s statement.
func (o *packOptions) show(ctx context.Context, args []string) error {
	p, err := loadPack(o.packDir)
	if err != nil {
		return err
	}
	e, err := p.Lookup(args[0])
	if err != nil {
		return err // pack.ErrNoExercise: bad input (exitFor)
	}
	_, err = fmt.Fprint(o.c.stdout, showText(e))
	return err
}

// showText is an exercise as `exercise show` prints it: its facts, its
// task, its scenario and its visible checks.
func showText(e *pack.Exercise) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n\n", e.ID, e.Title)
	fmt.Fprintf(&b, "kind        %s\n", e.Kind)
	if e.Topic != "" {
		fmt.Fprintf(&b, "topic       %s\n", e.Topic)
	}
	fmt.Fprintf(&b, "job         %s\n", e.Job)
	if e.Kind == pack.KindPrediction {
		fmt.Fprintf(&b, "seed        %d (or your own, from your instructor's secret)\n", e.Seed)
	} else {
		fmt.Fprintf(&b, "seeds       %d, from %d (every check must hold under each)\n", e.Seeds, e.Seed)
	}
	fmt.Fprintf(&b, "budget      %d records, %d scheduler steps per run\n", e.Budget.Records, e.Budget.Steps)
	fmt.Fprintf(&b, "answer      %s (streamlab exercise init %s copies the starter)\n", e.Answer, e.ID)
	if len(e.Allow) > 0 {
		fmt.Fprintf(&b, "may set     %s\n", strings.Join(e.Allow, ", "))
	}
	fmt.Fprintf(&b, "points      %g\n\n", e.MaxPoints())
	b.WriteString(strings.TrimRight(e.Task, "\n"))
	b.WriteString("\n")
	if strings.TrimSpace(e.ScenarioText) != "" {
		b.WriteString("\nScenario:\n")
		for _, l := range strings.Split(strings.TrimRight(e.ScenarioText, "\n"), "\n") {
			fmt.Fprintf(&b, "    %s\n", l)
		}
	}
	b.WriteString("\nChecks:\n")
	for _, ch := range e.Checks {
		what := ch.Expect
		if ch.Answer != "" {
			what = "answer " + ch.Answer
		}
		name := ch.Name
		if ch.Visibility == pack.Hidden {
			what, name = "hidden", "a hidden check"
		}
		fmt.Fprintf(&b, "    %-4g %s (%s)\n", ch.Points, name, what)
	}
	return b.String()
}

func (c *cli) exerciseLintCmd() *cobra.Command {
	o := &lintOptions{c: c}
	cmd := &cobra.Command{
		Use:   "lint [DIR...]",
		Short: "Check an exercise pack (exit 1 on findings)",
		Long: `Check the exercise pack in each DIR (the built-in pack when none is given):
the format of every exercise.yaml, the files each exercise names, its
scenario and its checks, and then a dry run of each exercise with its starter
answer, all in one run. Every problem is printed as FILE:LINE:COLUMN:
message; a clean pack prints one line saying so. A job-file exercise's
scenario may name nodes the starter job does not have yet (adding them is
the task): it is tried with the reference answer of the pack's
ID/tests/tests.yaml instead, when there is one. With
--hidden DIR, the instructor's private overlay too: its checks, and a dry
run of every exercise it adds hidden checks to.

Exit status: 0 when the pack is clean, 1 when there are findings, 2 when a
DIR cannot be read.`,
		RunE: runE(o.run),
	}
	cmd.Flags().StringVar(&o.hidden, "hidden", "", "lint the instructor's private overlay in `DIR` with the pack")
	return cmd
}

// lintOptions are `exercise lint`'s flags.
type lintOptions struct {
	c      *cli
	hidden string
}

// linted is what a lint found: the findings, the suggestions and how many
// exercises it checked.
type linted struct {
	findings  []*lint.Finding
	notes     []string
	exercises int
}

// run lints the packs in the directories args, or the built-in pack.
func (o *lintOptions) run(ctx context.Context, args []string) error {
	var r linted
	if len(args) == 0 {
		if err := o.lintBuiltin(ctx, &r); err != nil {
			return err
		}
	}
	for _, dir := range args {
		if err := o.lintDir(ctx, dir, &r); err != nil {
			return err
		}
	}
	fmt.Fprint(o.c.stdout, r.text())
	if len(r.findings) > 0 {
		return failed(fmt.Errorf("%d problem(s) found", len(r.findings)))
	}
	return nil
}

// lintBuiltin lints the built-in pack into r.
func (o *lintOptions) lintBuiltin(ctx context.Context, r *linted) error {
	p, err := exercises.Builtin()
	if p == nil {
		return failed(err)
	}
	fs, err := lint.Pack(ctx, p, err)
	if err != nil {
		return failed(err)
	}
	r.findings = fs
	return o.overlay(ctx, p, r)
}

// lintDir lints the pack in dir into r.
func (o *lintOptions) lintDir(ctx context.Context, dir string, r *linted) error {
	fs, err := lint.Dir(ctx, dir)
	if err != nil {
		if ctx.Err() != nil {
			return failed(err)
		}
		return badInput(err)
	}
	r.findings = append(r.findings, fs...)
	if p, _ := pack.LoadDir(dir); p != nil {
		return o.overlay(ctx, p, r)
	}
	return nil
}

// overlay counts p's exercises and suggestions into r, and lints the
// --hidden overlay with p.
func (o *lintOptions) overlay(ctx context.Context, p *pack.Pack, r *linted) error {
	r.exercises += len(p.Exercises)
	r.notes = append(r.notes, lint.Suggestions(p)...)
	if o.hidden == "" {
		return nil
	}
	fs, err := lint.Overlay(ctx, p, o.hidden)
	if err != nil {
		if ctx.Err() != nil {
			return failed(err)
		}
		return badInput(fmt.Errorf("--hidden: %w", err))
	}
	r.findings = append(r.findings, fs...)
	return nil
}

// text is the lint's output: each finding, each note, or that the packs
// are clean.
func (r *linted) text() string {
	var b strings.Builder
	for _, f := range r.findings {
		fmt.Fprintln(&b, f.Error())
	}
	for _, n := range r.notes {
		fmt.Fprintln(&b, "note: "+n)
	}
	if len(r.findings) == 0 {
		fmt.Fprintf(&b, "%d exercises checked, with a dry run each: no problems found\n", r.exercises)
	}
	return b.String()
}

func (c *cli) exerciseWatchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "watch [ID...]",
		Short: "Re-grade an answer whenever it is saved (stop with Ctrl-C)",
		Long: `Grade the answers in --answers DIR to each exercise ID (all of them when
none is named), then grade again whenever an answer file is saved, until
Ctrl-C. Files are polled every --interval.

Exit status: 0 when stopped, 2 for bad input.`,
	}
	d, fs := c.defaults, cmd.Flags()
	o := &watchOptions{c: c, flags: fs}
	fs.StringVar(&o.answers, "answers", ".", "read the answers from `DIR`")
	seedOverrideFlag(fs, d.Seed)
	fs.DurationVar(&o.interval, "interval", 500*time.Millisecond, "how often to look at the answer files")
	packFlag(cmd, &o.packDir)
	cmd.RunE = runE(o.run)
	return cmd
}

// watchOptions are `exercise watch`'s flags; the seed is read through the
// configuration (cli.load).
type watchOptions struct {
	c        *cli
	flags    *pflag.FlagSet
	answers  string
	interval time.Duration
	packDir  string
}

// run grades the answers to the exercises args name, and again whenever
// one is saved, until ctx ends.
func (o *watchOptions) run(ctx context.Context, args []string) error {
	cfg, err := o.c.load(o.flags, nil)
	if err != nil {
		return err
	}
	if o.interval <= 0 {
		return badInput(fmt.Errorf("--interval must be above 0, got %s", o.interval))
	}
	exs, err := selectExercises(o.packDir, args)
	if err != nil {
		return err
	}
	if err := checkDir(o.answers, "--answers"); err != nil {
		return err
	}
	opts := grade.Options{Seed: cfg.seedOverride()}
	t := time.NewTicker(o.interval)
	defer t.Stop()
	err = o.c.watch(ctx, t.C, exs, o.answers, opts, nil)
	if err != nil && !errors.Is(err, grade.ErrBrokenPack) {
		return failed(err)
	}
	return err
}

// watch grades exs at the start and at every tick at which an answer file
// changed, printing a text report each time, until ctx is done. stat is
// the watcher's (nil: the file system's).
func (c *cli) watch(ctx context.Context, ticks <-chan time.Time, exs []*pack.Exercise, dir string, opts grade.Options, stat func(string) watch.Stamp) error {
	w := &watch.Watcher{
		Paths: func() []string {
			paths := make([]string, len(exs))
			for i, e := range exs {
				paths[i] = answer.Locate(e, dir)
			}
			return paths
		},
		Stat: stat,
		Grade: func(ctx context.Context, changed []string) error {
			res, err := grade.All(ctx, exs, dir, opts)
			if err != nil && (res == nil || !errors.Is(err, engine.ErrInternal)) {
				return err
			}
			// An exercise whose grading broke is marked in the report;
			// watching goes on, as the next save may grade.
			if len(changed) > 0 {
				fmt.Fprintf(c.stdout, "\n== %s changed\n", strings.Join(changed, ", "))
			}
			if err := report.Text(c.stdout, res); err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, "watching for changes; Ctrl-C stops")
			return nil
		},
	}
	return w.Run(ctx, ticks)
}

func (c *cli) exerciseInitCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init [ID...]",
		Short: "Copy exercises' tasks, starter answers, jobs and scenarios into a directory",
		Long: `Copy into DIR/ID/, the layout streamlab grade --answers DIR reads,
everything an answer to each exercise ID (all of them when none is named)
is tried against: the task (README.md), the starter answer, the exercise's
job file (and the events file it replays) when it has one, and, but for a
prediction, its scenario as scenario.lab, a script that runs the job as the
grader does:

    cat scenario.lab a.lab | streamlab run -         (a script)
    cat settings.lab scenario.lab | streamlab run -  (a configuration)

A pack's tests (reference and wrong answers) are never copied. It never
overwrites a file unless --force is given.

Exit status: 0, or 2 for bad input.`,
	}
	o := &initOptions{c: c}
	cmd.Flags().StringVar(&o.dir, "dir", ".", "copy into `DIR`")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite files that exist")
	packFlag(cmd, &o.packDir)
	cmd.RunE = runE(o.run)
	return cmd
}

// initOptions are `exercise init`'s flags.
type initOptions struct {
	c       *cli
	dir     string
	force   bool
	packDir string
}

// run copies the starter files of the exercises args name (every one when
// none) into --dir, a directory per exercise.
func (o *initOptions) run(ctx context.Context, args []string) error {
	exs, err := selectExercises(o.packDir, args)
	if err != nil {
		return err
	}
	for _, e := range exs {
		if err := o.copyStarter(e); err != nil {
			return err
		}
	}
	return nil
}

// copyStarter writes e's starter files into --dir/ID, naming each.
func (o *initOptions) copyStarter(e *pack.Exercise) error {
	files, err := starterFiles(e)
	if err != nil {
		return badInput(err)
	}
	sub := filepath.Join(o.dir, e.ID)
	if st, err := os.Lstat(sub); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return badInput(fmt.Errorf("%s is a symbolic link; streamlab writes only into a real directory under --dir", sub))
	}
	for _, f := range files {
		dst := filepath.Join(sub, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return badInput(err)
		}
		// Atomic, never through a link at dst, and only with --force
		// over a file that is there.
		if err := userfile.WriteFile(dst, o.force, 0o644, f.data); err != nil {
			return badInput(err)
		}
		fmt.Fprintln(o.c.stdout, dst)
	}
	return nil
}

// starterFile is one file exercise init writes.
type starterFile struct {
	name string // relative to the exercise's directory, with slashes
	data []byte
}

// scenarioName is the file exercise init writes an exercise's scenario to.
const scenarioName = "scenario.lab"

// starterFiles are the files a student's starter gets for e: the task, the
// starter answer, the job file with the events it replays, and the
// scenario as a script.
func starterFiles(e *pack.Exercise) ([]starterFile, error) {
	var out []starterFile
	seen := map[string]bool{}
	add := func(name string) error {
		if seen[name] {
			return nil
		}
		seen[name] = true
		data, err := e.ReadFile(name)
		if err != nil {
			return fmt.Errorf("%s: %w", e.FileName(name), err)
		}
		out = append(out, starterFile{name, data})
		return nil
	}
	for _, name := range []string{pack.TaskFile, e.Answer} {
		if err := add(name); err != nil {
			return nil, err
		}
	}
	job := "job " + e.Job
	if e.JobIsFile() {
		if err := add(e.Job); err != nil {
			return nil, err
		}
		job = "job " + path.Base(e.Job)
		if spec, err := jobspec.Parse(e.FileName(e.Job), out[len(out)-1].data); err == nil && spec.Source.File != "" && filepath.IsLocal(spec.Source.File) {
			if err := add(path.Join(path.Dir(e.Job), filepath.ToSlash(spec.Source.File))); err != nil {
				return nil, err
			}
		}
	}
	if e.Kind == pack.KindPrediction || strings.TrimSpace(e.ScenarioText) == "" || seen[scenarioName] {
		return out, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# The scenario of exercise %s, as the grader runs it (a copy: changing it\n", e.ID)
	b.WriteString("# changes nothing the grader does).\n")
	switch {
	case e.Kind == pack.KindConfiguration && strings.HasSuffix(e.Answer, ".lab"):
		fmt.Fprintf(&b, "# Try your answer: cat %s %s | streamlab run -\n", e.Answer, scenarioName)
	case e.Kind == pack.KindConfiguration:
		fmt.Fprintf(&b, "# Try your answer: streamlab run %s\n", scenarioName)
		job = "job " + e.Answer
	default:
		fmt.Fprintf(&b, "# Try your answer: cat %s %s | streamlab run -\n", scenarioName, e.Answer)
	}
	fmt.Fprintf(&b, "%s\n", job)
	b.WriteString(strings.TrimRight(e.ScenarioText, "\n") + "\n")
	out = append(out, starterFile{scenarioName, []byte(b.String())})
	return out, nil
}
