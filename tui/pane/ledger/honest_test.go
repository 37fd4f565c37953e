package ledger

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/styles"
)

var (
	lostRow    = regexp.MustCompile(`lost\s+(\S+)`)
	correctRow = regexp.MustCompile(`correct\s+(✓ yes|✗ no)`)
)

// shown reads the lost count and the verdict off the drawn pane.
func shown(t *testing.T, view string) (lost, correct string) {
	t.Helper()
	l, c := lostRow.FindStringSubmatch(view), correctRow.FindStringSubmatch(view)
	if l == nil || c == nil {
		t.Fatalf("no lost or correct row in\n%s", view)
	}
	return l[1], c[1]
}

// playFrames plays lines in a lab on job as the program does — a bridge
// ticked 30 times a second of a manual clock, at speed 1 — and hands the pane, fed each
// frame, to each until the run has played out; it returns how many frames
// carried a ledger.
func playFrames(t *testing.T, job string, lines []string, each func(view string)) int {
	t.Helper()
	return playSized(t, job, lines, 44, 12, each)
}

// playTall is playFrames in a pane tall enough for the chart.
func playTall(t *testing.T, job string, lines []string, each func(view string)) int {
	t.Helper()
	return playSized(t, job, lines, 60, 30, each)
}

// playSized is playFrames with a pane of w×h.
func playSized(t *testing.T, job string, lines []string, w, h int, each func(view string)) int {
	t.Helper()
	return playWatching(t, job, lines, w, h, func(_ bridge.Frame, view string) { each(view) })
}

// playWatching is playSized handing each the frame the pane was fed too.
func playWatching(t *testing.T, job string, lines []string, w, h int, each func(f bridge.Frame, view string)) int {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	b, err := bridge.New(bridge.Options{Job: job, Seed: 1, Speed: 1, Running: true, Clock: bridge.NewManualClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range lines {
		b.Handle(bridge.Request{Kind: bridge.Line, Line: line})
		for _, r := range b.Frame().Results {
			if r.Err != "" {
				t.Fatalf("%s: %s", line, r.Err)
			}
		}
	}
	m := New(styles.New(styles.Mono))
	m.SetSize(w, h)
	frames := 0
	at := t0
	b.Tick(at)
	for i := 0; i == 0 || b.Playing(); i++ {
		if i > 20_000 {
			t.Fatal("the run did not end")
		}
		at = at.Add(time.Second / 30)
		b.Tick(at)
		f := b.Frame()
		m.SetFrame(f)
		if f.Snap.HasLedger && f.Started {
			frames++
			each(f, ansi.Strip(m.View()))
		}
	}
	return frames
}

// Every built-in job under every semantics, with no failure, shows lost 0
// and correct ✓ on every frame of the lab: a transaction not yet
// committed, a batch flushed at a barrier, records still in flight are
// not losses.
func TestFailureFreeRunShowsNothingLostOnEveryFrame(t *testing.T) {
	semantics := [][]string{
		{"set semantics at-most-once"},
		{"set semantics at-least-once"},
		{"set semantics exactly-once"},
		{"set sink table", "set semantics exactly-once"},
	}
	for _, job := range []string{"clicks", "passthrough", "passwords"} {
		for _, set := range semantics {
			t.Run(job+"/"+strings.Join(set, ","), func(t *testing.T) {
				lines := append(append([]string{}, set...), "run 3000")
				n := playFrames(t, job, lines, func(view string) {
					if lost, correct := shown(t, view); lost != "0" || correct != "✓ yes" {
						t.Fatalf("lost %s, correct %s:\n%s", lost, correct, view)
					}
				})
				if n < 10 {
					t.Fatalf("%d frames with a ledger: the run was not watched", n)
				}
			})
		}
	}
}

// What recovery still owes and what a transaction holds are drawn beside
// expected, not as lost; a failed job is not correct, whatever it lacks.
func TestPaneShowsOwedAndUncommittedApartFromLost(t *testing.T) {
	m := New(styles.New(styles.Mono))
	m.SetSize(60, 12)
	f := frame()
	f.Snap.Ledger = engine.LedgerTotals{Delivered: 600, Unique: 600, Expected: 1000, Owed: 400, Uncommitted: 30}
	m.SetFrame(f)
	v := ansi.Strip(m.View())
	if lost, correct := shown(t, v); lost != "0" || correct != "✗ no" {
		t.Errorf("lost %s, correct %s", lost, correct)
	}
	for _, want := range []string{"400 owed", "30 uncommitted", "recovery still owes"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	// A pane too narrow to say it beside expected says it on a line of
	// its own, as a lesson's 26-column ledger is.
	m.SetSize(26, 12)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "400 owed") {
		t.Errorf("a narrow pane hides what is owed:\n%s", v)
	}
	m.SetSize(60, 12)
	f.Snap.State, f.Snap.Ledger = engine.StateFailed, engine.LedgerTotals{}
	m.SetFrame(f)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "✗ no") || !strings.Contains(v, "the job failed") {
		t.Errorf("a failed job:\n%s", v)
	}
}

var chartLostRow = regexp.MustCompile(`^│lost\s+│`)

// chartLost reads the lost strip's scale — its largest value — off a tall
// pane's chart: the line under the strip's name.
func chartLost(t *testing.T, view string) string {
	t.Helper()
	lines := strings.Split(view, "\n")
	for i, l := range lines[:len(lines)-1] {
		if chartLostRow.MatchString(l) {
			scale, _, _ := strings.Cut(strings.TrimPrefix(lines[i+1], "│"), "│")
			return strings.TrimSpace(scale)
		}
	}
	t.Fatalf("no lost strip in\n%s", view)
	return ""
}

// The lost figure and the chart's lost strip are one series: on every
// frame of runs that lose records and replay them, the strip's top is the
// figure (lost never goes back, so its largest value is its last).
func TestLostFigureIsTheLostStrip(t *testing.T) {
	for _, semantics := range []string{"at-most-once", "at-least-once", "exactly-once"} {
		t.Run(semantics, func(t *testing.T) {
			lines := []string{"set semantics " + semantics, "set restart fixed-delay attempts=3 delay=1s", "kill count[1] at 700", "run 3000"}
			var last string
			playTall(t, "clicks", lines, func(view string) {
				figure, _ := shown(t, view)
				if strip := chartLost(t, view); strip != figure {
					t.Fatalf("lost %s over a strip at %s:\n%s", figure, strip, view)
				}
				last = figure
			})
			if semantics == "at-most-once" && last == "0" {
				t.Error("gap recovery lost nothing: the strip was never tested against a loss")
			}
		})
	}
}

var owedAside = regexp.MustCompile(`(\S+) owed`)

// While the job has no leader (lesson 9: the job manager killed, a
// standby waiting out the 15 s lease) every task is cancelled and the
// source reads nothing, yet the failure-free job would go on delivering:
// the pane shows that work owed, growing, never lost, and the sink not
// correct; once the new leader has restored the job and replayed, nothing
// is owed and exactly once into the table is correct again.
func TestPaneShowsWorkOwedWhileTheJobHasNoLeader(t *testing.T) {
	lines := []string{"set sink table", "set semantics exactly-once", "set jobmanager.ha standby", "run 2500", "kill jobmanager", "run 20s"}
	var leaderless, owedFrames int
	var last string
	playWatching(t, "clicks", lines, 44, 12, func(f bridge.Frame, view string) {
		lost, correct := shown(t, view)
		if lost != "0" {
			t.Fatalf("lost %s at %d ms:\n%s", lost, f.ClockMS, view)
		}
		last = correct
		jm := f.Snap.JobManager
		if jm.State != engine.JobManagerNoLeader {
			return
		}
		leaderless++
		// The first second's trigger closes a batch the kill had closed.
		if f.ClockMS < jm.LeaseEndsMS-engine.DefaultLease.Milliseconds()+2000 {
			return
		}
		owed := owedAside.FindStringSubmatch(view)
		if owed == nil || correct != "✗ no" {
			t.Fatalf("%d ms before the lease runs out: nothing owed, or correct %s:\n%s", jm.LeaseEndsMS-f.ClockMS, correct, view)
		}
		owedFrames++
	})
	if leaderless < 30*10 || owedFrames == 0 {
		t.Fatalf("%d frames without a leader, %d of them owing: the lease was not watched", leaderless, owedFrames)
	}
	if last != "✓ yes" {
		t.Errorf("after the new leader caught up, correct %s", last)
	}
}
