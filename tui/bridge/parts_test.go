package bridge

import (
	"slices"
	"testing"
	"time"
)

// A line inserted into the recording goes before the given line, numbers
// one more line, and leaves the lines a frame already took as they were.
func TestRecorderInsertLeavesSentFramesAlone(t *testing.T) {
	var r recorder
	r.begin([]string{"job clicks", "set seed 1"}, map[string]string{"job": "clicks"})
	r.add("run 1s")
	sent := r.shared()
	r.insert(r.last(), "kill count[0] at 5")
	if want := []string{"job clicks", "set seed 1", "kill count[0] at 5", "run 1s"}; !slices.Equal(r.lines, want) {
		t.Fatalf("recording %q, want %q", r.lines, want)
	}
	if want := []string{"job clicks", "set seed 1", "run 1s"}; !slices.Equal(sent, want) {
		t.Fatalf("a frame's recording became %q", sent)
	}
	if got, want := r.nextLine(), headerLines+5; got != want {
		t.Fatalf("next line %d, want %d", got, want)
	}
	sent = append(sent, "x") // a frame appending never writes into the recording
	r.add("run 2s")
	if r.lines[len(r.lines)-1] != "run 2s" || sent[len(sent)-1] != "x" {
		t.Fatalf("the frame and the recording share an array: %q / %q", r.lines, sent)
	}
}

// A new session forgets the quanta and the smooth clock but keeps the
// speed and the wall clock; a typed run gone with its session leaves the
// lab paused when it was before the run.
func TestPacerNewSessionKeepsPauseAndSpeed(t *testing.T) {
	at := time.Unix(100, 0)
	p := pacer{speed: 4}
	p.elapsed(at)
	p.clockMS, p.busy, p.typed, p.wasPaused = 5000, true, true, true
	p.newSession()
	if !p.paused || p.speed != 4 || p.busy || p.typed || p.clockMS != 0 {
		t.Fatalf("after a new session: %+v", p)
	}
	if dt := p.elapsed(at.Add(time.Second)); dt != maxTickGap {
		t.Fatalf("elapsed %v after the new session, want the wall clock kept (capped at %v)", dt, maxTickGap)
	}
	running := pacer{speed: 1}
	running.newSession()
	if running.paused {
		t.Fatal("a running lab paused on a new session")
	}
}

// The report rides every frame while time stands still, every few while it
// runs, and the frame after the overlay opens whatever its number.
func TestReportWatchDue(t *testing.T) {
	var w reportWatch
	w.start()
	if !w.due(false, 1) {
		t.Fatal("the first frame after opening the overlay has no report")
	}
	if w.due(false, 2) || !w.due(false, reportEvery) || !w.due(true, 3) {
		t.Fatal("the report's frames are not every few while running and every one while paused")
	}
}
