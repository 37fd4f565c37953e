// Package watch re-grades when an answer file is saved. It polls the files'
// modification times and sizes at each tick of a ticker the caller owns, so
// a test drives it with a channel and a fake stat, and no file-system
// notification library is needed.
package watch

import (
	"context"
	"os"
	"slices"
	"time"
)

// Stamp is what a poll records of a file: it changes when the file is saved.
type Stamp struct {
	ModTime time.Time
	Size    int64
	Exists  bool
}

// Stat returns a file's Stamp; a file that cannot be read has the zero one.
func Stat(path string) Stamp {
	st, err := os.Stat(path)
	if err != nil {
		return Stamp{}
	}
	return Stamp{ModTime: st.ModTime(), Size: st.Size(), Exists: true}
}

// Watcher calls Grade once at the start and again whenever one of Paths
// has changed at a tick.
type Watcher struct {
	// Paths lists the files to watch; it is called at every tick, so the
	// set may change (a directory created after the start).
	Paths func() []string
	// Stat reads a file's stamp; nil means the package's Stat.
	Stat func(path string) Stamp
	// Grade grades; changed lists the files that changed (none the first
	// time). An error stops the watch and is returned by Run.
	Grade func(ctx context.Context, changed []string) error
}

// Run watches until ctx is done (then it returns nil) or Grade fails.
func (w *Watcher) Run(ctx context.Context, ticks <-chan time.Time) error {
	stat := w.Stat
	if stat == nil {
		stat = Stat
	}
	snap := func() map[string]Stamp {
		m := map[string]Stamp{}
		for _, p := range w.Paths() {
			m[p] = stat(p)
		}
		return m
	}
	last := snap()
	if err := w.Grade(ctx, nil); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-ticks:
			if !ok {
				return nil
			}
		}
		now := snap()
		var changed []string
		for p, s := range now {
			if old, ok := last[p]; !ok || !old.ModTime.Equal(s.ModTime) || old.Size != s.Size || old.Exists != s.Exists {
				changed = append(changed, p)
			}
		}
		for p := range last {
			if _, ok := now[p]; !ok {
				changed = append(changed, p)
			}
		}
		last = now
		if len(changed) == 0 {
			continue
		}
		slices.Sort(changed)
		if err := w.Grade(ctx, changed); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}
