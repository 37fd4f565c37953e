package lab_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// events runs a script line by line in a session and returns its report
// and the restart-scheduled events' delays (ms) and the node-killed texts.
func events(t *testing.T, file, src string) (state string, delays []int64, killed []string, s *lab.Session) {
	t.Helper()
	s, evs := watch(t, file, src)
	for _, e := range evs {
		switch e.Kind {
		case bus.EventRestartScheduled:
			delays = append(delays, e.N)
		case bus.EventNodeKilled:
			killed = append(killed, e.Text)
		}
	}
	rep, err := s.Report()
	if err != nil {
		t.Fatal(err)
	}
	return rep.Job.State, delays, killed, s
}

// watch runs a script line by line in a session whose bus is watched from
// the job's start, and returns the session and every event published.
func watch(t *testing.T, file, src string) (*lab.Session, []bus.Event) {
	t.Helper()
	sc, err := script.Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := lab.NewSession(file, lab.Options{})
	t.Cleanup(func() { s.Close() })
	sub := s.Subscribe(1 << 16)
	for _, c := range sc.Commands {
		if err := s.Exec(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	evs, missed := sub.Drain()
	if missed > 0 {
		t.Fatalf("missed %d events", missed)
	}
	return s, evs
}

// A task that throws keeps its task manager: it restarts after the restart
// strategy's backoff alone, while a lost task manager waits for the
// resource manager's new one as well. Both are told apart in the events
// and the report.
func TestFailWaitsForTheBackoffKillForTheTaskManager(t *testing.T) {
	const prelude = "job clicks\nset semantics exactly-once\nset restart exponential-delay jitter=0\nset deployment managed provision=5s\nrun 500\n"
	_, delays, killed, s := events(t, "fail.lab", prelude+"fail count[1]\nrun 30s\n")
	if !slices.Equal(delays, []int64{1000}) || len(killed) != 1 || !strings.Contains(killed[0], "task manager and slot stay") {
		t.Fatalf("fail: delays %v, events %q", delays, killed)
	}
	if rep, _ := s.Report(); rep.Recovery.TaskFailures != 1 || rep.Recovery.TaskManagersLost != 0 || rep.Recovery.DowntimeMS != 1000 {
		t.Fatalf("fail: recovery %+v", rep.Recovery)
	}
	_, delays, killed, s = events(t, "kill.lab", prelude+"kill count[1]\nrun 30s\n")
	if !slices.Equal(delays, []int64{5000}) || len(killed) != 1 || !strings.Contains(killed[0], "task manager is lost") {
		t.Fatalf("kill: delays %v, events %q", delays, killed)
	}
	if rep, _ := s.Report(); rep.Recovery.TaskFailures != 0 || rep.Recovery.TaskManagersLost != 1 || rep.Recovery.DowntimeMS != 5000 {
		t.Fatalf("kill: recovery %+v", rep.Recovery)
	}
}

// Lesson 10's job without its driver fails its sink task at every open: a
// task failure, so with checkpointing on and nothing configured
// (exponential-delay) the waits grow as Flink's
// ExponentialDelayRestartBackoffTimeStrategy's, 1000, 1500, 2250 ms with
// jitter 0 and within 10 % of them with the default jitter, and no
// provisioning delay is added.
func TestMissingDriverRestartsAsFlink(t *testing.T) {
	job := filepath.Join("..", "..", "lessons", "content", "10-job-start", "no-driver.yaml")
	want := []int64{1000, 1500, 2250, 3375, 5062, 7593}
	for _, jitter := range []string{"", "set restart exponential-delay jitter=0\n"} {
		state, delays, killed, _ := events(t, "driver.lab", "job "+job+"\nset sink table\nset semantics exactly-once\nset deployment managed provision=5s\n"+jitter+"run 3000\n")
		if state != "running" || len(delays) < len(want) || !strings.Contains(killed[0], "ClassNotFoundException") || !strings.Contains(killed[0], "task failure") {
			t.Fatalf("jitter %q: state %s, delays %v, events %q", jitter, state, delays, killed)
		}
		for i, w := range want {
			d := delays[i]
			if jitter != "" && d != w || jitter == "" && (d < w-w/10 || d > w+w/10 || d < 1000) {
				t.Errorf("jitter %q: wait %d is %d ms, want %d (delays %v)", jitter, i+1, d, w, delays)
			}
		}
	}
}

// Without checkpoints and with nothing configured the missing driver's
// first failure fails the job (NoRestartBackoffTimeStrategy), and job.error
// names the class.
func TestMissingDriverWithoutCheckpointsFailsTheJob(t *testing.T) {
	job := filepath.Join("..", "..", "lessons", "content", "10-job-start", "no-driver.yaml")
	_, _, _, s := events(t, "driver.lab", "job "+job+"\nset sink table\nrun 3000\n")
	rep, _ := s.Report()
	if rep.Job.State != "failed" || rep.Recovery.Failures != 1 || !strings.Contains(rep.Job.Error, "ClassNotFoundException: com.mysql.cj.jdbc.Driver") ||
		!strings.Contains(rep.Job.Error, "recovery is suppressed by NoRestartBackoffTimeStrategy") {
		t.Fatalf("state %s, failures %d, error %q", rep.Job.State, rep.Recovery.Failures, rep.Job.Error)
	}
}

// A lost task manager on a standalone cluster that nobody replaces: Flink
// restarts after the backoff, the task waits for a slot, and after
// slot.request.timeout the request fails with NoResourceAvailableException,
// a failure the strategy counts. fixed-delay attempts=1 fails the job about
// five minutes after the kill; exponential-delay cycles for ever; a task
// manager started in time (restart NODE) brings the task back.
func TestStandaloneSlotRequestTimesOut(t *testing.T) {
	const prelude = "job clicks\nset semantics exactly-once\nset deployment standalone\nset source.rate 10\nrun 500\n"
	for _, c := range []struct {
		name, restart, after string
		state                string
		timeouts             int64
	}{
		{"fixed-delay", "set restart fixed-delay attempts=1\n", "run 20m\n", "failed", 1},
		{"exponential-delay", "set restart exponential-delay jitter=0\n", "run 20m\n", "running", 3},
		{"a new task manager", "set restart fixed-delay attempts=1\n", "run 2m\nrestart count[1]\nrun 20m\n", "running", 0},
		{"a shorter timeout", "set restart fixed-delay attempts=2\nset slot.request.timeout 30s\n", "run 2m\n", "failed", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(prelude, "run 500\n", c.restart+"run 500\nkill count[1]\n"+c.after, 1)
			rep := runIn(t, t.TempDir(), src, lab.Options{})
			r := rep.Recovery
			if rep.Job.State != c.state || r.SlotTimeouts != c.timeouts || r.TaskManagersLost != 1 {
				t.Fatalf("state %s (%s), recovery %+v", rep.Job.State, rep.Job.Error, r)
			}
			if c.state == "failed" && !strings.Contains(rep.Job.Error, "NoResourceAvailableException: Could not acquire the minimum required resources.") {
				t.Fatalf("error %q", rep.Job.Error)
			}
			if c.state == "running" && c.timeouts == 0 && r.Restarts != 1 {
				t.Fatalf("the new task manager brought no restart: %+v", r)
			}
		})
	}
}
