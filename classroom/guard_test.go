package classroom

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui"
	"github.com/streamlab/streamlab/tui/bridge"
)

func TestJobGuard(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "watermark.yaml"), []byte("name: x\n"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(ws, "link.yaml"))
	l, err := lessons.Find("1")
	if err != nil {
		t.Fatal(err)
	}
	guard := jobGuard()
	line := func(text string) error { return guard(bridge.Request{Kind: bridge.Line, Line: text}) }
	for text, ok := range map[string]bool{
		"job clicks": true, "set seed 3": true, "run 10s": true, "job": true,
		"job /etc/passwd": false, "job watermark.yaml": false, "job ./x.yaml": false,
	} {
		if err := line(text); (err == nil) != ok {
			t.Errorf("sandbox %q: %v", text, err)
		}
	}
	guard(bridge.Request{Kind: bridge.OpenSession, Lesson: l, Workspace: ws})
	for text, ok := range map[string]bool{
		"job watermark.yaml": true, `job "watermark.yaml"`: true, "job clicks": true,
		"job ../watermark.yaml": false, "job /etc/passwd": false, "job link.yaml": false,
		"job missing.yaml": false, "job .hidden.yaml": false, `job "sub/watermark.yaml"`: false,
	} {
		if err := line(text); (err == nil) != ok {
			t.Errorf("lesson %q: %v", text, err)
		}
	}
	if err := guard(bridge.Request{Kind: bridge.Reconfigure, Line: "job /etc/passwd"}); err == nil {
		t.Error("a confirmed job line was let through")
	}
	guard(bridge.Request{Kind: bridge.Open, Job: "clicks"})
	if err := line("job watermark.yaml"); err == nil {
		t.Error("the lesson's files are still open after it closed")
	}
}

// TestExecutorGuard: a served lab keeps the deterministic executor, which
// the server paces and bounds, whether the line is typed or picked, or
// the server's template asks for the other; and it has its budget.
func TestExecutorGuard(t *testing.T) {
	guard := jobGuard()
	for text, ok := range map[string]bool{
		"set executor concurrent": false, "set executor deterministic": true, "set mode update": true,
	} {
		for _, kind := range []bridge.Kind{bridge.Line, bridge.Reconfigure} {
			if err := guard(bridge.Request{Kind: kind, Line: text}); (err == nil) != ok {
				t.Errorf("%q: %v", text, err)
			}
		}
	}
	s, err := New(Config{State: State{Dir: t.TempDir()}, Lab: tui.Options{Executor: engine.ExecConcurrent}})
	if err != nil {
		t.Fatal(err)
	}
	if opts := s.labOptions(context.Background(), &Student{ID: "s1"}); opts.Executor != engine.ExecDeterministic || opts.MemoryBudget != labMemoryBudget {
		t.Errorf("a student's lab runs the %s executor under a budget of %d bytes", opts.Executor, opts.MemoryBudget)
	}
}
