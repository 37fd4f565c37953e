package watch_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises/watch"
)

// fakeFS is a set of file stamps a test changes by hand.
type fakeFS struct {
	mu    sync.Mutex
	files map[string]watch.Stamp
}

func (f *fakeFS) stat(p string) watch.Stamp {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.files[p]
}

func (f *fakeFS) save(p string, at int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[p] = watch.Stamp{ModTime: time.Unix(at, 0), Size: at, Exists: true}
}

func TestRegradesOnSave(t *testing.T) {
	fs := &fakeFS{files: map[string]watch.Stamp{}}
	fs.save("a.lab", 1)
	fs.save("b.yaml", 1)
	ticks := make(chan time.Time)
	graded := make(chan []string)
	// polled tells the test that a poll has read every file, so that what
	// the test saves next is seen by the next poll, not by this one.
	polled := make(chan struct{})
	w := &watch.Watcher{
		Paths: func() []string { return []string{"a.lab", "b.yaml"} },
		Stat: func(p string) watch.Stamp {
			s := fs.stat(p)
			if p == "b.yaml" {
				polled <- struct{}{}
			}
			return s
		},
		Grade: func(ctx context.Context, changed []string) error {
			graded <- changed
			return nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx, ticks) }()

	<-polled
	if got := <-graded; got != nil {
		t.Errorf("first grade: changed %v, want none", got)
	}
	tick := func() {
		select {
		case ticks <- time.Time{}:
		case <-time.After(10 * time.Second):
			t.Fatal("the watcher did not take a tick: it is stuck grading")
		}
		<-polled
	}
	tick() // nothing changed: no grade
	fs.save("b.yaml", 2)
	tick()
	if got := <-graded; !slices.Equal(got, []string{"b.yaml"}) {
		t.Errorf("changed %v, want b.yaml", got)
	}
	fs.save("a.lab", 3)
	fs.save("b.yaml", 3)
	tick()
	if got := <-graded; !slices.Equal(got, []string{"a.lab", "b.yaml"}) {
		t.Errorf("changed %v, want both", got)
	}
	fs.mu.Lock()
	delete(fs.files, "a.lab") // removed: a change too
	fs.mu.Unlock()
	tick()
	if got := <-graded; !slices.Equal(got, []string{"a.lab"}) {
		t.Errorf("changed %v, want a.lab", got)
	}
	tick()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
}

func TestGradeErrorStops(t *testing.T) {
	boom := errors.New("broken pack")
	w := &watch.Watcher{
		Paths: func() []string { return nil },
		Grade: func(context.Context, []string) error { return boom },
	}
	if err := w.Run(context.Background(), nil); !errors.Is(err, boom) {
		t.Errorf("Run = %v, want the grade error", err)
	}
}

func TestClosedTicksStop(t *testing.T) {
	ticks := make(chan time.Time)
	close(ticks)
	w := &watch.Watcher{Paths: func() []string { return nil }, Grade: func(context.Context, []string) error { return nil }}
	if err := w.Run(context.Background(), ticks); err != nil {
		t.Errorf("Run = %v", err)
	}
}

func TestStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.lab")
	if s := watch.Stat(p); s.Exists {
		t.Errorf("missing file: %+v", s)
	}
	os.WriteFile(p, []byte("run 1\n"), 0o644)
	if s := watch.Stat(p); !s.Exists || s.Size != 6 {
		t.Errorf("file: %+v", s)
	}
}
