package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/classroom"
)

// runCLI runs streamlab with args and returns its exit code and output.
func runCLI(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestServeBadInput(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	roster := filepath.Join(dir, "roster")
	os.WriteFile(roster, []byte("# class\nbob ssh-ed25519 AAAAnope\n"), 0o644)
	cfgFile := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfgFile, []byte("seed: 1\nmax-sessions: 2.5\n"), 0o644)
	for _, c := range []struct {
		env  [2]string
		args []string
		want string
	}{
		{args: []string{"serve", "--roster", roster, "--state", dir}, want: roster + ":2:5: expected a public key"},
		{args: []string{"serve", "--max-sessions", "0", "--state", dir}, want: "--max-sessions = 0: want at least 1"},
		{env: [2]string{"STREAMLAB_IDLE_TIMEOUT", "soon"}, args: []string{"serve", "--state", dir}, want: "STREAMLAB_IDLE_TIMEOUT = soon: want a duration"},
		{args: []string{"--config", cfgFile, "serve", "--state", dir}, want: cfgFile + ":2:1: max-sessions = 2.5: want a whole number"},
		{args: []string{"class", "status", "--state", filepath.Join(dir, "nowhere")}, want: "no such state directory"},
		{args: []string{"class", "status", "--state", dir, "--format", "tap"}, want: `--format = "tap": want text, json or csv`},
	} {
		if c.env[0] != "" {
			t.Setenv(c.env[0], c.env[1])
		}
		code, _, stderr := runCLI(t, context.Background(), c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
		if c.env[0] != "" {
			t.Setenv(c.env[0], "")
		}
	}
}

// TestServeStops starts the server on a free port and stops it as SIGINT
// would, by ending its context: it says what it admits and stops cleanly.
func TestServeStops(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var code int
	var stdout string
	go func() {
		code, stdout, _ = runCLI(t, ctx, "serve", "--addr", "127.0.0.1:0", "--state", dir)
		close(done)
	}()
	// The host key appears once the server is up.
	for {
		if _, err := os.Stat(filepath.Join(dir, "host_ed25519")); err == nil {
			break
		}
		select {
		case <-done:
			t.Fatalf("serve ended early: exit %d", code)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	<-done
	if code != exitOK || !strings.Contains(stdout, "ANY public key is admitted") || !strings.Contains(stdout, "stopped;") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	code, out, _ := runCLI(t, context.Background(), "class", "status", "--state", dir)
	if code != exitOK || !strings.Contains(out, "no students yet") {
		t.Errorf("class status: exit %d %q", code, out)
	}
}

// TestClassWatchReadsTheLiveFile checks that `class status --watch` takes
// who is online and their labs' cost from the server's live file, and
// refuses to run without a terminal.
func TestClassWatchReadsTheLiveFile(t *testing.T) {
	isolate(t)
	st := classroom.State{Dir: t.TempDir()}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if err := st.WriteLive(classroom.Live{At: now, Labs: map[string]classroom.Usage{"a": {CPU: time.Second, Holds: 99}}}); err != nil {
		t.Fatal(err)
	}
	snap := classSnapshot(context.Background(), st, "", &classroom.Grades{}, now.Add(time.Second))
	if snap.Err != nil || !snap.Online["a"] || snap.Usage["a"].Holds != 99 || !snap.At.Equal(now) {
		t.Errorf("snapshot %+v", snap)
	}
	code, _, stderr := runCLI(t, context.Background(), "class", "status", "--watch", "--state", st.Dir)
	if code != 2 || !strings.Contains(stderr, "needs a terminal") {
		t.Errorf("without a terminal: exit %d, %q", code, stderr)
	}
}
