package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/exercises/report"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/userfile"
)

func (c *cli) gradeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "grade [EXERCISE...]",
		Short: "Grade exercise answers without a terminal (for CI)",
		Long: `Grade the answers in --answers DIR for each EXERCISE (all of them when
none is named) and write a report.

EXERCISE is an exercise ID of the pack (the built-in one, or --pack DIR), or
the directory of an instructor's exercise or pack. The answer to exercise
ID is read from DIR/ID/FILE when DIR has a directory ID, else from DIR/FILE,
where FILE is the exercise's answer file (streamlab exercise show ID).

Every exercise runs on the deterministic executor under its own seed, or
under --seed N (or STREAMLAB_SEED) when given, within its budget of records,
scheduler steps, window updates, rows written, window timers checked and
state held or copied into checkpoints (counts, not wall time): the same
answers and seed always give
the same grade, on any machine under any load. An answer that goes over the
budget scores zero on its exercise, naming the line; the exercise's
time_limit is only a guard against a grader bug, and exits 2 with no score. Each check scores its
points; a broken answer (malformed YAML, an unknown key, a missing file, a
line the engine rejects) scores zero on its exercise with a message naming
the file and line, and grading goes on.

Nothing in the report gives an answer away: a failed check says what is
wrong in words (wrong, outside the tolerance, which required effect is
missing; a prediction is too high or too low only when its exercise says
feedback: direction), never the expected value, in every format; a hidden
check shows only "hidden check N: pass" or "fail". --reveal (for the
instructor's own runs, never in students' CI) adds the expected values,
hidden checks' details and the seeds.

Per-student seeds: with the pack's secret (--secret, STREAMLAB_GRADE_SECRET,
or the file secret of the --hidden overlay) and a student ID (--student,
STREAMLAB_STUDENT, or GITHUB_REPOSITORY, which GitHub Classroom sets to the
student's own repository), each exercise's seed is HMAC-SHA256(secret,
exercise ID and student ID): predictions are judged for that seed, which
the report does not show. Configuration, script and recording answers are
graded under the exercise's seeds (3 unless its seeds key says otherwise),
and a check scores only if it holds under every one.

--class DIR grades a whole class: DIR holds one subdirectory of answers per
student, named by the student's ID (the student for per-student seeds when
there is a secret). --format csv writes a gradebook, a row per student with
each exercise's score; text and json work too. --student-prefix P makes
each student's ID P and the folder's name: GitHub Classroom's CI grades
under GITHUB_REPOSITORY, "org/assignment-login", so a class cloned into
folders named "assignment-login" needs --student-prefix org/ for the
gradebook to use the seeds each student's CI used. Students are graded in
parallel, one per processor; the report is the same as one after another.
The report is always written: a cell whose grading broke (the wall-time
guard) reads "error", and the exit status is then 2.

--attempt N says this is the student's N-th graded submission, as the CI
counts them (Gradescope: the previous submissions in
submission_metadata.json, plus one); a prediction past its exercise's
attempts (1 unless its attempts key says otherwise) scores zero with that
reason, since the feedback on each attempt tells something of the answer.
Without --attempt nothing is counted.

--hidden DIR is the instructor's private overlay: DIR/ID/checks.yaml adds
hidden checks to exercise ID, and DIR/secret holds the secret.

Formats: text (a table), json (the full result), junit (JUnit XML), tap
(TAP version 13), gradescope (Gradescope's results.json), classroom (GitHub
Classroom's autograding result).

Exit status: 0 when all pass, 1 when some fail (a broken answer fails its
exercise), 2 for misuse: bad flags, a broken exercise pack.`,
	}
	d, fs := c.defaults, cmd.Flags()
	o := &gradeOptions{c: c, flags: fs}
	fs.StringVar(&o.answers, "answers", ".", "read the answers from `DIR`")
	fs.String("format", d.Format, "report format: text, json, junit, tap, gradescope or classroom; csv with --class")
	seedOverrideFlag(fs, d.Seed)
	fs.StringVar(&o.out, "out", "", "write the report to `FILE` instead of standard output")
	fs.StringVar(&o.packDir, "pack", "", "grade the exercises of the pack in `DIR` instead of the built-in ones")
	fs.BoolVar(&o.reveal, "reveal", false, "add the expected values, hidden checks' details and seeds (for the instructor)")
	fs.StringVar(&o.student, "student", "", "derive this student's seeds from the secret (default $STREAMLAB_STUDENT or $GITHUB_REPOSITORY)")
	fs.StringVar(&o.secret, "secret", "", "the pack's secret for per-student seeds (default $STREAMLAB_GRADE_SECRET)")
	fs.StringVar(&o.hidden, "hidden", "", "add the hidden checks and secret of the instructor's overlay in `DIR`")
	fs.StringVar(&o.class, "class", "", "grade every student: `DIR` holds a subdirectory of answers per student")
	fs.IntVar(&o.attempt, "attempt", 0, "this is submission `N` (from the CI's count): predictions past their exercise's attempts are not graded")
	fs.StringVar(&o.prefix, "student-prefix", "", "with --class, each student's ID is `P` and the folder's name (\"org/\" for GitHub Classroom repositories)")
	cmd.RunE = runE(o.run)
	return cmd
}

// gradeOptions are `streamlab grade`'s flags that are not configuration
// keys; format and seed are read through the configuration (cli.load).
type gradeOptions struct {
	c       *cli
	flags   *pflag.FlagSet
	answers string
	out     string
	packDir string
	reveal  bool
	student string
	secret  string
	hidden  string
	class   string
	attempt int
	prefix  string
}

// run grades the answers to the exercises args name (every one when none)
// and writes the report: one student's, or with --class a class's.
func (o *gradeOptions) run(ctx context.Context, args []string) (retErr error) {
	cfg, err := o.c.load(o.flags, gradeFormats)
	if err != nil {
		return err
	}
	exs, opts, err := o.exercises(cfg, args)
	if err != nil {
		return err
	}
	if o.prefix != "" && o.class == "" {
		return badInput(errors.New("--student-prefix names the students of --class DIR; give --student for one"))
	}
	if o.class != "" {
		return o.gradeClass(ctx, exs, cfg.Format, opts)
	}
	if cfg.Format == "csv" {
		return badInput(errors.New("--format csv is the gradebook of a class: give --class DIR"))
	}
	opts.Student, opts.Secret, err = studentSeeds(o.student, o.secret, opts.Secret)
	if err != nil {
		return err
	}
	res, err := grade.All(ctx, exs, o.answers, opts)
	switch {
	case errors.Is(err, grade.ErrInterrupted):
		interrupted := err // the report so far is still written
		defer func() { retErr = interrupted }()
	case errors.Is(err, engine.ErrInternal):
		return internalError(err)
	case errors.Is(err, grade.ErrBrokenPack):
		return err
	case err != nil:
		return failed(err)
	}
	if err := o.write(cfg.Format, res); err != nil {
		return err
	}
	return notPassed(res)
}

// exercises selects the exercises args name, with the hidden checks of
// --hidden, after checking the flags they are graded with, and returns
// the options to grade them under.
func (o *gradeOptions) exercises(cfg Config, args []string) ([]*pack.Exercise, grade.Options, error) {
	var opts grade.Options
	exs, err := selectExercises(o.packDir, args)
	if err != nil {
		return nil, opts, err
	}
	if err := checkDir(o.answers, "--answers"); err != nil {
		return nil, opts, err
	}
	if o.attempt < 0 {
		return nil, opts, badInput(fmt.Errorf("--attempt %d: expected a submission number from 1", o.attempt))
	}
	opts = grade.Options{Seed: cfg.seedOverride(), Reveal: o.reveal, Attempt: o.attempt}
	if o.hidden == "" {
		return exs, opts, nil
	}
	p, err := loadPack(o.packDir)
	if err != nil {
		return nil, opts, err
	}
	ov, err := pack.ReadOverlay(p, o.hidden)
	if err != nil {
		return nil, opts, badInput(fmt.Errorf("--hidden: %w", err))
	}
	opts.Secret = ov.Secret
	return ov.Apply(exs), opts, nil
}

// write writes the report of res in format to --out, or standard output.
func (o *gradeOptions) write(format string, res *grade.Result) error {
	var buf bytes.Buffer
	if err := report.Write(&buf, format, res); err != nil {
		return badInput(err)
	}
	return o.c.writeReport(o.out, buf.Bytes())
}

// writeReport writes a finished report to the file out, or to standard
// output when out is empty.
func (c *cli) writeReport(out string, data []byte) error {
	if out == "" {
		if _, err := c.stdout.Write(data); err != nil {
			return failed(err)
		}
		return nil
	}
	if err := writeFileAtomic(out, data); err != nil {
		return badInput(fmt.Errorf("--out %s: %w", out, err))
	}
	return nil
}

// notPassed is the exit-1 error of a grading where some exercise did not
// pass, nil when all did.
func notPassed(res *grade.Result) error {
	if res.Passed {
		return nil
	}
	n := 0
	for _, e := range res.Exercises {
		if !e.Passed {
			n++
		}
	}
	return failed(fmt.Errorf("%d of %d exercises did not pass (score %g/%g)", n, len(res.Exercises), res.Score, res.MaxScore))
}

// gradeFormats are grade's formats: the report formats, and csv for a
// class's gradebook.
var gradeFormats = append(append([]string{}, allFormats...), "csv")

// gradeClass grades every student's answers under --class, a
// subdirectory per student, and writes the class's report.
func (o *gradeOptions) gradeClass(ctx context.Context, exs []*pack.Exercise, format string, opts grade.Options) error {
	dir := o.class
	if o.student != "" {
		return badInput(errors.New("--class grades every student; --student names one"))
	}
	if format != "text" && format != "json" && format != "csv" {
		return badInput(fmt.Errorf("--class writes text, json or csv, not %s", format))
	}
	if err := checkDir(dir, "--class"); err != nil {
		return err
	}
	if secret := cmp.Or(o.secret, os.Getenv("STREAMLAB_GRADE_SECRET")); secret != "" {
		opts.Secret = secret
	}
	names, err := studentDirs(dir)
	if err != nil {
		return err
	}
	graded := gradeStudents(ctx, exs, dir, o.prefix, names, opts)
	var students []report.Student
	var interrupted error
	var broke []string // student: exercises whose grading broke
	passed := true
	for i, g := range graded {
		name := names[i]
		switch err := g.err; {
		case errors.Is(err, grade.ErrInterrupted):
			interrupted = fmt.Errorf("%w (at student %s; the students after are not in the report)", err, untrusted.Quote(name, 200))
		case errors.Is(err, engine.ErrInternal) && g.res != nil:
			// One answer that breaks grading (the wall-time guard) must
			// not keep the class's gradebook from being written: its cell
			// is marked, and the exit status says grading was not whole.
			broke = append(broke, fmt.Sprintf("%s (%s)", untrusted.Quote(name, 200), brokenExercises(g.res)))
		case errors.Is(err, engine.ErrInternal):
			return internalError(err)
		case errors.Is(err, grade.ErrBrokenPack):
			return err
		case err != nil:
			return failed(err)
		}
		if interrupted != nil {
			break
		}
		passed = passed && g.res.Passed
		students = append(students, report.Student{ID: name, Result: g.res})
	}
	if len(students) == 0 {
		return badInput(fmt.Errorf("--class %s: no student directories in it", dir))
	}
	data, err := classReport(format, students)
	if err != nil {
		return failed(err)
	}
	if err := o.c.writeReport(o.out, data); err != nil {
		return err
	}
	if interrupted != nil {
		return interrupted
	}
	if len(broke) > 0 {
		return internalError(fmt.Errorf("%w: grading broke for %s; the report is written with those exercises marked as errors", engine.ErrInternal, strings.Join(broke, "; ")))
	}
	if !passed {
		return failed(fmt.Errorf("not every student passed every exercise"))
	}
	return nil
}

// studentDirs are the students' directories in dir, by name: every
// subdirectory but those starting with . or _.
func studentDirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, badInput(fmt.Errorf("--class %s: %w", dir, err))
	}
	var names []string
	for _, de := range entries {
		name := de.Name()
		if de.IsDir() && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") {
			names = append(names, name)
		}
	}
	return names, nil
}

// brokenExercises lists the exercises of res whose grading broke.
func brokenExercises(res *grade.Result) string {
	var ids []string
	for _, e := range res.Exercises {
		if e.Internal {
			ids = append(ids, e.ID)
		}
	}
	return strings.Join(ids, ", ")
}

// classReport is the class's report in format: a csv gradebook, json or
// a text table.
func classReport(format string, students []report.Student) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "csv":
		err = report.Gradebook(&buf, students)
	case "json":
		err = report.ClassJSON(&buf, students)
	default:
		err = report.ClassText(&buf, students)
	}
	return buf.Bytes(), err
}

// graded is one student's grading.
type graded struct {
	res *grade.Result
	err error
}

// gradeStudents grades each student's answers under dir, as many at once as
// there are processors: each grading is deterministic and independent of the
// others, so the results, kept in the order of names, are those of grading
// one after another.
func gradeStudents(ctx context.Context, exs []*pack.Exercise, dir, prefix string, names []string, opts grade.Options) []graded {
	out := make([]graded, len(names))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, name := range names {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			o := opts
			if o.Secret != "" {
				o.Student = prefix + name
			}
			out[i].res, out[i].err = grade.All(ctx, exs, filepath.Join(dir, name), o)
		}()
	}
	wg.Wait()
	return out
}

// studentSeeds resolves the student and the secret from the flags, the
// overlay's secret and the environment. A student named on the command line
// needs a secret; one taken from the environment is ignored without one (CI
// sets GITHUB_REPOSITORY whether or not the instructor uses seeds).
func studentSeeds(student, secret, overlay string) (string, string, error) {
	if secret == "" {
		secret = os.Getenv("STREAMLAB_GRADE_SECRET")
	}
	if secret == "" {
		secret = overlay
	}
	if student != "" {
		if secret == "" {
			return "", "", badInput(errors.New("--student needs the pack's secret: --secret, STREAMLAB_GRADE_SECRET or the secret file of --hidden"))
		}
		return student, secret, nil
	}
	if secret == "" {
		return "", "", nil
	}
	for _, env := range []string{"STREAMLAB_STUDENT", "GITHUB_REPOSITORY"} {
		if v := strings.TrimSpace(os.Getenv(env)); v != "" {
			return v, secret, nil
		}
	}
	return "", secret, nil
}

// loadPack loads the pack in dir, or the built-in pack when dir is empty.
// A pack with problems is bad input: each problem is listed.
func loadPack(dir string) (*pack.Pack, error) {
	var p *pack.Pack
	var err error
	if dir == "" {
		p, err = exercises.Builtin()
	} else {
		p, err = pack.LoadDir(dir)
	}
	if err != nil {
		var probs pack.Problems
		if errors.As(err, &probs) {
			return nil, badInput(fmt.Errorf("the exercise pack has problems (streamlab exercise lint %s):\n%v", dir, err))
		}
		return nil, badInput(err)
	}
	return p, nil
}

// selectExercises returns the exercises args name: IDs in the pack in
// packDir (the built-in pack when empty), or directories of an exercise or a
// pack. No args selects every exercise of the pack.
func selectExercises(packDir string, args []string) ([]*pack.Exercise, error) {
	p, err := loadPack(packDir)
	if len(args) == 0 || err != nil {
		if err != nil {
			return nil, err
		}
		return p.Exercises, nil
	}
	var out []*pack.Exercise
	for _, a := range args {
		if ex, lerr := p.Lookup(a); lerr == nil {
			out = append(out, ex)
			continue
		}
		if st, serr := os.Stat(a); serr == nil && st.IsDir() {
			q, err := loadPack(a)
			if err != nil {
				return nil, err
			}
			out = append(out, q.Exercises...)
			continue
		}
		_, lerr := p.Lookup(a)
		if strings.ContainsAny(a, `/\`) {
			return nil, badInput(fmt.Errorf("%s: no such exercise directory", a))
		}
		return nil, lerr // pack.ErrNoExercise: bad input (exitFor)
	}
	return out, nil
}

// checkDir fails unless dir is a directory; flag names it in the message.
func checkDir(dir, flag string) error {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return badInput(fmt.Errorf("%s %s: no such directory", flag, dir))
	case !st.IsDir():
		return badInput(fmt.Errorf("%s %s: not a directory", flag, dir))
	}
	return nil
}

// writeFileAtomic writes data to path through a temporary sibling and a
// rename, so that a reader never sees half a report; a file replaced keeps
// its permissions (userfile.Write).
func writeFileAtomic(path string, data []byte) error {
	return userfile.WriteFile(path, true, 0o644, data)
}

// seedOverrideFlag adds --seed N, which overrides every exercise's own
// seed. Without it each exercise runs under its own seed (or a student's),
// never the configuration's default, so the help shows no default.
func seedOverrideFlag(fs *pflag.FlagSet, def int64) {
	fs.Int64("seed", def, "seed `N` of every run, overriding each exercise's own (default: each exercise's own seed)")
	fs.Lookup("seed").DefValue = "0"
}
