package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/tui/bridge"
)

// withoutChecks drops the pickers' questions to the engine from reqs.
func withoutChecks(reqs []bridge.Request) []bridge.Request {
	var out []bridge.Request
	for _, r := range reqs {
		if r.Kind != bridge.CheckChoices {
			out = append(out, r)
		}
	}
	return out
}

// A choice the engine would refuse with the other settings is shown
// disabled with the engine's reason, and cannot be chosen; a weaker
// guarantee shows its note in the picker and in the status bar.
func TestPickerRefusesWhatCannotRun(t *testing.T) {
	b, err := bridge.New(bridge.Options{Job: "clicks", Seed: 1, Speed: 1, Clock: bridge.NewManualClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	s := &session{b: b, at: t0}
	m, eng := labModel(t, 80, 24, s)
	m = lines(t, m, eng, s, "set semantics at-least-once")
	m, _ = press(t, m, "h")
	s.forward(eng)
	m.applyFrame(s.b.Frame())
	view := plain(m.View())
	checkSize(t, m.View(), 80, 24)
	if !strings.Contains(view, "▸ upstream-backup") || !strings.Contains(view, "✗ none") || !strings.Contains(view, "cannot run") {
		t.Fatalf("ha none is not shown refused:\n%s", view)
	}
	// The cursor starts on the current value (upstream-backup); up is none.
	m, _ = press(t, m, "up")
	view = strings.Join(strings.Fields(plain(m.View())), " ")
	if !strings.Contains(view, "at-least-once needs preserved input") {
		t.Errorf("the reason is not shown:\n%s", plain(m.View()))
	}
	m, _ = press(t, m, "enter")
	if !m.picker.Active() {
		t.Error("choosing a refused option closed the picker")
	}
	if r := withoutChecks(eng.reqs); len(r) != 0 {
		t.Errorf("a refused option was sent: %+v", r)
	}
	if msg, isErr := m.Message(); !isErr || !strings.Contains(msg, "cannot run") {
		t.Errorf("message %q (error %v)", msg, isErr)
	}
	m, _ = press(t, m, "esc", "e")
	s.forward(eng)
	m.applyFrame(s.b.Frame())
	m, _ = press(t, m, "down") // exactly-once: runs, with a note under the log sink
	view = strings.Join(strings.Fields(plain(m.View())), " ")
	if !strings.Contains(view, "! exactly-once asked, at-least-once in effect") {
		t.Errorf("the note on exactly-once with a log sink is not shown:\n%s", plain(m.View()))
	}
	m, _ = press(t, m, "enter")
	s.forward(eng)
	m = s.run(m, 200*time.Millisecond)
	if bar := plain(m.View()); !strings.Contains(strings.Split(bar, "\n")[0], "asked exactly-once") {
		t.Errorf("the status bar does not say the guarantee is weaker than asked:\n%s", bar)
	}
}

// The HA picker never recommends a scheme it marks ✗: under each
// guarantee, the reason shown for every refused scheme suggests only
// schemes the picker offers.
func TestHAPickerRecommendsOnlyWhatItOffers(t *testing.T) {
	for _, sem := range []string{"at-least-once", "exactly-once"} {
		b, err := bridge.New(bridge.Options{Job: "clicks", Seed: 1, Speed: 1, Clock: bridge.NewManualClock(t0)})
		if err != nil {
			t.Fatal(err)
		}
		s := &session{b: b, at: t0}
		m, eng := labModel(t, 120, 40, s)
		m = lines(t, m, eng, s, "set sink table", "set semantics "+sem)
		m, _ = press(t, m, "h")
		s.forward(eng)
		m.applyFrame(s.b.Frame())
		refused := map[string]bool{}
		var reasons []string
		for range options("ha") {
			view := strings.Join(strings.Fields(plain(m.View())), " ")
			for _, o := range options("ha") {
				if strings.Contains(view, "✗ "+o.Value+" ") {
					refused[o.Value] = true
				}
			}
			if _, why, ok := strings.Cut(view, "; use ha "); ok {
				reasons = append(reasons, why)
			}
			m, _ = press(t, m, "down")
		}
		if !refused["none"] || len(reasons) == 0 {
			t.Fatalf("%s: ha none is not shown refused with a suggestion:\n%s", sem, plain(m.View()))
		}
		for _, why := range reasons {
			suggested, _, _ := strings.Cut(why, " │")
			for ha := range refused {
				if strings.Contains(suggested, ha) {
					t.Errorf("%s: the picker recommends %s, which it marks ✗: %q", sem, ha, suggested)
				}
			}
		}
	}
}
