package tui

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/lessons"
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
	"help":         func(m *Model) { m.help.Open() },
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
				lowerBar := m.helpBar.Line(m.activeKeys(), m.w)
				openers[upper.name](&m)
				if top := m.overlays()[0].name; top != upper.name {
					t.Fatalf("on top: %s, want %s", top, upper.name)
				}
				if upper.keys != nil && m.helpBar.Line(m.activeKeys(), m.w) != m.helpBar.Line(upper.keys(m), m.w) {
					t.Fatalf("over %s the help bar does not show %s's keys:\n%s", lower.name, upper.name, plain(m.helpBar.Line(m.activeKeys(), m.w)))
				}
				m, _ = press(t, m, "esc")
				if upper.open(m) || !lower.open(m) {
					t.Fatalf("esc: %s open %v, %s open %v; want only %s closed", upper.name, upper.open(m), lower.name, lower.open(m), upper.name)
				}
				if got := m.helpBar.Line(m.activeKeys(), m.w); got != lowerBar {
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

// keyStates make screens on which a key may go somewhere different: the
// sandbox, each overlay open over it, a lesson, and the home screen with
// and without its help. Each call makes a fresh one: a pane may keep
// state that copies of a Model share.
func keyStates(t *testing.T) map[string]func() Model {
	t.Helper()
	s := newSession(t, "clicks")
	_, _, ls := lessonModel(t, "membership", 120, 40)
	lesson := func() Model {
		m := New(Options{Job: "clicks", Seed: 1, Speed: 1, Start: "lesson:membership", Theme: "default",
			Progress: &lessons.Progress{Seed: 42}}, newFake())
		next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		return feed(next.(Model), ls)
	}
	states := map[string]func() Model{
		"lab":    func() Model { m, _ := labModel(t, 120, 40, s); return m },
		"lesson": lesson,
		"lesson events screen": func() Model {
			m := lesson()
			m.openEventsScreen()
			return m
		},
		"home":      func() Model { return homeModel(false) },
		"home help": func() Model { return homeModel(true) },
	}
	for name, open := range openers {
		states[name] = func() Model {
			m, _ := labModel(t, 120, 40, s)
			open(&m)
			return m
		}
	}
	return states
}

// homeModel is the home screen at 120×40, with its help open or not.
func homeModel(help bool) Model {
	m := New(Options{Job: "clicks", Theme: "default"}, newFake())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	if help {
		m.help.Open()
	}
	return m
}

// keyMaps are every key map of the lab and the home screen.
func keyMaps(m Model) []interface{ FullHelp() [][]key.Binding } {
	return []interface{ FullHelp() [][]key.Binding }{
		DefaultLabKeys(), DefaultHomeKeys(), DefaultConfirmKeys(), DefaultLeaveKeys(), newKillKeys(), DefaultEventsScreenKeys(),
		m.palette.Keys(), m.picker.Keys(), m.home.Keys(), m.runs.Keys(), m.report.Keys(), m.guide.Keys(), m.guide.AnswerKeys(),
		m.pipeline.Keys(), m.output.Keys(), m.ledger.Keys(), m.filter.Keys(), m.events.Keys(), m.predict.Keys(),
	}
}

// everyKey is every key some key map binds, but ctrl+c, which quits
// wherever it is pressed.
func everyKey(m Model) []string {
	seen := map[string]bool{"ctrl+c": true}
	var out []string
	for _, km := range keyMaps(m) {
		for _, group := range km.FullHelp() {
			for _, b := range group {
				for _, k := range b.Keys() {
					if !seen[k] {
						seen[k] = true
						out = append(out, k)
					}
				}
			}
		}
	}
	return out
}

// outcome is what a key did: the screen drawn after it, the requests sent
// and whether a command came back.
type outcome struct {
	view string
	reqs []bridge.Request
	cmd  bool
}

// The overlay stack alone decides where a key goes: on every screen, each
// key does through Update exactly what the stack's own dispatch does with
// it. A key caught anywhere before the stack would do something else.
func TestTheStackAloneDecidesWhereAKeyGoes(t *testing.T) {
	for name, state := range keyStates(t) {
		s := fresh(state)
		for _, k := range everyKey(s.m) {
			var viaUpdate, viaStack outcome
			s = s.run(state, func(m Model) {
				next, cmd := m.Update(keyMsg(k))
				viaUpdate = outcome{next.(Model).View(), m.eng.(*fakeEngine).reqs, cmd != nil}
			})
			s = s.run(state, func(m Model) {
				routed, cmd := m.overlays().key(m, keyMsg(k))
				routed.holdForDialog()
				viaStack = outcome{routed.View(), m.eng.(*fakeEngine).reqs, cmd != nil}
			})
			if !reflect.DeepEqual(viaUpdate, viaStack) {
				t.Errorf("%s, key %q: Update and the overlay stack disagree:\n%s\n---\n%s", name, k, plain(viaUpdate.view), plain(viaStack.view))
			}
		}
	}
}

// start is a screen to press keys on, and how it looks drawn afresh (no
// pane's drawing cache).
type start struct {
	m    Model
	view string
}

func fresh(state func() Model) start {
	m := state()
	return start{m, uncachedView(m)}
}

// run runs f on the screen with no requests sent yet, and returns the
// screen to run the next key on: the same, or a fresh one when f changed
// how it looks: a pane may keep state that copies of a Model share, as
// the events' log and a lesson's hints once did.
func (s start) run(state func() Model, f func(Model)) start {
	s.m.eng.(*fakeEngine).reqs = nil
	f(s.m)
	if uncachedView(s.m) != s.view {
		return fresh(state)
	}
	return s
}

// Every key the help bar offers reaches the overlay that offers it, or,
// under one that lets keys through, the overlay beneath that offers it
// too: the help and the dispatch read the same layers. (The help itself
// takes every key while it is open and lists what it covers.)
func TestEveryOfferedKeyReachesWhatOffersIt(t *testing.T) {
	for name, state := range keyStates(t) {
		m := state()
		stack := m.overlays()
		if stack[0].name == "help" {
			continue
		}
		for _, group := range m.activeKeys().FullHelp() {
			for _, b := range group {
				if !b.Enabled() {
					continue
				}
				for _, k := range b.Keys() {
					owner := ownerOf(m, stack, keyMsg(k))
					if !offers(owner.keys(m), b) {
						t.Errorf("%s: %q (%s) is offered, but reaches %s, which does not offer it", name, k, b.Help().Desc, owner.name)
					}
				}
			}
		}
	}
}

// A key the screen beneath takes and offers, reached through an overlay
// that lets it through, is offered over that overlay too: the help does
// not hide a key that works.
func TestKeysLetThroughAreOffered(t *testing.T) {
	for name, state := range keyStates(t) {
		m := state()
		stack := m.overlays()
		base := stack[len(stack)-1]
		if len(stack) == 1 || stack[0].name == "help" {
			continue
		}
		for _, group := range base.keys(m).FullHelp() {
			for _, b := range group {
				if !b.Enabled() || ownerOf(m, stack, keyMsg(b.Keys()[0])).name != base.name {
					continue
				}
				if !offers(m.activeKeys(), b) {
					t.Errorf("%s: %q (%s) works beneath the %s but is not offered", name, b.Help().Key, b.Help().Desc, stack[0].name)
				}
			}
		}
	}
}

// No key is offered for two things at once: whatever has the focus, in
// the sandbox or a lesson, and whichever overlay is open, the help names
// one deed for each key, the one the key does.
func TestNoKeyIsOfferedTwice(t *testing.T) {
	for name, state := range focusStates(t) {
		m := state()
		offered := map[string]key.Help{}
		for _, group := range m.activeKeys().FullHelp() {
			for _, b := range group {
				if !b.Enabled() {
					continue
				}
				for _, k := range b.Keys() {
					if was, ok := offered[k]; ok && was != b.Help() {
						t.Errorf("%s: %q is offered as %q and as %q", name, k, was.Desc, b.Help().Desc)
					}
					offered[k] = b.Help()
				}
			}
		}
	}
}

// focusStates are the key states, and the sandbox and a lesson with each
// pane in turn given the focus: each pane brings its own keys.
func focusStates(t *testing.T) map[string]func() Model {
	t.Helper()
	states := keyStates(t)
	for _, screen := range []string{"lab", "lesson"} {
		for p := range paneCount {
			states[screen+", focus "+strconv.Itoa(int(p))] = func() Model {
				m := states[screen]()
				m.setFocus(p)
				return m
			}
		}
	}
	return states
}

// The help (?) names each key in one entry only, with the one thing it
// does: an entry the help bar shortens to two keys (+/- speed) is two
// entries in the help (+ faster, - slower), not one beside the second.
func TestTheHelpNamesEachKeyOnce(t *testing.T) {
	for name, state := range focusStates(t) {
		m := state()
		entryOf := map[string]key.Help{}
		for _, group := range m.activeKeys().FullHelp() {
			for _, b := range group {
				if !b.Enabled() {
					continue
				}
				for _, k := range namedKeys(b.Help()) {
					if was, ok := entryOf[k]; ok && was != b.Help() {
						t.Errorf("%s: the help names %s in %q and in %q", name, k, was.Key+" "+was.Desc, b.Help().Key+" "+b.Help().Desc)
					}
					entryOf[k] = b.Help()
				}
			}
		}
	}
}

// namedKeys are the keys an entry of the help names: its label, cut at
// each slash (the label / is the slash key itself).
func namedKeys(h key.Help) []string {
	if h.Key == "/" {
		return []string{h.Key}
	}
	return strings.Split(h.Key, "/")
}

// ownerOf is the overlay of stack that handles k.
func ownerOf(m Model, stack overlayStack, k tea.KeyMsg) overlay {
	for _, o := range stack {
		if _, _, handled := o.key(m, k); handled {
			return o
		}
	}
	return overlay{name: "nothing", keys: func(Model) helpKeys { return nil }}
}

// offers reports whether keys list b.
func offers(keys helpKeys, b key.Binding) bool {
	for _, group := range keys.FullHelp() {
		for _, o := range group {
			if o.Help() == b.Help() && slices.Equal(o.Keys(), b.Keys()) {
				return true
			}
		}
	}
	return false
}

// ctrl+c quits before any layer sees a key, so a key map that binds it
// binds a key that never reaches it.
func TestNoKeyMapBindsCtrlC(t *testing.T) {
	m, _ := labModel(t, 80, 24, nil)
	for _, km := range keyMaps(m) {
		for _, group := range km.FullHelp() {
			for _, b := range group {
				if slices.Contains(b.Keys(), "ctrl+c") {
					t.Errorf("%q (%s) binds ctrl+c, which quits before it is asked", b.Help().Key, b.Help().Desc)
				}
			}
		}
	}
	for _, m := range []Model{m, homeModel(false)} {
		if _, cmd := press(t, m, "ctrl+c"); cmd == nil || cmd() != tea.Quit() {
			t.Errorf("ctrl+c on screen %d does not quit", m.screen)
		}
	}
}
