package tui

import (
	"testing"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/tui/bridge"
)

// openers open each overlay that a key reaches on the sandbox, by its
// state rather than its key, so that any two can be open at once.
var openers = map[string]func(*Model){
	"palette":      func(m *Model) { m.palette.Open() },
	"leave":        func(m *Model) { m.askLeave() },
	"picker":       func(m *Model) { m.openPicker("mode") },
	"confirm":      func(m *Model) { m.confirm = "set mode update" },
	"targets":      func(m *Model) { m.openTargets(script.VerbRestart) },
	"kill":         func(m *Model) { m.killing = "count[0]" },
	"runs":         func(m *Model) { m.runs.Open(-1) },
	"report":       func(m *Model) { m.openReport() },
	"help":         func(m *Model) { m.showHelp = true },
	"eventsScreen": func(m *Model) { m.openEventsScreen() },
}

// Whichever two overlays are open, the one that takes the keys is the one
// whose keys the help bar shows: esc closes the upper one and leaves the
// lower open, and the help bar then shows the lower one's keys.
func TestTheOverlayOnTopHasTheKeysTheHelpBarShows(t *testing.T) {
	s := newSession(t, "clicks")
	stack := allOverlays()
	for i, upper := range stack {
		for _, lower := range stack[i+1:] {
			if openers[upper.name] == nil || openers[lower.name] == nil {
				continue
			}
			t.Run(upper.name+"/"+lower.name, func(t *testing.T) {
				m, _ := labModel(t, 120, 40, s)
				openers[lower.name](&m)
				lowerBar := m.helpBar(m.activeKeys())
				openers[upper.name](&m)
				if top := m.overlays()[0].name; top != upper.name {
					t.Fatalf("on top: %s, want %s", top, upper.name)
				}
				if upper.keys != nil && m.helpBar(m.activeKeys()) != m.helpBar(upper.keys(m)) {
					t.Fatalf("over %s the help bar does not show %s's keys:\n%s", lower.name, upper.name, plain(m.helpBar(m.activeKeys())))
				}
				m, _ = press(t, m, "esc")
				if upper.open(m) || !lower.open(m) {
					t.Fatalf("esc: %s open %v, %s open %v; want only %s closed", upper.name, upper.open(m), lower.name, lower.open(m), upper.name)
				}
				if got := m.helpBar(m.activeKeys()); got != lowerBar {
					t.Errorf("with %s closed the help bar shows\n%s\nwant\n%s", upper.name, plain(got), plain(lowerBar))
				}
			})
		}
	}
}

// A key that is the lab's (. steps the run) reaches the lab only when no
// overlay takes it: the events screen lets it through, the others keep it.
func TestAnOverlayKeepsTheLabsKeys(t *testing.T) {
	s := newSession(t, "clicks")
	for _, o := range allOverlays() {
		open := openers[o.name]
		if open == nil {
			continue
		}
		t.Run(o.name, func(t *testing.T) {
			m, eng := labModel(t, 120, 40, s)
			open(&m)
			eng.reqs = nil
			m, _ = press(t, m, ".")
			stepped := false
			for _, r := range eng.reqs {
				stepped = stepped || r.Kind == bridge.StepOne
			}
			if want := o.name == "eventsScreen"; stepped != want {
				t.Errorf(". under the %s: stepped %v, want %v", o.name, stepped, want)
			}
		})
	}
}
