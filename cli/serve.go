package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"

	"github.com/streamlab/streamlab/classroom"
	"github.com/streamlab/streamlab/classroom/watch"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui"
)

// stopGrace is how long a stopping server waits for the labs to save and
// close before it drops the remaining connections.
const stopGrace = 4 * time.Second

// classStateDir is the state directory of `streamlab serve` and
// `streamlab class status` when --state is not given: classroom/ in the
// learner's state directory.
func classStateDir(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	dir, err := lessons.StateDir()
	if err != nil {
		return "", badInput(fmt.Errorf("no --state directory given and %w", err))
	}
	return filepath.Join(dir, "classroom"), nil
}

// stateFlag adds --state, the classroom's state directory.
func (c *cli) stateFlag(cmd *cobra.Command) {
	cmd.Flags().String("state", c.defaults.State, "keep the host key and the students' progress in `DIR` (default: classroom/ in the state directory)")
}

// gradeSecret is the grading secret: --secret, else STREAMLAB_GRADE_SECRET
// (as for `streamlab grade`).
func gradeSecret(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv("STREAMLAB_GRADE_SECRET")
}

func (c *cli) serveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the lab to a class over SSH",
		Long: `Serve the terminal lab over SSH: each student runs ` + "`ssh -p 2222 HOST`" + ` and gets
their own lab (its own engine, clock and bridge), sized to their terminal.

A student is their public key; the SSH user name is the name shown, unless
--roster names the key. Progress, the lesson seed, graded exercise answers
and saved sessions are kept per student under --state, which also keeps the
host key (made on first start). ` + "`streamlab class status`" + ` reads it.

With --roster FILE (lines of ` + "`name ssh-public-key`" + `, like authorized_keys) only
those keys are admitted; without it any key is. A session is the lab and
nothing else: no shell, no command, no file transfer, no forwarding.

SIGINT or SIGTERM closes every lab (students are told, progress is saved)
and stops within a few seconds.

Exit status: 0 on a clean stop, 2 for bad flags or a bad roster, 1 when
the server cannot start.`,
		Args: cobra.NoArgs,
	}
	c.tuiFlags(cmd)
	d, fs := c.defaults, cmd.Flags()
	fs.String("addr", d.Addr, "listen on `ADDR` (host:port)")
	c.stateFlag(cmd)
	fs.String("roster", d.Roster, "admit only the keys in `FILE` (lines of: name ssh-public-key)")
	fs.Int("max-sessions", d.MaxSessions, "at most `N` labs open at once")
	fs.Duration("idle-timeout", d.IdleTimeout, "close a lab after this long without a key pressed")
	o := &serveOptions{c: c, flags: fs}
	fs.StringVar(&o.secret, "secret", "", "grading secret: each student gets their own exercise seeds (else $STREAMLAB_GRADE_SECRET)")
	fs.BoolVar(&o.watch, "watch", false, "show the class live in this terminal (q stops the server)")
	cmd.RunE = runE(o.run)
	return cmd
}

// serveOptions are `streamlab serve`'s flags that are not configuration
// keys; the rest are read through the configuration (cli.load).
type serveOptions struct {
	c      *cli
	flags  *pflag.FlagSet
	secret string
	watch  bool
}

// run serves the lab until ctx ends, or with --watch until the instructor
// quits the live view.
func (o *serveOptions) run(ctx context.Context, args []string) error {
	c := o.c
	cfg, err := c.load(o.flags, nil)
	if err != nil {
		return err
	}
	var logw io.Writer = c.stderr
	var ring *watch.Log
	if o.watch {
		if !isTerminal(c.stdin) || !isTerminal(c.stdout) {
			return badInput(errors.New("--watch needs a terminal, and standard input or output is not one; use `streamlab class status` to read the class without one"))
		}
		ring = &watch.Log{}
		logw = ring
	}
	dir, err := classStateDir(cfg.State)
	if err != nil {
		return err
	}
	var r *classroom.Roster
	if cfg.Roster != "" {
		if r, err = classroom.LoadRoster(cfg.Roster); err != nil {
			return badInput(err)
		}
	}
	srv, err := o.server(cfg, dir, r, logw)
	if err != nil {
		return failed(err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return failed(err)
	}
	var view *watch.Model
	if ring != nil {
		view = o.liveView(srv, ln, dir, ring)
	}
	return c.serve(ctx, srv, ln, dir, r, view)
}

// server makes the classroom server of cfg, keeping its state in dir and
// admitting the roster r (any key when nil), logging to logw.
func (o *serveOptions) server(cfg Config, dir string, r *classroom.Roster, logw io.Writer) (*classroom.Server, error) {
	// Every lab draws with the same styles; a classroom's terminals
	// are color terminals (the mono theme is for those that are not).
	lipgloss.SetColorProfile(termenv.ANSI256)
	lipgloss.SetHasDarkBackground(true)
	return classroom.New(classroom.Config{
		State:  classroom.State{Dir: dir},
		Roster: r, MaxSessions: cfg.MaxSessions, IdleTimeout: cfg.IdleTimeout,
		Secret: gradeSecret(o.secret),
		Lab: tui.Options{Theme: cfg.Theme, Mouse: cfg.Mouse, Speed: cfg.Speed, Job: cfg.Job,
			Executor: cfg.engineExecutor(), Seed: cfg.Seed},
		Log: logw,
	})
}

// liveView is --watch's view of the class srv serves on ln: the students
// from the state directory dir, who is online and the server's log.
func (o *serveOptions) liveView(srv *classroom.Server, ln net.Listener, dir string, ring *watch.Log) *watch.Model {
	st, secret, grades := classroom.State{Dir: dir}, gradeSecret(o.secret), &classroom.Grades{}
	v := watch.New(ln.Addr().String(), func(ctx context.Context) watch.Snapshot {
		class, err := grades.Status(ctx, st, secret)
		return watch.Snapshot{Class: class, Online: srv.Online(), Usage: srv.Usage(), At: time.Now(),
			Log: ring.Lines(), Err: err}
	})
	return &v
}

// serve runs srv on ln until ctx ends (SIGINT, SIGTERM), then stops it.
//
// With view, the class is shown live in the terminal until the instructor
// quits it, which stops the server too.
func (c *cli) serve(ctx context.Context, srv *classroom.Server, ln net.Listener, dir string, r *classroom.Roster, view *watch.Model) error {
	if hk, err := (classroom.State{Dir: dir}).HostKey(); err == nil {
		if signer, err := gossh.ParsePrivateKey(hk); err == nil {
			fmt.Fprintf(c.stdout, "host key %s\n", gossh.FingerprintSHA256(signer.PublicKey()))
		}
	}
	fmt.Fprintf(c.stdout, "serving the lab on %s (students connect with: ssh -p PORT HOST); state in %s\n", ln.Addr(), dir)
	if r == nil {
		fmt.Fprintln(c.stdout, "no --roster: ANY public key is admitted")
	} else {
		fmt.Fprintf(c.stdout, "roster of %d: only their keys are admitted\n", r.Len())
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if view != nil {
		vctx, stopView := context.WithCancel(ctx)
		viewed := make(chan error, 1)
		go func() {
			_, err := tea.NewProgram(*view, tea.WithAltScreen(), tea.WithContext(vctx), tea.WithoutSignalHandler(),
				tea.WithInput(c.stdin), tea.WithOutput(c.stdout)).Run()
			viewed <- err
		}()
		select {
		case err := <-served:
			stopView()
			<-viewed
			return failed(err)
		case <-viewed:
		}
		stopView()
		ctx = vctx // done: the view was quit or a signal came; stop now
	}
	select {
	case err := <-served:
		return failed(err)
	case <-ctx.Done():
	}
	fmt.Fprintf(c.stdout, "stopping: closing the labs open (%d)\n", srv.Open())
	sctx, cancel := context.WithTimeout(context.Background(), stopGrace)
	defer cancel()
	err := srv.Shutdown(sctx)
	// Serve may not have taken the listener yet when the stop came, and a
	// listener it never took would keep it accepting: close it here too.
	ln.Close()
	if serr := <-served; !errors.Is(serr, classroom.ErrClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return failed(err)
	}
	fmt.Fprintln(c.stdout, "stopped; every student's progress is saved")
	return nil
}
