// Package cli is streamlab's command line: the commands (cobra), the
// configuration (viper, decoded into Config) and the exit codes. It is
// wiring only; the work happens in engine, tui, lessons and exercises.
// The command in the repository root is a few lines that call Main.
//
// Exit codes:
//
//	0  success: the command did what was asked; for `run`, every expect held
//	1  failure: an expect failed, a job failed, an exercise failed its grade
//	2  bad input: bad flags or arguments, an unreadable or invalid file,
//	   an unknown job, lesson or exercise, a command that is not built yet
//
// Each command is an options struct, its flags bound to the fields, with a
// run method; exitFor turns what a run method returns into the exit code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/classroom"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/untrusted"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
)

// Build is what the linker stamps into the binary: the version and the
// commit it was built from. Empty fields fall back to the build information
// the Go toolchain records.
type Build struct {
	Version, Commit string
}

// Main runs streamlab with the command-line arguments args (without the
// program name) and returns the process's exit code. SIGINT and SIGTERM
// stop the command (see interruptible).
func Main(b Build, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	version, commit = b.Version, b.Commit
	ctx, stop := interruptible(context.Background(), stderr)
	code := run(ctx, args, stdin, stdout, stderr)
	stop()
	return code
}

// interruptible returns a context that SIGINT or SIGTERM cancels: the
// command stops at its next check (within a second), writes what it has
// and exits 2. A second signal exits 2 at once, for a command stuck where
// nothing checks (a read from a terminal, say).
func interruptible(parent context.Context, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "streamlab: %v: stopping; send it again to quit at once\n", s)
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "streamlab: %v: quitting\n", s)
			os.Exit(exitBadInput)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// exitError is an error that ends streamlab with a given exit code, for
// the errors whose code the command decides: its own (a bad flag value, a
// failed expect) and those whose code depends on where they came from.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// badInput wraps err as an exit-2 error.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// internalError wraps err, a failure of streamlab or of the machine rather
// than of the input, as an exit-2 error that says so.
func internalError(err error) error {
	return &exitError{code: exitBadInput, err: fmt.Errorf("%w (not a problem with your input)", err)}
}

// failed wraps err as an exit-1 error.
func failed(err error) error { return &exitError{code: exitFailed, err: err} }

// badInputKinds are the sentinels of errors that are bad input (or an
// interruption) wherever a command meets them: a command returns those
// errors as they are, and they exit 2.
var badInputKinds = []error{
	grade.ErrBrokenPack,
	grade.ErrInterrupted,
	pack.ErrNoExercise,
	lab.ErrInterrupted,
	classroom.ErrNoState,
	untrusted.ErrNotRegular,
	untrusted.ErrTooLarge,
}

// exitFor is the exit code for err, the error a command returned: the code
// an *exitError carries, else 2 for an error of one of badInputKinds. Any
// other error is taken for cobra's own (an unknown command or flag, a
// wrong number of arguments; commands wrap theirs, but for a failed write
// to standard output): misuse, exit 2, and cobras says so, for the
// pointer to --help.
func exitFor(err error) (code int, cobras bool) {
	var ee *exitError
	switch {
	case err == nil:
		return exitOK, false
	case errors.As(err, &ee):
		return ee.code, false
	}
	for _, kind := range badInputKinds {
		if errors.Is(err, kind) {
			return exitBadInput, false
		}
	}
	return exitBadInput, true
}

// printable is an error's text without its control characters, line by
// line: errors quote file names, and a name can carry an escape sequence
// or a NUL that the terminal would act on.
func printable(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = untrusted.Quote(l, len(l))
	}
	return strings.Join(lines, "\n")
}

// run runs streamlab with the command-line arguments args (without the
// program name) and returns its exit code. Errors go to stderr as
// "streamlab: <error>", and cobra's own with a pointer to --help.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := newCLI(stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "streamlab: %v\n", err)
		return exitFailed
	}
	root := c.rootCmd()
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "streamlab: %s\n", printable(err.Error()))
	code, cobras := exitFor(err)
	if cobras {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

// runE adapts a command's run method to cobra: it runs under the
// command's context (which SIGINT and SIGTERM cancel).
func runE(run func(ctx context.Context, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error { return run(cmd.Context(), args) }
}

// cli is one invocation of streamlab: its streams, the built-in defaults
// (which are also the flags' defaults) and the --config flag.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	defaults   Config
	configPath string
}

func newCLI(stdin io.Reader, stdout, stderr io.Writer) (*cli, error) {
	d, err := defaultConfig()
	if err != nil {
		return nil, err
	}
	return &cli{stdin: stdin, stdout: stdout, stderr: stderr, defaults: d}, nil
}

// load reads the configuration for a command with the flags flags, those
// named like configuration keys taking precedence over the environment,
// the file and the defaults. formats are the report formats the command
// accepts (nil: any).
func (c *cli) load(flags *pflag.FlagSet, formats []string) (Config, error) {
	cfg, err := loadConfig(flags, c.configPath, formats)
	if err != nil {
		return Config{}, badInput(err)
	}
	return cfg, nil
}

// rootCmd builds the command tree.
func (c *cli) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "streamlab",
		Short: "A terminal lab for fault tolerance in stream processing",
		Long: `streamlab is a terminal lab for fault tolerance in stream processing.

Run it without arguments to open the lab on its home screen: pick a guided
lesson, or open the sandbox, kill nodes, choose recovery semantics and watch
losses and duplicates appear in the output as they happen.

Configuration comes from flags, STREAMLAB_* environment variables, the
configuration file and the built-in defaults, in that order of precedence.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	home := &labOptions{c: c, flags: root.Flags()}
	root.RunE = runE(home.runHome)
	// Root has no Args: cobra's own check rejects stray words and suggests
	// near-miss commands ("Did you mean this?").
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	root.CompletionOptions.HiddenDefaultCmd = true

	where := defaultConfigPath()
	if where == "" {
		where = "none"
	}
	root.PersistentFlags().StringVar(&c.configPath, "config", "",
		"read the configuration from `PATH` (else $"+configEnv+", else "+where+")")
	c.labFlags(root)

	root.AddCommand(
		c.labCmd(),
		c.runCmd(),
		c.exportCmd(),   // export.go
		c.lessonCmd(),   // lessons.go
		c.lessonsCmd(),  // lessons.go
		c.gradeCmd(),    // grade.go
		c.exerciseCmd(), // exercise.go
		c.serveCmd(),    // serve.go
		c.classCmd(),    // class.go
		c.versionCmd(),
	)

	unifySeedFlags(root)
	root.Version = versionText()
	root.SetVersionTemplate("{{.Version}}")
	return root
}
