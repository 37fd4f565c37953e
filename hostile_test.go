package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileCase is one class of hostile input: what it sets up inside its
// own directory, the command it runs, and what must come of it.
type hostileCase struct {
	name string
	// setup prepares the case in dir (a fresh directory) and returns the
	// arguments and standard input of the command.
	setup func(t *testing.T, dir string) (args []string, stdin string)
	code  int           // the exit code
	has   []string      // text the output (stdout and stderr) must contain
	lacks []string      // text it must not contain
	limit time.Duration // the command must finish within this wall time
	check func(t *testing.T, dir string, r result)
}

// secretMarker is in the environment and in a file outside every case's
// directory: no report may ever quote it.
const secretMarker = "HOSTILE-SECRET-7f3a"

// TestHostileInput runs one case per class of hostile input and checks the
// exit code, the message, the time bound and that nothing outside the
// case's directory changed.
func TestHostileInput(t *testing.T) {
	isolate(t)
	t.Setenv("STREAMLAB_TEST_SECRET", secretMarker)
	outside := t.TempDir()
	secretFile := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secretFile, []byte("drops: "+secretMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range hostileCases(secretFile) {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args, stdin := tc.setup(t, dir)
			before := snapshot(t, outside)
			limit := tc.limit
			if limit == 0 {
				limit = 20 * time.Second
			}
			done := make(chan result, 1)
			start := time.Now()
			go func() {
				var out, errOut bytes.Buffer
				code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
				done <- result{code, out.String(), errOut.String()}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(limit):
				t.Fatalf("%v did not finish within %v", args, limit)
			}
			t.Logf("%v: exit %d in %v", args, r.code, time.Since(start).Round(time.Millisecond))
			out := r.stdout + r.stderr
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tc.code, out)
			}
			for _, s := range tc.has {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range append(tc.lacks, secretMarker, "panic", "goroutine ") {
				if strings.Contains(out, s) {
					t.Errorf("output contains %q:\n%.2000s", s, out)
				}
			}
			if tc.check != nil {
				tc.check(t, dir, r)
			}
			if after := snapshot(t, outside); after != before {
				t.Errorf("files outside the case's directory changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// answerLinkedTo returns a setup that grades gap-recovery with its answer a
// symbolic link to target.
func answerLinkedTo(target string) func(t *testing.T, dir string) ([]string, string) {
	return func(t *testing.T, dir string) ([]string, string) {
		ans := filepath.Join(dir, "answers")
		mustDo(t, os.MkdirAll(filepath.Join(ans, "gap-recovery"), 0o755))
		mustDo(t, os.Symlink(target, filepath.Join(ans, "gap-recovery", "answers.yaml")))
		return []string{"grade", "gap-recovery", "--answers", ans, "--format", "gradescope"}, ""
	}
}

func hostileCases(secretFile string) []hostileCase {
	return []hostileCase{
		// Answers are data: only regular files inside --answers.
		{name: "answer/link-to-environ", setup: answerLinkedTo("/proc/self/environ"),
			code: 1, has: []string{"outside the directory"}},
		{name: "answer/link-to-file-outside", setup: answerLinkedTo(secretFile),
			code: 1, has: []string{"outside the directory"}},
		{name: "answer/link-to-dev-zero", setup: answerLinkedTo("/dev/zero"),
			code: 1, has: []string{"outside the directory"}, limit: 10 * time.Second},
		{name: "answer/fifo", code: 1, has: []string{"FIFO"}, limit: 10 * time.Second,
			setup: func(t *testing.T, dir string) ([]string, string) {
				ans := filepath.Join(dir, "answers")
				mustDo(t, os.MkdirAll(filepath.Join(ans, "gap-recovery"), 0o755))
				mustDo(t, syscall.Mkfifo(filepath.Join(ans, "gap-recovery", "answers.yaml"), 0o600))
				return []string{"grade", "gap-recovery", "--answers", ans}, ""
			}},
		{name: "answer/huge", code: 1, has: []string{"larger than"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				ans := filepath.Join(dir, "answers")
				mustDo(t, os.MkdirAll(filepath.Join(ans, "gap-recovery"), 0o755))
				f, err := os.Create(filepath.Join(ans, "gap-recovery", "answers.yaml"))
				mustDo(t, err)
				mustDo(t, f.Truncate(1<<30)) // sparse: 1 GiB on paper
				mustDo(t, f.Close())
				return []string{"grade", "gap-recovery", "--answers", ans}, ""
			}},
		{name: "answer/control-characters", code: 1, lacks: []string{"\x1b[2J", "\x1b]0;"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				ans := filepath.Join(dir, "answers")
				mustDo(t, os.MkdirAll(filepath.Join(ans, "gap-recovery"), 0o755))
				evil := "lost: \"\x1b[2J\x1b]0;pwned\x07" + strings.Repeat("A", 5000) + "\"\n"
				mustDo(t, os.WriteFile(filepath.Join(ans, "gap-recovery", "answers.yaml"), []byte(evil), 0o644))
				return []string{"grade", "gap-recovery", "--answers", ans, "--format", "json"}, ""
			},
			check: func(t *testing.T, dir string, r result) {
				if strings.Contains(r.stdout, strings.Repeat("A", 700)) {
					t.Errorf("the report quotes the answer at full length")
				}
			}},
		{name: "script/dev-zero", code: 2, has: []string{"longer than"}, limit: 10 * time.Second,
			setup: func(t *testing.T, dir string) ([]string, string) {
				return []string{"run", "/dev/zero"}, ""
			}},
	}
}

// snapshot is a digest of every file's name, mode and content under dir.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h.Write([]byte(p + info.Mode().String() + "\x00"))
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(h.Sum(nil))
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
