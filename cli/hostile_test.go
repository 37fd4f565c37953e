package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/table"
	"github.com/streamlab/streamlab/lessons"
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
	// interrupt, when above zero, cancels the command's context (as a
	// signal does) that long after it starts; it must then finish within
	// stopWithin (generous for a loaded machine: a loop that ignored the
	// context would go on through millions of records for minutes).
	interrupt, stopWithin time.Duration
	// maxAlloc, when above zero, bounds the bytes the command allocates.
	maxAlloc uint64
	check    func(t *testing.T, dir string, r result)
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
			var memBefore runtime.MemStats
			runtime.ReadMemStats(&memBefore)
			start := time.Now()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				var out, errOut bytes.Buffer
				code := run(ctx, args, strings.NewReader(stdin), &out, &errOut)
				done <- result{code, out.String(), errOut.String()}
			}()
			var r result
			var interrupted <-chan time.Time
			if tc.interrupt > 0 {
				interrupted = time.After(tc.interrupt)
			}
		wait:
			for {
				select {
				case r = <-done:
					break wait
				case <-interrupted:
					cancel()
					interrupted = nil
					stopped := time.Now()
					select {
					case r = <-done:
						if d := time.Since(stopped); d > tc.stopWithin {
							t.Errorf("stopped %v after the interrupt; want within %v", d, tc.stopWithin)
						}
						break wait
					case <-time.After(limit):
						t.Fatalf("%v did not stop within %v of the interrupt", args, limit)
					}
				case <-time.After(limit):
					t.Fatalf("%v did not finish within %v", args, limit)
				}
			}
			var memAfter runtime.MemStats
			runtime.ReadMemStats(&memAfter)
			alloc := memAfter.TotalAlloc - memBefore.TotalAlloc
			t.Logf("%v: exit %d in %v, %d KiB allocated", args, r.code, time.Since(start).Round(time.Millisecond), alloc>>10)
			if tc.maxAlloc > 0 && alloc > tc.maxAlloc {
				t.Errorf("allocated %d MiB; the bound is %d MiB", alloc>>20, tc.maxAlloc>>20)
			}
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
			code: 1, has: []string{"outside the directory"}, limit: 10 * time.Second, maxAlloc: 16 << 20},
		{name: "answer/fifo", code: 1, has: []string{"FIFO"}, limit: 10 * time.Second,
			setup: func(t *testing.T, dir string) ([]string, string) {
				ans := filepath.Join(dir, "answers")
				mustDo(t, os.MkdirAll(filepath.Join(ans, "gap-recovery"), 0o755))
				mustDo(t, syscall.Mkfifo(filepath.Join(ans, "gap-recovery", "answers.yaml"), 0o600))
				return []string{"grade", "gap-recovery", "--answers", ans}, ""
			}},
		{name: "files/config-fifo", code: 2, has: []string{"FIFO"}, limit: 10 * time.Second,
			setup: func(t *testing.T, dir string) ([]string, string) {
				fifo := filepath.Join(dir, "config.yaml")
				mustDo(t, syscall.Mkfifo(fifo, 0o600))
				return []string{"--config", fifo, "run", "-"}, "job passthrough\nrun 10\n"
			}},
		{name: "files/config-dev-zero", code: 2, has: []string{"device"}, limit: 10 * time.Second, maxAlloc: 16 << 20,
			setup: func(t *testing.T, dir string) ([]string, string) {
				return []string{"--config", "/dev/zero", "run", "-"}, "job passthrough\nrun 10\n"
			}},
		{name: "files/progress-fifo", code: 2, has: []string{"progress.json", "FIFO"}, limit: 10 * time.Second,
			setup: func(t *testing.T, dir string) ([]string, string) {
				t.Setenv(lessons.StateDirEnv, dir)
				mustDo(t, syscall.Mkfifo(filepath.Join(dir, "progress.json"), 0o600))
				return []string{"lessons"}, ""
			}},
		{name: "files/progress-dev-zero", code: 2, has: []string{"progress.json", "device"}, limit: 10 * time.Second, maxAlloc: 16 << 20,
			setup: func(t *testing.T, dir string) ([]string, string) {
				t.Setenv(lessons.StateDirEnv, dir)
				mustDo(t, os.Symlink("/dev/zero", filepath.Join(dir, "progress.json")))
				return []string{"lessons"}, ""
			}},
		// A file name is echoed in errors without its control characters.
		{name: "files/escape-in-a-file-name", code: 2, has: []string{"x\uFFFD[2J\uFFFD.lab"}, lacks: []string{"\x1b", "\x07"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				return []string{"run", filepath.Join(dir, "x\x1b[2J\x07.lab")}, ""
			}},
		{name: "answer/huge", code: 1, has: []string{"larger than"}, maxAlloc: 16 << 20,
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
		// Bounds: windows, windows per record, records per run.
		{name: "bounds/window-1ns-script", code: 2, has: []string{":2:12: ", "from 1ms to"},
			setup: scriptCase("job clicks\nset window 1ns\nrun 10\n")},
		{name: "bounds/window-1ns-job-file", code: 2, has: []string{"j.yaml:3:43: ", "from 1ms to"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				mustDo(t, os.WriteFile(filepath.Join(dir, "j.yaml"), []byte("name: j\noperators:\n  - {name: c, kind: window-count, window: 1ns}\n"), 0o644))
				p := filepath.Join(dir, "s.lab")
				mustDo(t, os.WriteFile(p, []byte("job j.yaml\nrun 10\n"), 0o644))
				return []string{"run", p}, ""
			}},
		{name: "bounds/window-1ns-answer", code: 1, has: []string{"session.lab:1:12", "from 1ms to"},
			setup: answerCase("failover-recording", "session.lab", "set window 1ns\nrun 10\n")},
		{name: "bounds/windows-per-record-answer", code: 1, has: []string{"session.lab:2:18", "at most 1000"}, limit: 10 * time.Second,
			setup: answerCase("failover-recording", "session.lab", "set window 1h\nset window.slide 1ms\nrun 10\n")},
		{name: "bounds/records-rate-times-duration", code: 2, has: []string{":3:5: ", "86400000000 records", "at most 10000000"}, limit: 10 * time.Second,
			setup: scriptCase("job passthrough\nset source.rate 1000000\nrun 24h\n")},
		{name: "bounds/seed-hex-env-as-script", code: 2, has: []string{"STREAMLAB_SEED", "whole number"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				t.Setenv("STREAMLAB_SEED", "0x10")
				return []string{"run", "-"}, "run 10\n"
			}},
		{name: "bounds/seed-hex-script", code: 2, has: []string{"-:1:10: ", "whole number"},
			setup: scriptCase("set seed 0x10\nrun 10\n")},
		// Interruption: the command stops soon, writes what it has, exit 2.
		{name: "interrupt/run", code: 2, has: []string{"interrupted", "job         passthrough", "interrupted at -:2"},
			interrupt: 300 * time.Millisecond, stopWithin: 5 * time.Second,
			setup: scriptCase("job passthrough\nrun 10000000\nrun 10000000\nreport\n")},
		{name: "interrupt/grade", code: 2, has: []string{"grading interrupted", "interrupted before this exercise was graded", `"interrupted": true`},
			interrupt: 300 * time.Millisecond, stopWithin: 5 * time.Second,
			setup: func(t *testing.T, dir string) ([]string, string) {
				ans := referenceAnswers(t)
				// An answer that keeps the grader busy for seconds.
				mustDo(t, os.WriteFile(filepath.Join(ans, "standalone-recovery", "recover.lab"), []byte("run 10000000\nrun 10000000\n"), 0o644))
				return []string{"grade", "--answers", ans, "--format", "json"}, ""
			}},
		// Files the user owns are never lost.
		{name: "files/db-with-users-table", code: 2, has: []string{"table results exists with other columns", "give another --db"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				db := filepath.Join(dir, "mine.db")
				st, err := table.Open(db, table.Layout{})
				mustDo(t, err)
				mustDo(t, st.Close())
				// Replace streamlab's table by the user's own of that name.
				sqlExec(t, db, "DROP TABLE results", "PRAGMA application_id = 0",
					"CREATE TABLE results (name TEXT, score INTEGER)", "INSERT INTO results VALUES ('alice', 3)")
				return []string{"run", "--db", db, "-"}, "job clicks\nset sink table\nrun 100\n"
			},
			check: func(t *testing.T, dir string, r result) {
				if n := sqlCount(t, filepath.Join(dir, "mine.db"), "SELECT count(*) FROM results WHERE name = 'alice'"); n != 1 {
					t.Errorf("the user's table lost its row: %d rows", n)
				}
			}},
		{name: "files/db-foreign-sqlite", code: 2, has: []string{"streamlab did not make this file", "--force"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				db := filepath.Join(dir, "theirs.db")
				// The user's own table, of streamlab's very columns.
				sqlExec(t, db, "CREATE TABLE results (window_start INTEGER, window_end INTEGER, key TEXT, value INTEGER)",
					"INSERT INTO results VALUES (0, 1000, 'alice', 3)")
				b, err := os.ReadFile(db)
				mustDo(t, err)
				mustDo(t, os.WriteFile(filepath.Join(dir, "theirs.before"), b, 0o600))
				return []string{"run", "--db", db, "-"}, "job clicks\nset sink table\nrun 100\n"
			},
			check: func(t *testing.T, dir string, r result) {
				before, _ := os.ReadFile(filepath.Join(dir, "theirs.before"))
				after, _ := os.ReadFile(filepath.Join(dir, "theirs.db"))
				if string(before) != string(after) {
					t.Error("the refused file was changed")
				}
				// --force lets streamlab use it.
				f := streamlab(t, "job clicks\nset sink table\nrun 100\n", "run", "--force", "--db", filepath.Join(dir, "theirs.db"), "-")
				if f.code != 0 || sqlCount(t, filepath.Join(dir, "theirs.db"), "SELECT count(*) FROM results WHERE key = 'alice'") != 0 {
					t.Errorf("--force: exit %d %s", f.code, f.stderr)
				}
			}},
		{name: "files/db-in-use", code: 1, has: []string{"in use by another streamlab run"}, lacks: []string{"invalid configuration"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				db := filepath.Join(dir, "shared.db")
				st, err := table.Open(db, table.Layout{Keyed: true}) // another run holds it
				mustDo(t, err)
				t.Cleanup(func() { st.Close() })
				return []string{"run", "--db", db, "-"}, "job clicks\nset sink table\nrun 100\n"
			}},
		{name: "files/db-with-log-sink", code: 0, has: []string{"was not written", "log sink"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				return []string{"run", "--db", filepath.Join(dir, "x.db"), "-"}, "job clicks\nrun 100\n"
			}},
		{name: "files/dump-source-over-script", code: 2, has: []string{"exists; use --force"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				p := filepath.Join(dir, "s.lab")
				mustDo(t, os.WriteFile(p, []byte("job clicks\nrun 100\n"), 0o600))
				return []string{"run", "--dump-source", p, p}, ""
			},
			check: func(t *testing.T, dir string, r result) {
				b, _ := os.ReadFile(filepath.Join(dir, "s.lab"))
				if string(b) != "job clicks\nrun 100\n" {
					t.Errorf("the script was overwritten: %q", b)
				}
			}},
		{name: "files/dump-source-forced-through-link", code: 0,
			setup: func(t *testing.T, dir string) ([]string, string) {
				link := filepath.Join(dir, "dump.jsonl")
				mustDo(t, os.Symlink(secretFile, link))
				return []string{"run", "--force", "--dump-source", link, "-"}, "job clicks\nrun 100\n"
			},
			check: func(t *testing.T, dir string, r result) {
				st, err := os.Lstat(filepath.Join(dir, "dump.jsonl"))
				if err != nil || !st.Mode().IsRegular() {
					t.Errorf("the link was not replaced by the dump: %v %v", st, err)
				}
			}},
		{name: "files/dump-source-directory", code: 2, has: []string{"is a directory"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				return []string{"run", "--force", "--dump-source", dir, "-"}, "job clicks\nrun 100\n"
			}},
		{name: "files/exercise-init-through-link", code: 2, has: []string{"symbolic link"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				mustDo(t, os.Symlink(filepath.Dir(secretFile), filepath.Join(dir, "gap-recovery")))
				return []string{"exercise", "init", "gap-recovery", "--dir", dir, "--force"}, ""
			}},
		{name: "files/exercise-init-existing", code: 2, has: []string{"use --force"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				mustDo(t, os.MkdirAll(filepath.Join(dir, "gap-recovery"), 0o755))
				mustDo(t, os.WriteFile(filepath.Join(dir, "gap-recovery", "answers.yaml"), []byte("mine"), 0o644))
				return []string{"exercise", "init", "gap-recovery", "--dir", dir}, ""
			},
			check: func(t *testing.T, dir string, r result) {
				if b, _ := os.ReadFile(filepath.Join(dir, "gap-recovery", "answers.yaml")); string(b) != "mine" {
					t.Errorf("the answer was overwritten: %q", b)
				}
			}},
		// Exit codes as documented: 1 for a failed job, 2 for the machine's
		// fault, said to be internal.
		{name: "exit/job-failed", code: 1, has: []string{"the job failed", "(failed, seed"},
			setup: scriptCase("job clicks\nset restart none\nkill count[0]\nrun 100\n")},
		{name: "exit/job-failed-as-expected", code: 0, has: []string{"(failed, seed"},
			setup: scriptCase("job clicks\nset restart none\nkill count[0]\nrun 100\nexpect job.state == failed\nreport\n")},
		{name: "exit/submission-failed", code: 1, has: []string{"job submission failed"}, lacks: []string{"invalid configuration"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				b, err := os.ReadFile("lessons/content/10-job-start/no-connector.yaml")
				mustDo(t, err)
				mustDo(t, os.WriteFile(filepath.Join(dir, "no-connector.yaml"), b, 0o644))
				p := filepath.Join(dir, "s.lab")
				mustDo(t, os.WriteFile(p, []byte("job no-connector.yaml\nrun 100\n"), 0o644))
				return []string{"run", p}, ""
			}},
		{name: "exit/no-tmpdir-run", code: 2, has: []string{"internal error", "not a problem with your input"}, lacks: []string{"invalid configuration"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				t.Setenv("TMPDIR", filepath.Join(dir, "nonexistent"))
				return []string{"run", "-"}, "job clicks\nset sink table\nrun 100\n"
			}},
		{name: "exit/no-tmpdir-grade", code: 2, has: []string{"internal error"}, lacks: []string{"did not pass"},
			setup: func(t *testing.T, dir string) ([]string, string) {
				ans := referenceAnswers(t)
				t.Setenv("TMPDIR", filepath.Join(dir, "nonexistent"))
				return []string{"grade", "--answers", ans}, ""
			}},
		// A replayed event at the end of int64 once wrapped window
		// assignment round into a loop no signal stopped.
		{name: "input/event-time-max", code: 2, has: []string{"events.jsonl:2: time 9223372036854775807 is outside"},
			setup: replayCase(`{"id":1,"time":1000,"action":"open"}` + "\n" + `{"id":2,"time":9223372036854775807,"action":"open"}` + "\n")},
		{name: "input/event-time-near-min", code: 2, has: []string{"events.jsonl:1: time -9223372036854775000 is outside"},
			setup: replayCase(`{"id":1,"time":-9223372036854775000,"action":"open"}` + "\n")},
		{name: "script/dev-zero", code: 2, has: []string{"/dev/zero:1: line is longer than 4096 bytes"}, limit: 10 * time.Second, maxAlloc: 16 << 20,
			setup: func(t *testing.T, dir string) ([]string, string) {
				return []string{"run", "/dev/zero"}, ""
			}},
	}
}

// replayCase runs a job that replays events through a window count.
func replayCase(events string) func(t *testing.T, dir string) ([]string, string) {
	return func(t *testing.T, dir string) ([]string, string) {
		job := "name: replay\nsource:\n  file: events.jsonl\noperators:\n  - name: parse\n    kind: parse\n  - name: count\n    kind: window-count\n    window: 10s\n"
		mustDo(t, os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(job), 0o644))
		mustDo(t, os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(events), 0o644))
		p := filepath.Join(dir, "s.lab")
		mustDo(t, os.WriteFile(p, []byte("job job.yaml\nrun 10\n"), 0o644))
		return []string{"run", p}, ""
	}
}

// TestMain lets a test run this binary as streamlab itself, to send it
// real signals. The tests run from the repository root, where the paths
// they name (exercises/testdata, lessons/content, README.md) are, as a
// learner runs streamlab from a checkout.
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("BE_STREAMLAB_MAIN") == "1":
		os.Exit(Main(Build{}, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	case os.Getenv("STREAMLAB_TEST_PROCESS") == "1":
		// streamlab for TestCIFiles' scripts (TestStreamlabProcess): it
		// stays in the directory the script runs it in.
	default:
		if err := os.Chdir(".."); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}

// startStreamlab starts this test binary as streamlab with args.
func startStreamlab(t *testing.T, stdin io.Reader, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "BE_STREAMLAB_MAIN=1")
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errOut
	mustDo(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, &out, &errOut
}

// waitReading waits until cmd is blocked reading its standard input, which
// streamlab does only after it has installed its signal handlers (Go's
// runtime catches SIGINT from the start, so /proc's SigCgt cannot tell).
// Linux shows each thread's system call in /proc/PID/task/TID/syscall.
func waitReading(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	read := map[string]string{"amd64": "0 0x0 ", "arm64": "63 0x0 "}[runtime.GOARCH]
	if read == "" {
		time.Sleep(time.Second) // no way to look: give it time
		return
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", cmd.Process.Pid))
		if err != nil || len(tasks) == 0 {
			t.Skipf("cannot tell when the process reads its input: no /proc (%v)", err)
		}
		for _, p := range tasks {
			if b, err := os.ReadFile(p); err == nil && strings.HasPrefix(string(b), read) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the process never read its standard input")
}

// waitExit waits at most limit for cmd and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		t.Fatalf("still running %v after the signal; stderr: %s", limit, cmd.Stderr)
	}
	return -1
}

func TestSignalStopsRunWithReport(t *testing.T) {
	isolate(t)
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		pr, pw, err := os.Pipe()
		mustDo(t, err)
		cmd, out, errOut := startStreamlab(t, pr, "run", "-")
		waitReading(t, cmd) // the handlers are in place
		_, err = pw.WriteString("job passthrough\nrun 10000000\nrun 10000000\n")
		mustDo(t, err)
		pw.Close()
		pr.Close()
		time.Sleep(300 * time.Millisecond) // into the run
		mustDo(t, cmd.Process.Signal(sig))
		if code := waitExit(t, cmd, 2*time.Second); code != exitBadInput {
			t.Errorf("%v: exit %d, want %d; stderr %s", sig, code, exitBadInput, errOut)
		}
		if !strings.HasPrefix(out.String(), "interrupted") || !strings.Contains(out.String(), "passthrough") {
			t.Errorf("%v: no report so far on stdout:\n%s", sig, out)
		}
	}
}

func TestSecondSignalExitsAtOnce(t *testing.T) {
	isolate(t)
	pr, pw, err := os.Pipe() // standard input that never ends: nothing checks the context there
	mustDo(t, err)
	defer pw.Close()
	defer pr.Close()
	cmd, _, errOut := startStreamlab(t, pr, "run", "-")
	waitReading(t, cmd)
	mustDo(t, cmd.Process.Signal(os.Interrupt))
	time.Sleep(200 * time.Millisecond)
	if cmd.ProcessState != nil {
		t.Fatal("exited on the first signal while reading standard input")
	}
	mustDo(t, cmd.Process.Signal(os.Interrupt))
	if code := waitExit(t, cmd, 2*time.Second); code != exitBadInput {
		t.Errorf("exit %d, want %d; stderr %s", code, exitBadInput, errOut)
	}
}

// sqlExec runs statements on the SQLite database at path.
func sqlExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	mustDo(t, err)
	defer db.Close()
	for _, q := range stmts {
		_, err := db.Exec(q)
		mustDo(t, err)
	}
}

// sqlCount runs a count query on the database at path.
func sqlCount(t *testing.T, path, q string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	mustDo(t, err)
	defer db.Close()
	var n int
	mustDo(t, db.QueryRow(q).Scan(&n))
	return n
}

// scriptCase runs text as a lab script from standard input.
func scriptCase(text string) func(t *testing.T, dir string) ([]string, string) {
	return func(t *testing.T, dir string) ([]string, string) {
		return []string{"run", "-"}, text
	}
}

// answerCase grades exercise id with text as its answer file name.
func answerCase(id, name, text string) func(t *testing.T, dir string) ([]string, string) {
	return func(t *testing.T, dir string) ([]string, string) {
		ans := filepath.Join(dir, "answers")
		mustDo(t, os.MkdirAll(filepath.Join(ans, id), 0o755))
		mustDo(t, os.WriteFile(filepath.Join(ans, id, name), []byte(text), 0o644))
		return []string{"grade", id, "--answers", ans}, ""
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
