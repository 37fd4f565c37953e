package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/styles"
)

func mono() *styles.Styles { return styles.New(styles.ByName("mono", false)) }

func frame() bridge.Frame {
	return bridge.Frame{Started: true, ClockMS: 61_500, Settings: map[string]string{
		"job": "clicks", "mode": "update", "sink": "log", "semantics": "exactly-once", "ha": "none", "filter": "none",
	}}
}

// The bar keeps the job, the guarantee, the time and the state however
// narrow it gets, and gives up the settings a learner needs least first.
func TestStatusBarDropsTheLeastNeededFirst(t *testing.T) {
	bar := NewStatusBar(mono())
	wide := ansi.Strip(bar.Line(frame(), true, 1, 160))
	for _, want := range []string{"streamlab", "job clicks", "mode update", "sink log", "sem exactly-once", "ha none", "filter none", "t 1:01", "⏸ paused"} {
		if !strings.Contains(wide, want) {
			t.Errorf("160 wide: %q missing from %q", want, wide)
		}
	}
	narrow := ansi.Strip(bar.Line(frame(), true, 1, 60))
	if got := ansi.StringWidth(narrow); got != 60 {
		t.Errorf("60 wide: the bar is %d wide", got)
	}
	for _, want := range []string{"job clicks", "sem exactly-once", "t 1:01", "⏸ paused"} {
		if !strings.Contains(narrow, want) {
			t.Errorf("60 wide: %q missing from %q", want, narrow)
		}
	}
	for _, gone := range []string{"streamlab", "filter none", "ha none"} {
		if strings.Contains(narrow, gone) {
			t.Errorf("60 wide: %q kept before what is needed more: %q", gone, narrow)
		}
	}
}

// A failed job says so whatever the lab's paused state, and the engine's
// guarantee wins over the one asked for, which is named beside it.
func TestStatusBarSaysWhatTheEngineSays(t *testing.T) {
	f := frame()
	f.Snap.State = engine.StateFailed
	f.Snap.Semantics, f.Snap.HA = "at-least-once", "upstream-backup"
	f.Note = "weaker than asked"
	got := ansi.Strip(NewStatusBar(mono()).Line(f, false, 1, 200))
	for _, want := range []string{"✗ failed", "sem at-least-once (asked exactly-once)", "ha upstream-backup"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q missing from %q", want, got)
		}
	}
}

// A fast-forwarded run shows how far it has got instead of where it ends,
// running or paused, and keeps it at 60 columns.
func TestStatusBarShowsAFastForwardsProgress(t *testing.T) {
	f := frame()
	f.Playing, f.PlayEndMS = true, 30_000
	f.Forwarding, f.ForwardDone, f.ForwardTotal = true, 1_234_567, 3_000_000
	bar := NewStatusBar(mono())
	for _, paused := range []bool{false, true} {
		want := "▶ finishing · 1.2M of 3.0M records"
		if paused {
			want = "⏸ finishing · 1.2M of 3.0M records"
		}
		if got := ansi.Strip(bar.Line(f, paused, bridge.Max, 60)); !strings.Contains(got, want) || strings.Contains(got, "run to") {
			t.Errorf("paused %v: %q, want %q", paused, got, want)
		}
	}
	f.Forwarding = false
	if got := ansi.Strip(bar.Line(f, false, 1, 60)); !strings.Contains(got, "▶ run to 0:30.0") {
		t.Errorf("a run played, not forwarded: %q", got)
	}
}

type keys []key.Binding

func (k keys) ShortHelp() []key.Binding  { return k }
func (k keys) FullHelp() [][]key.Binding { return [][]key.Binding{k} }

// The help bar draws again when a key is turned off or the width
// changes, never showing what it drew before.
func TestHelpBarFollowsItsKeys(t *testing.T) {
	b := NewHelpBar(mono())
	b.SetWidth(80)
	next := key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next step"))
	ks := keys{key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")), next}
	if got := ansi.Strip(b.Line(ks, 80)); !strings.Contains(got, "n next step") || ansi.StringWidth(got) != 80 {
		t.Errorf("with n: %q", got)
	}
	ks[1].SetEnabled(false)
	if got := ansi.Strip(b.Line(ks, 80)); strings.Contains(got, "next step") {
		t.Errorf("n turned off, still shown: %q", got)
	}
	b.SetWidth(40)
	if got := b.Line(ks, 40); ansi.StringWidth(got) != 40 {
		t.Errorf("40 wide: %d", ansi.StringWidth(got))
	}
}
