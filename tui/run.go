package tui

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/bridge"
)

// Run opens the terminal lab and returns when the learner quits. It starts
// the bridge goroutine (the only goroutine the lab adds) and stops it
// before returning, so the session's files are closed. Bubble Tea restores
// the terminal on exit and on a panic in Update or View; the bridge
// recovers its own panics and reports them as messages.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	opts = loadProgress(opts)
	b, err := newBridge(opts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()

	plain := isPlain() // TERM=dumb or a locale that is not UTF-8: see terminal.go
	progOpts := append(programOptions(plain, in, out), tea.WithContext(ctx))
	if in != nil {
		progOpts = append(progOpts, tea.WithInput(in))
	}
	if out != nil {
		progOpts = append(progOpts, tea.WithOutput(out))
	}
	if opts.Mouse {
		progOpts = append(progOpts, tea.WithMouseCellMotion())
	}
	opts.ASCII = opts.ASCII || plain
	p := tea.NewProgram(withMeter(forTerminal(New(opts, b), plain), opts.Meter), append(progOpts, opts.ProgramOptions...)...)
	if opts.Program != nil {
		opts.Program(p)
	}
	final, runErr := p.Run()
	final = fromTerminal(fromMeter(final))
	cancel()
	// The last save may still have been in flight when the learner quit.
	if fm, ok := final.(Model); ok && opts.StateDir != "" && opts.Progress != nil {
		if err := (lessons.Store{Dir: opts.StateDir}).Save(fm.Progress()); err != nil && runErr == nil {
			runErr = fmt.Errorf("saving your progress: %w", err)
		}
	}
	if err := <-done; err != nil && runErr == nil {
		runErr = err
	}
	if runErr == tea.ErrProgramKilled && ctx.Err() != nil {
		runErr = nil
	}
	return runErr
}

// newBridge opens the bridge on the job the lab starts with.
func newBridge(opts Options) (*bridge.Bridge, error) {
	job := opts.Job
	if j, ok := strings.CutPrefix(opts.Start, "lab:"); ok && j != "" {
		job = j
	}
	work, yield := meterHooks(opts.Meter)
	b, err := bridge.New(bridge.Options{
		Job: job, Seed: opts.Seed, Executor: opts.Executor, DB: opts.DB,
		Speed: opts.Speed, Clock: opts.Clock, FrameRate: opts.FrameRate, Home: opts.Home,
		Work: work, Yield: yield, MemoryBudget: opts.MemoryBudget,
	})
	if err != nil {
		return nil, fmt.Errorf("opening job %s: %w", job, err)
	}
	return b, nil
}

// loadProgress reads the learner's progress at the edge, before the
// program starts: a missing state directory or progress file is no
// progress, and a damaged file (set aside by Load) becomes a warning on
// the home screen. A learner without a seed gets one, saved at once, so
// that their checks' answers stay theirs.
func loadProgress(opts Options) Options {
	if opts.StateDir == "" {
		dir, err := lessons.StateDir()
		if err != nil {
			opts.ProgressWarning = "progress is not saved: " + err.Error()
			return opts
		}
		opts.StateDir = dir
	}
	if opts.Progress != nil {
		return opts
	}
	store := lessons.Store{Dir: opts.StateDir}
	p, err := store.Load()
	if err != nil {
		opts.ProgressWarning = err.Error()
	}
	if p == nil {
		p = &lessons.Progress{}
	}
	if p.EnsureSeed(func() int64 { return rand.Int64N(999_999) + 1 }) {
		if err := store.Save(p); err != nil && opts.ProgressWarning == "" {
			opts.ProgressWarning = "could not save progress: " + err.Error()
		}
	}
	opts.Progress = p
	return opts
}
