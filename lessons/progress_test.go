package lessons_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/lessons"
)

func TestStateDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)

	t.Setenv(lessons.StateDirEnv, "/custom/state")
	t.Setenv("XDG_STATE_HOME", "/xdg/state")
	if d, err := lessons.StateDir(); err != nil || d != "/custom/state" {
		t.Errorf("with %s: %q, %v", lessons.StateDirEnv, d, err)
	}
	t.Setenv(lessons.StateDirEnv, "")
	if d, err := lessons.StateDir(); err != nil || d != filepath.Join("/xdg/state", "streamlab") {
		t.Errorf("with XDG_STATE_HOME: %q, %v", d, err)
	}
	if runtime.GOOS != "windows" {
		t.Setenv("XDG_STATE_HOME", "relative/is/ignored")
		if d, err := lessons.StateDir(); err != nil || d != filepath.Join(home, ".local", "state", "streamlab") {
			t.Errorf("without: %q, %v", d, err)
		}
	}
}

func TestProgressRoundTrip(t *testing.T) {
	s := lessons.Store{Dir: filepath.Join(t.TempDir(), "new", "dir")}
	p, err := s.Load()
	if err != nil || len(p.Lessons) != 0 || p.Seed != 0 {
		t.Fatalf("a missing file: %+v, %v", p, err)
	}
	if !p.EnsureSeed(func() int64 { return 42 }) || p.EnsureSeed(func() int64 { return 7 }) || p.Seed != 42 {
		t.Fatalf("seed %d", p.Seed)
	}
	ls, _ := lessons.Catalog()
	l := ls[2]
	p.StepsDone(l.ID, 2)
	p.StepsDone(l.ID, 1) // progress never goes back
	if got := p.Status(l); got != fmt.Sprintf("step 3 of %d", len(l.Steps)) {
		t.Errorf("status %q", got)
	}
	p.StepsDone(l.ID, len(l.Steps))
	if got := p.Status(l); got != "check to answer" || p.Done(l) {
		t.Errorf("status %q", got)
	}
	p.CheckPassed(l.ID)
	if got := p.Status(l); got != "done" || !p.Done(l) {
		t.Errorf("status %q", got)
	}
	if got := p.Status(ls[0]); got != "not started" {
		t.Errorf("status %q", got)
	}
	if p.Next(ls) != ls[0] {
		t.Errorf("next is %s", p.Next(ls).ID)
	}
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	q, err := s.Load()
	if err != nil || q.Seed != 42 || !q.Done(l) {
		t.Fatalf("reloaded %+v, %v", q, err)
	}
	// Nothing but progress.json is left behind: the temporary file was
	// renamed into place.
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 1 || entries[0].Name() != "progress.json" {
		t.Errorf("files %v", entries)
	}

	q.Reset(l.ID)
	if q.Status(l) != "not started" {
		t.Error("reset did not forget")
	}
	q.StepsDone(ls[0].ID, 1)
	q.ResetAll()
	if len(q.Lessons) != 0 || q.Seed != 42 {
		t.Errorf("reset all: %+v", q)
	}
}

func TestNextWhenAllDone(t *testing.T) {
	ls, _ := lessons.Catalog()
	p := &lessons.Progress{}
	for _, l := range ls {
		p.StepsDone(l.ID, len(l.Steps))
		p.CheckPassed(l.ID)
	}
	if p.Next(ls) != ls[len(ls)-1] {
		t.Error("with every lesson done, the next is the last")
	}
}

// A field this version does not know (a newer streamlab's) is neither
// damage nor dropped: the learner keeps their seed, and saving writes the
// field back.
func TestProgressKeepsUnknownFields(t *testing.T) {
	s := lessons.Store{Dir: t.TempDir()}
	in := `{"seed": 42, "colour": "red", "lessons": {"x": {"steps": 2, "checked": false, "hints": [1, 2]}}}`
	if err := os.WriteFile(s.Path(), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := s.Load()
	if err != nil || p.Seed != 42 || p.Lessons["x"].Steps != 2 {
		t.Fatalf("Load = %+v, %v; want seed 42 and lesson x at step 2", p, err)
	}
	c := p.Clone()
	c.Lesson("x").Steps = 3
	if err := s.Save(&c); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"colour": "red"`, `"hints": [`, `"steps": 3`, `"seed": 42`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("saved progress lacks %s:\n%s", want, b)
		}
	}
}

// A damaged progress file is moved aside, never fatal, never lost.
func TestDamagedProgressIsMovedAside(t *testing.T) {
	s := lessons.Store{Dir: t.TempDir()}
	for i, bad := range []string{
		"{not json",
		`{"lessons": {"x": {"steps": "two"}}}`,
		`{"lessons": {"x": {"steps": -1}}}`,
		`{"lessons": {"x": null}}`,
		`{"seed": 1} {"seed": 2}`,
		"",
	} {
		if err := os.WriteFile(s.Path(), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := s.Load()
		var de *lessons.DamagedError
		if !errors.Is(err, lessons.ErrDamaged) || !errors.As(err, &de) || p == nil || len(p.Lessons) != 0 {
			t.Fatalf("%q: %+v, %v", bad, p, err)
		}
		want := s.Path() + ".bad-" + string(rune('1'+i))
		if de.MovedTo != want {
			t.Fatalf("%q moved to %s, want %s", bad, de.MovedTo, want)
		}
		if b, err := os.ReadFile(want); err != nil || string(b) != bad {
			t.Fatalf("%s holds %q, %v", want, b, err)
		}
		if _, err := os.Stat(s.Path()); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the damaged file is still in place: %v", err)
		}
		// The progress Load returned can be saved at once.
		if err := s.Save(p); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWorkspace(t *testing.T) {
	l, err := lessons.Find("output-modes")
	if err != nil {
		t.Fatal(err)
	}
	s := lessons.Store{Dir: t.TempDir()}
	if got := s.Workspace(l); got != filepath.Join(s.Dir, "lessons", "output-modes") {
		t.Fatalf("workspace %s", got)
	}
	if err := l.WriteFiles(s.Workspace(l)); err != nil {
		t.Fatal(err)
	}
	for _, name := range l.Files() {
		if _, err := os.Stat(filepath.Join(s.Workspace(l), name)); err != nil {
			t.Error(err)
		}
	}
}
