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

// TestPredictionInTmux opens a prediction exercise with the built binary in
// a tmux pane and answers it without leaving it: the predictions typed
// into the form before the scenario runs, the observed values beside them,
// the why question, the grade; the answers are saved where `streamlab
// grade` reads them.
func TestPredictionInTmux(t *testing.T) {
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
	x := tmux{t: t, socket: fmt.Sprintf("streamlab-predict-%d", os.Getpid()), exitFile: exitFile}
	t.Cleanup(func() { x.run("kill-server") })
	shell := fmt.Sprintf("cd %q && XDG_CONFIG_HOME=%q XDG_STATE_HOME=%q HOME=%q TERM=xterm-256color %q exercise start gap-recovery 2>%q; echo $? > %q",
		work, home, home, home, bin, exitFile+".stderr", exitFile)
	x.must("new-session", "-d", "-s", "lab", "-x", "140", "-y", "44", "sh", "-c", shell)

	x.waitScreen("the form", regexp.MustCompile(`has not run yet`))
	for _, k := range []string{"4", "0", "0", "Tab", "4", "0", "0", "Tab", "0", "Tab", "Right", "Right", "Enter"} {
		x.must("send-keys", "-t", "lab", k)
	}
	screen := x.waitScreen("the observed values", regexp.MustCompile(`(?s)observed.*Why\?`))
	if !regexp.MustCompile(`lost\s+400\s+\d+`).MatchString(screen) {
		t.Errorf("the prediction and the observed value are not side by side:\n%s", screen)
	}
	x.must("send-keys", "-t", "lab", "Right")
	x.must("send-keys", "-t", "lab", "Enter")
	x.waitScreen("the grade", regexp.MustCompile(`Score \d+/\d+`))
	x.waitScreen("the saved answers", regexp.MustCompile(`answers saved in`))

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
	saved, err := os.ReadFile(filepath.Join(work, "gap-recovery", "answers.yaml"))
	if err != nil || !strings.Contains(string(saved), "lost: 400") || !strings.Contains(string(saved), `why: "state-and-input-gone"`) {
		t.Fatalf("saved answers: %v\n%s", err, saved)
	}
	grade := exec.Command(bin, "grade", "--answers", work, "gap-recovery")
	grade.Env = append(os.Environ(), "XDG_CONFIG_HOME="+home, "HOME="+home)
	if out, err := grade.CombinedOutput(); grade.ProcessState == nil || grade.ProcessState.ExitCode() == 2 {
		t.Errorf("grade of the saved answers: %v\n%s", err, out)
	}
}
