package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tmux runs tmux on the test's own server socket, so a learner's tmux is
// never touched.
type tmux struct {
	t        *testing.T
	socket   string
	exitFile string // where the shell writes streamlab's exit status
}

func (x tmux) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (x tmux) must(args ...string) string {
	x.t.Helper()
	out, err := x.run(args...)
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return out
}

// waitScreen polls the pane until re matches it, for at most 10 s.
func (x tmux) waitScreen(what string, re *regexp.Regexp) string {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var screen string
	for time.Now().Before(deadline) {
		screen, _ = x.run("capture-pane", "-p", "-t", "lab")
		if re.MatchString(screen) {
			return screen
		}
		time.Sleep(50 * time.Millisecond)
	}
	exit, _ := os.ReadFile(x.exitFile)
	stderr, _ := os.ReadFile(x.exitFile + ".stderr")
	x.t.Fatalf("waited 10 s for %s; the screen was:\n%s\nexit status: %s\nstderr: %s", what, screen, exit, stderr)
	return ""
}

// TestBinaryInTmux builds streamlab, opens the sandbox in a 120×40 tmux
// pane, runs it, types a kill through the palette, saves the session and
// quits; then replays the saved script with `streamlab run`.
func TestBinaryInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin", "streamlab")
	build := exec.Command("go", "build", "-o", bin, "github.com/streamlab/streamlab")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work, home := filepath.Join(dir, "work"), filepath.Join(dir, "home")
	for _, d := range []string{work, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exitFile := filepath.Join(dir, "exit")
	x := tmux{t: t, socket: fmt.Sprintf("streamlab-e2e-%d", os.Getpid()), exitFile: exitFile}
	t.Cleanup(func() { x.run("kill-server") })
	shell := fmt.Sprintf("cd %q && XDG_CONFIG_HOME=%q HOME=%q TERM=xterm-256color %q lab clicks 2>%q; echo $? > %q",
		work, home, home, bin, exitFile+".stderr", exitFile)
	x.must("new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", "sh", "-c", shell)

	x.waitScreen("the sandbox", regexp.MustCompile(`Pipeline · clicks`))
	// Without checkpoints the job restarts only with a strategy set.
	x.must("send-keys", "-t", "lab", ":")
	x.waitScreen("the palette", regexp.MustCompile(`(?m)^:`))
	x.must("send-keys", "-t", "lab", "-l", "set restart exponential-delay")
	x.must("send-keys", "-t", "lab", "Enter")
	x.waitScreen("the engine's answer", regexp.MustCompile(`> set restart exponential-delay`))
	x.must("send-keys", "-t", "lab", "Space")
	x.waitScreen("delivered records", regexp.MustCompile(`delivered\s+[1-9]`))

	x.must("send-keys", "-t", "lab", ":")
	x.waitScreen("the palette", regexp.MustCompile(`(?m)^:`))
	x.must("send-keys", "-t", "lab", "-l", "kill count[1]")
	x.must("send-keys", "-t", "lab", "Enter")
	screen := x.waitScreen("the engine's answer", regexp.MustCompile(`> kill count\[1\]`))
	if strings.Contains(screen, "panic") {
		t.Fatalf("screen:\n%s", screen)
	}

	x.must("send-keys", "-t", "lab", "C-s")
	screen = x.waitScreen("the saved file's name", regexp.MustCompile(`saved \d+ lines to (streamlab-\S+\.lab)`))
	name := regexp.MustCompile(`streamlab-\S+?\.lab`).FindString(screen)

	x.must("send-keys", "-t", "lab", "q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if data, err := os.ReadFile(exitFile); err == nil && len(data) > 0 {
			if code := strings.TrimSpace(string(data)); code != "0" {
				t.Fatalf("streamlab exited %s", code)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("streamlab did not quit within 10 s of q")
		}
		time.Sleep(50 * time.Millisecond)
	}

	run := exec.Command(bin, "run", name)
	run.Dir = work
	run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+home, "HOME="+home)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("streamlab run %s: %v\n%s", name, err, out)
	}
	if !strings.Contains(string(out), "clicks") {
		t.Errorf("replay report:\n%s", out)
	}
}
