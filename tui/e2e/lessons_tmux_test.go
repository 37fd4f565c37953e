package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// binary builds streamlab once for the tmux tests.
func binary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "streamlab-e2e-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "streamlab")
		if out, err := exec.Command("go", "build", "-o", builtBin, "github.com/streamlab/streamlab").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// startLesson opens `streamlab lesson id` in a w×h tmux pane with a home
// of its own (fresh progress), and returns the pane's driver.
func startLesson(t *testing.T, id string, w, h int) tmux {
	bin := binary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	exitFile := filepath.Join(dir, "exit")
	x := tmux{t: t, socket: fmt.Sprintf("streamlab-e2e-%d-%s", os.Getpid(), id), exitFile: exitFile}
	t.Cleanup(func() { x.run("kill-server") })
	shell := fmt.Sprintf("cd %q && XDG_CONFIG_HOME=%q XDG_STATE_HOME=%q HOME=%q TERM=xterm-256color %q lesson %s 2>%q; echo $? > %q",
		dir, home, home, home, bin, id, exitFile+".stderr", exitFile)
	x.must("new-session", "-d", "-s", "lab", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "sh", "-c", shell)
	return x
}

// typeLine types one lab-script line into the palette, as a learner does.
func (x tmux) typeLine(line string) {
	x.t.Helper()
	x.must("send-keys", "-t", "lab", ":")
	x.waitScreen("the palette", regexp.MustCompile(`(?m)^:`))
	x.must("send-keys", "-t", "lab", "-l", line)
	x.must("send-keys", "-t", "lab", "Enter")
	// The palette closes and the line is echoed (on the message line, or
	// in the events pane when the engine's answer came after it).
	prompt := regexp.MustCompile(`(?m)^:`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		screen, _ := x.run("capture-pane", "-p", "-t", "lab")
		if !prompt.MatchString(screen) && strings.Contains(screen, "> "+strings.Fields(line)[0]) {
			break
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the palette did not take %q:\n%s", line, screen)
		}
	}
	time.Sleep(150 * time.Millisecond)
}

// goOn presses n, the key to go on from a step done, and waits for the
// step that comes next (its heading in the lesson pane).
func (x tmux) goOn(heading string) {
	x.t.Helper()
	x.must("send-keys", "-t", "lab", "n")
	x.waitScreen(heading, regexp.MustCompile(regexp.QuoteMeta(heading)))
}

// waitFor is waitScreen with a longer patience, for runs that play in
// virtual time at ×1.
func (x tmux) waitFor(what string, re *regexp.Regexp, patience time.Duration) string {
	x.t.Helper()
	deadline := time.Now().Add(patience)
	var screen string
	for time.Now().Before(deadline) {
		screen, _ = x.run("capture-pane", "-p", "-t", "lab")
		if re.MatchString(screen) {
			return screen
		}
		time.Sleep(100 * time.Millisecond)
	}
	x.t.Fatalf("waited %s for %s; the screen was:\n%s", patience, what, screen)
	return ""
}

// waitUntil polls the pane until ok says yes.
func (x tmux) waitUntil(what string, patience time.Duration, ok func(string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(patience)
	var screen string
	for time.Now().Before(deadline) {
		screen, _ = x.run("capture-pane", "-p", "-t", "lab")
		if ok(screen) {
			return screen
		}
		time.Sleep(100 * time.Millisecond)
	}
	x.t.Fatalf("waited %s for %s; the screen was:\n%s", patience, what, screen)
	return ""
}

// reportValue pages through the report overlay (already open) until
// section.field shows, and returns its value.
func (x tmux) reportValue(section, field string) string {
	x.t.Helper()
	x.must("send-keys", "-t", "lab", "Home")
	re := regexp.MustCompile(`(?:^|\s)` + regexp.QuoteMeta(field) + `\s+(\S+)`)
	for range 12 {
		screen, _ := x.run("capture-pane", "-p", "-t", "lab")
		// The field's section is the last heading above it.
		sec := ""
		for _, l := range strings.Split(screen, "\n") {
			body := strings.Trim(l, "│┃ ")
			if regexp.MustCompile(`^[a-z]+$`).MatchString(body) {
				sec = body
			}
			if m := re.FindStringSubmatch(l); m != nil && sec == section {
				return m[1]
			}
		}
		x.must("send-keys", "-t", "lab", "PageDown")
		time.Sleep(150 * time.Millisecond)
	}
	screen, _ := x.run("capture-pane", "-p", "-t", "lab")
	x.t.Fatalf("%s.%s not found in the report overlay:\n%s", section, field, screen)
	return ""
}

// TestLessonThreeInTmux follows lesson 3 as a student does, typing only
// what the lesson says and going on with n once a step is done: without a
// restart strategy the job fails; with one it sees count[1] go down while
// run 3000 plays, count down to the restart and come back, with step 2's
// text on screen the whole run and ticked off once it ends; it reads
// lost_in_flight and sink.lost from the report overlay after count[1]'s
// failure and after parse's, and answers the check with what it read.
func TestLessonThreeInTmux(t *testing.T) {
	x := startLesson(t, "3", 120, 40)
	x.waitScreen("lesson 3", regexp.MustCompile(`Lesson 3 · step 1/`))
	// Step 1: nothing configured, no checkpoints: the first failure fails
	// the job.
	for _, line := range []string{"job clicks", "set semantics at-most-once", "kill count[1] at 1200", "run 3000"} {
		x.typeLine(line)
	}
	x.must("send-keys", "-t", "lab", "+", "+", "+")
	x.waitFor("step 1 done", regexp.MustCompile(`✓ 1 Nothing configured`), 40*time.Second)
	x.goOn("Step 2 of ")
	x.must("send-keys", "-t", "lab", "-", "-", "-")
	x.waitScreen("×1", regexp.MustCompile(`×1 `))
	for _, line := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill count[1] at 1200", "run 3000"} {
		x.typeLine(line)
	}
	start := time.Now()
	playing := x.waitScreen("the run playing", regexp.MustCompile(`▶ run to 0:29\.9`))
	if strings.Contains(playing, "restarting") || strings.Contains(playing, "KILLED") {
		t.Errorf("a node is down as the run starts:\n%s", playing)
	}
	// count[1] fails, and its region, the whole job, restarts.
	down := x.waitFor("count[1] down", regexp.MustCompile(`KILLED|◐ restarting`), 40*time.Second)
	if !strings.Contains(down, "▶ run to") {
		t.Errorf("count[1] was seen down only after the run ended:\n%s", down)
	}
	countdown := regexp.MustCompile(`◐ restarting[\s\S]*\d\.\ds`)
	counting := x.waitUntil("the restart countdown beside step 2", 5*time.Second, func(s string) bool {
		return countdown.MatchString(s) && strings.Contains(s, "Step 2 of ")
	})
	if !strings.Contains(counting, "▶ run to") || strings.Contains(counting, "✓ done") {
		t.Errorf("while count[1] is down and the run plays the lesson does not show step 2, still to be judged:\n%s", counting)
	}
	back := x.waitUntil("count[1] back", 15*time.Second, func(s string) bool {
		return !strings.Contains(s, "◐ restarting") && !strings.Contains(s, "KILLED")
	})
	if !strings.Contains(back, "▶ run to") || !strings.Contains(back, "1 failure") {
		t.Errorf("count[1] was not seen back while the run played:\n%s", back)
	}
	x.waitFor("the run's end", regexp.MustCompile(`run finished at t 0:29\.9`), 30*time.Second)
	if took := time.Since(start); took < 20*time.Second {
		t.Errorf("run 3000 (30 s of virtual time at ×1) took %s of wall time", took)
	}
	x.waitFor("step 2 ticked off after its run", regexp.MustCompile(`Step 2 of [\s\S]*✓ done · n goes on`), 5*time.Second)
	// Step 3's restart happened in that run: going on finds it done.
	x.goOn("Step 3 of ")
	// The next steps at ×8: eight + from ×1.
	x.must("send-keys", "-t", "lab", "+", "+", "+")
	x.waitScreen("×8", regexp.MustCompile(`×8`))
	x.typeLine("run 10s")
	x.waitFor("run 10s played", regexp.MustCompile(`run finished at t 0:39\.9`), 15*time.Second)
	x.goOn("Step 4 of ")
	x.typeLine("run 30s")
	x.waitFor("run 30s played and the steps done", regexp.MustCompile(`run finished at t 1:09\.9`), 20*time.Second)
	x.waitFor("step 4 done", regexp.MustCompile(`✓ 4 A permanent gap`), 5*time.Second)

	// What count[1]'s failure cost, read from the report overlay.
	x.must("send-keys", "-t", "lab", "R")
	x.waitScreen("the report overlay", regexp.MustCompile(`Report at t`))
	cntInFlight, err1 := strconv.Atoi(x.reportValue("recovery", "lost_in_flight"))
	cntLost, err2 := strconv.Atoi(x.reportValue("sink", "lost"))
	// Both show, and something was lost; the answer below is picked by
	// what the screen shows, as the check's options are.
	if err1 != nil || err2 != nil || cntInFlight <= 0 || cntLost <= 0 {
		t.Fatalf("read lost_in_flight %d (%v) and sink.lost %d (%v) from the screen", cntInFlight, err1, cntLost, err2)
	}
	x.must("send-keys", "-t", "lab", "R")
	x.waitUntil("the report closed", 5*time.Second, func(s string) bool { return !strings.Contains(s, "Report at t") })

	// Step 5: parse, which holds no state, killed at the same point.
	x.goOn("Step 5 of ")
	for _, line := range []string{"job clicks", "set semantics at-most-once", "set restart exponential-delay", "kill parse at 1200", "run 3000"} {
		x.typeLine(line)
	}
	x.waitFor("run 3000 played", regexp.MustCompile(`run finished at t 0:29\.9`), 15*time.Second)
	x.typeLine("run 30s")
	x.waitFor("run 30s played", regexp.MustCompile(`run finished at t 0:59\.9`), 20*time.Second)
	x.waitFor("every step done", regexp.MustCompile(`✓ 5 A node without state`), 5*time.Second)
	x.must("send-keys", "-t", "lab", "R")
	x.waitScreen("the report overlay", regexp.MustCompile(`Report at t`))
	prsInFlight, err1 := strconv.Atoi(x.reportValue("recovery", "lost_in_flight"))
	prsLost, err2 := strconv.Atoi(x.reportValue("sink", "lost"))
	if err1 != nil || err2 != nil || prsLost <= 0 {
		t.Fatalf("read lost_in_flight %d (%v) and sink.lost %d (%v) from the screen", prsInFlight, err1, prsLost, err2)
	}
	x.must("send-keys", "-t", "lab", "R")
	x.waitUntil("the report closed", 5*time.Second, func(s string) bool { return !strings.Contains(s, "Report at t") })

	// The check's options, by what the screen showed (the played runs are
	// the check's own, same seed): the first whose condition holds, in the
	// lesson's order. Each compares what a run lost beyond what was in
	// flight.
	cntBeyond, prsBeyond := cntLost-cntInFlight, prsLost-prsInFlight
	choice := ""
	for i, holds := range []bool{
		cntBeyond >= prsBeyond && prsBeyond > 0,
		prsBeyond > cntBeyond && prsBeyond > 0,
		prsBeyond <= 0 && cntBeyond > 0,
		cntBeyond <= 0 && prsBeyond <= 0,
	} {
		if holds && choice == "" {
			choice = strconv.Itoa(i + 1)
		}
	}
	if choice == "" {
		t.Fatalf("no option fits what the screen showed: count[1] %d/%d, parse %d/%d", cntLost, cntInFlight, prsLost, prsInFlight)
	}
	x.must("send-keys", "-t", "lab", "a")
	x.waitScreen("the check's question", regexp.MustCompile(`(?m)answer`))
	x.must("send-keys", "-t", "lab", "-l", choice)
	x.must("send-keys", "-t", "lab", "Enter")
	x.waitScreen("the verdict", regexp.MustCompile(`✓ right`))
}

// TestLessonFiveInTmux plays lesson 5's small Bloom filter as a student
// types it and sees the filter fill up and its false drops rise on
// successive screens while the run plays.
func TestLessonFiveInTmux(t *testing.T) {
	x := startLesson(t, "5", 120, 40)
	x.waitScreen("lesson 5", regexp.MustCompile(`Lesson 5 · step 1/`))
	for _, line := range []string{"job passthrough", "set mode append", "set semantics at-least-once",
		"set filter bloom m=512 k=3", "kill filter at 1200", "run 3000"} {
		x.typeLine(line)
	}
	fillRE := regexp.MustCompile(`fill [▰▱]+ (\d+\.\d)%`)
	dropsRE := regexp.MustCompile(`false drops (\d+)`)
	var fills []float64
	var drops []int
	for len(fills) < 3 {
		screen := x.waitFor("the filter's numbers", regexp.MustCompile(`false drops \d+`), 10*time.Second)
		f, d := fillRE.FindStringSubmatch(screen), dropsRE.FindStringSubmatch(screen)
		if f == nil || d == nil || !strings.Contains(screen, "▶ run to") {
			time.Sleep(time.Second)
			continue
		}
		fv, _ := strconv.ParseFloat(f[1], 64)
		dv, _ := strconv.Atoi(d[1])
		if len(fills) == 0 || dv > drops[len(drops)-1] {
			fills, drops = append(fills, fv), append(drops, dv)
		}
		time.Sleep(1500 * time.Millisecond)
	}
	for i := 1; i < len(fills); i++ {
		if fills[i] < fills[i-1] || drops[i] <= drops[i-1] {
			t.Errorf("fill %v and false drops %v do not rise while the run plays", fills, drops)
		}
	}
	if drops[0] == 0 && fills[0] == 0 {
		t.Logf("first capture before the filter took anything: fill %v drops %v", fills, drops)
	}
}
