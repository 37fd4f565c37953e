package tui

import (
	"context"
	"fmt"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/bridge"
)

// Run opens the terminal lab and returns when the learner quits. It starts
// the bridge goroutine (the only goroutine the lab adds) and stops it
// before returning, so the session's files are closed. Bubble Tea restores
// the terminal on exit and on a panic in Update or View; the bridge
// recovers its own panics and reports them as messages.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	b, err := newBridge(opts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()

	progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx)}
	if in != nil {
		progOpts = append(progOpts, tea.WithInput(in))
	}
	if out != nil {
		progOpts = append(progOpts, tea.WithOutput(out))
	}
	if opts.Mouse {
		progOpts = append(progOpts, tea.WithMouseCellMotion())
	}
	_, runErr := tea.NewProgram(New(opts, b), progOpts...).Run()
	cancel()
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
	b, err := bridge.New(bridge.Options{
		Job: job, Seed: opts.Seed, Executor: opts.Executor, DB: opts.DB,
		Speed: opts.Speed, Clock: opts.Clock,
	})
	if err != nil {
		return nil, fmt.Errorf("opening job %s: %w", job, err)
	}
	return b, nil
}
