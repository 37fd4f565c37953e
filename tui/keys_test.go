package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/dialog/palette"
	"github.com/streamlab/streamlab/tui/dialog/picker"
	"github.com/streamlab/streamlab/tui/home"
)

// started is a lab whose job has run for two seconds.
func started(t *testing.T) (Model, *fakeEngine) {
	t.Helper()
	s := newSession(t, "clicks")
	m, eng := labModel(t, 80, 24, nil)
	m = s.run(m, 2e9)
	return m, eng
}

// sentLine asserts that the last request is the lab-script line want.
func sentLine(t *testing.T, eng *fakeEngine, want string) {
	t.Helper()
	r, ok := eng.last()
	if !ok || r.Kind != bridge.Line || r.Line != want {
		t.Errorf("sent %+v, want line %q", r, want)
	}
}

func sentKind(t *testing.T, eng *fakeEngine, want bridge.Kind) bridge.Request {
	t.Helper()
	r, ok := eng.last()
	if !ok || r.Kind != want {
		t.Errorf("sent %+v, want kind %d", r, want)
	}
	return r
}

func TestLabKeys(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, m Model, eng *fakeEngine, cmd tea.Cmd)
	}{
		{"space resumes a paused lab", []string{" "}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			sentKind(t, eng, bridge.Resume)
			if m.Paused() {
				t.Error("still paused")
			}
		}},
		{"space twice pauses again", []string{" ", " "}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			sentKind(t, eng, bridge.Pause)
			if !m.Paused() {
				t.Error("not paused")
			}
		}},
		{". steps", []string{"."}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			sentKind(t, eng, bridge.StepOne)
		}},
		{"+ doubles the speed", []string{"+"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if r := sentKind(t, eng, bridge.SetSpeed); r.Speed != 2 || m.Speed() != 2 {
				t.Errorf("speed %v / %v, want 2", r.Speed, m.Speed())
			}
		}},
		{"= is + without shift", []string{"="}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if m.Speed() != 2 {
				t.Errorf("speed %v", m.Speed())
			}
		}},
		{"- halves the speed, down to ×0.25", []string{"-", "-", "-", "-"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if r := sentKind(t, eng, bridge.SetSpeed); r.Speed != 0.25 {
				t.Errorf("speed %v, want 0.25", r.Speed)
			}
		}},
		{"+ goes up to max", strings.Split(strings.Repeat("+", 12), ""), func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if !bridge.IsMax(m.Speed()) || !strings.Contains(plain(m.View()), "×max") {
				t.Errorf("speed %v", m.Speed())
			}
		}},
		{"k lists the nodes on the selection, not the source", []string{"k"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			view := plain(m.View())
			if !m.targets.Active() || !strings.Contains(view, "Kill which node?") || !strings.Contains(view, "▸ count[0]") || !strings.Contains(view, "jobmanager") {
				t.Errorf("no node list on count[0]:\n%s", view)
			}
			if len(eng.reqs) != 0 {
				t.Errorf("k alone sent %+v", eng.reqs)
			}
		}},
		{"k, a node and y kill it after a question naming it", []string{"k", "down", "enter", "y"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			sentLine(t, eng, "kill count[1]")
			if m.pipeline.Selected() != "count[1]" {
				t.Errorf("selection %s after killing count[1]", m.pipeline.Selected())
			}
		}},
		{"k, enter asks before killing", []string{"k", "enter"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if v := plain(m.View()); !strings.Contains(v, "Kill count[0] now?") {
				t.Errorf("no question:\n%s", v)
			}
			if len(eng.reqs) != 0 {
				t.Errorf("sent %+v before y", eng.reqs)
			}
		}},
		{"n cancels the kill", []string{"k", "enter", "n"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if len(eng.reqs) != 0 || m.killing != "" {
				t.Errorf("sent %+v, killing %q", eng.reqs, m.killing)
			}
		}},
		{"r lists the nodes; a running one cannot be restarted", []string{"r", "enter"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if msg, isErr := m.Message(); !isErr || !strings.Contains(msg, "nothing to restart") {
				t.Errorf("message %q", msg)
			}
			if len(eng.reqs) != 0 {
				t.Errorf("sent %+v", eng.reqs)
			}
		}},
		{"r does not offer the job manager while it leads", []string{"r", "up", "up", "up", "enter"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if msg, isErr := m.Message(); !isErr || !strings.Contains(msg, "the job manager is running") {
				t.Errorf("message %q", msg)
			}
			if len(eng.reqs) != 0 {
				t.Errorf("sent %+v", eng.reqs)
			}
		}},
		{"m opens the mode picker on the current mode", []string{"m"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if !m.picker.Active() || m.picker.Key != "mode" || m.picker.Cursor() != 1 {
				t.Errorf("picker %v %q cursor %d", m.picker.Active(), m.picker.Key, m.picker.Cursor())
			}
		}},
		{"s opens the sink picker", []string{"s"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.picker.Key != "sink" {
				t.Errorf("picker %q", m.picker.Key)
			}
		}},
		{"e opens the semantics picker", []string{"e"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.picker.Key != "semantics" {
				t.Errorf("picker %q", m.picker.Key)
			}
		}},
		{"h opens the HA picker", []string{"h"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.picker.Key != "ha" {
				t.Errorf("picker %q", m.picker.Key)
			}
		}},
		{"f opens the filter picker", []string{"f"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.picker.Key != "filter" {
				t.Errorf("picker %q", m.picker.Key)
			}
		}},
		{"a setting chosen after the start offers a restart", []string{"m", "up", "enter"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if m.Confirming() != "set mode append" {
				t.Errorf("confirming %q", m.Confirming())
			}
			if r := withoutChecks(eng.reqs); len(r) != 0 {
				t.Errorf("sent %+v before the learner confirmed", r)
			}
		}},
		{"y restarts the job with the setting", []string{"m", "up", "enter", "y"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if r := sentKind(t, eng, bridge.Reconfigure); r.Line != "set mode append" {
				t.Errorf("reconfigure %q", r.Line)
			}
			if m.Confirming() != "" {
				t.Error("still confirming")
			}
		}},
		{"n keeps the job", []string{"e", "down", "enter", "n"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if r, _ := eng.last(); r.Kind == bridge.Reconfigure {
				t.Errorf("sent %+v", r)
			}
			if m.Confirming() != "" {
				t.Error("still confirming")
			}
		}},
		{"esc cancels a picker", []string{"f", "esc"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if r := withoutChecks(eng.reqs); m.picker.Active() || len(r) != 0 {
				t.Errorf("picker %v, sent %v", m.picker.Active(), r)
			}
		}},
		{": opens the palette", []string{":"}, func(t *testing.T, m Model, _ *fakeEngine, cmd tea.Cmd) {
			if !m.palette.Active() {
				t.Error("palette closed")
			}
		}},
		{"ctrl+s saves", []string{"ctrl+s"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			sentKind(t, eng, bridge.Save)
		}},
		{"tab moves the focus on", []string{"tab"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.Focus() != PaneOutput {
				t.Errorf("focus %d", m.Focus())
			}
		}},
		{"tab wraps around", []string{"tab", "tab", "tab", "tab"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.Focus() != PanePipeline {
				t.Errorf("focus %d", m.Focus())
			}
		}},
		{"shift+tab moves the focus back", []string{"shift+tab"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.Focus() != PaneEvents {
				t.Errorf("focus %d", m.Focus())
			}
		}},
		{"? shows the full help", []string{"?"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if !m.HelpShown() || !strings.Contains(plain(m.View()), "HA scheme") {
				t.Error("no full help")
			}
		}},
		{"? again hides it", []string{"?", "?"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.HelpShown() {
				t.Error("help still shown")
			}
		}},
		{"esc closes the help before leaving", []string{"?", "esc"}, func(t *testing.T, m Model, _ *fakeEngine, _ tea.Cmd) {
			if m.HelpShown() || m.Screen() != ScreenLab {
				t.Errorf("help %v screen %d", m.HelpShown(), m.Screen())
			}
		}},
		{"esc goes home and pauses", []string{"esc"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			sentKind(t, eng, bridge.Pause)
			if m.Screen() != ScreenHome {
				t.Errorf("screen %d", m.Screen())
			}
		}},
		{"q quits", []string{"q"}, func(t *testing.T, _ Model, _ *fakeEngine, cmd tea.Cmd) {
			if cmd == nil || cmd() != tea.Quit() {
				t.Error("no quit")
			}
		}},
		{"ctrl+c quits", []string{"ctrl+c"}, func(t *testing.T, _ Model, _ *fakeEngine, cmd tea.Cmd) {
			if cmd == nil || cmd() != tea.Quit() {
				t.Error("no quit")
			}
		}},
		{"keys typed together act one by one", []string{" +R"}, func(t *testing.T, m Model, eng *fakeEngine, _ tea.Cmd) {
			if len(eng.reqs) != 3 || m.Speed() != 2 || !m.report.Active() {
				t.Errorf("requests %+v speed %v", eng.reqs, m.Speed())
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, eng := started(t)
			m, _ = press(t, m, "esc") // home and back, so the lab starts paused…
			m, _ = press(t, m, "enter", "enter")
			eng.reqs = nil
			m.paused = true
			m, cmd := press(t, m, tt.keys...)
			tt.check(t, m, eng, cmd)
		})
	}
}

func TestSetBeforeTheStartIsSentAsIs(t *testing.T) {
	m, eng := labModel(t, 80, 24, nil)
	m.applyFrame(bridge.Frame{Gen: 1, Paused: true, Settings: map[string]string{"mode": "update"}})
	m, _ = press(t, m, "m", "up", "enter")
	sentLine(t, eng, "set mode append")
	if m.Confirming() != "" {
		t.Error("asked to restart a job that has not started")
	}
}

func TestPipelineKeysMoveTheSelection(t *testing.T) {
	m, _ := started(t)
	steps := []struct {
		key, want string
	}{
		{"left", "parse"}, {"right", "count[0]"}, {"down", "count[1]"}, {"down", "count[1]"},
		{"right", "sink"}, {"right", "sink"}, {"left", "count[0]"}, {"up", "count[0]"}, {"left", "parse"}, {"left", "source"},
	}
	for _, s := range steps {
		m, _ = press(t, m, s.key)
		if got := m.pipeline.Selected(); got != s.want {
			t.Fatalf("after %s: %s, want %s", s.key, got, s.want)
		}
	}
}

func TestMouseClickSelectsANode(t *testing.T) {
	m, _ := started(t)
	// Find count[1]'s box on screen and click inside it.
	lines := strings.Split(plain(m.View()), "\n")
	for y, l := range lines {
		if x := strings.Index(l, "count[1]"); x >= 0 {
			x = len([]rune(l[:x]))
			next, _ := m.Update(tea.MouseMsg{X: x, Y: y + 1, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
			m = next.(Model)
			break
		}
	}
	if got := m.pipeline.Selected(); got != "count[1]" {
		t.Errorf("clicked count[1], selected %s", got)
	}
	next, _ := m.Update(tea.MouseMsg{X: 70, Y: 18, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if f := next.(Model).Focus(); f != PaneEvents {
		t.Errorf("click on the events pane focused %d", f)
	}
	m.opts.Mouse = false
	next, _ = m.Update(tea.MouseMsg{X: 70, Y: 18, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if f := next.(Model).Focus(); f != PanePipeline {
		t.Errorf("with the mouse off a click focused %d", f)
	}
}

func TestPaneKeysGoToTheFocusedPane(t *testing.T) {
	m, _ := started(t)
	m, _ = press(t, m, "tab", "up", "up", "pgup")
	if m.output.Scroll() == 0 {
		t.Error("output did not scroll")
	}
	m, _ = press(t, m, "pgdown", "down", "end")
	if m.output.Scroll() != 0 {
		t.Errorf("output scroll %d after end", m.output.Scroll())
	}
	m, _ = press(t, m, "tab", "d")
	if !m.ledger.Delta() {
		t.Error("d did not switch the ledger to changes")
	}
	m, _ = press(t, m, "tab", "A")
	if !m.events.Verbose() {
		t.Error("A did not show every event")
	}
	m, _ = press(t, m, "up", "pgup")
	if m.events.Scroll() == 0 {
		t.Error("events did not scroll")
	}
	m, _ = press(t, m, "down", "pgdown", "end")
	if m.events.Scroll() != 0 {
		t.Error("events did not follow")
	}
	if m.pipeline.Selected() != "count[0]" {
		t.Error("arrows for other panes moved the node selection")
	}
}

func TestPaletteKeys(t *testing.T) {
	m, eng := started(t)
	m, _ = press(t, m, ":")
	m = typeText(t, m, "kil")
	m, _ = press(t, m, "tab")
	if got := m.palette.Value(); got != "kill " {
		t.Fatalf("tab completed the verb to %q", got)
	}
	m = typeText(t, m, "cou")
	m, _ = press(t, m, "tab")
	if got := m.palette.Value(); got != "kill count[" {
		t.Fatalf("tab completed the node to %q, want the common prefix", got)
	}
	m, _ = press(t, m, "tab")
	if got := m.palette.Value(); got != "kill count[0]" {
		t.Fatalf("second tab cycled to %q", got)
	}
	m, _ = press(t, m, "tab")
	if got := m.palette.Value(); got != "kill count[1]" {
		t.Fatalf("third tab cycled to %q", got)
	}
	m, _ = press(t, m, "enter")
	sentLine(t, eng, "kill count[1]")
	if m.palette.Active() {
		t.Error("palette still open")
	}

	m, _ = press(t, m, ":")
	m = typeText(t, m, "set sem")
	m, _ = press(t, m, "tab")
	m = typeText(t, m, "ex")
	m, _ = press(t, m, "tab")
	if got := m.palette.Value(); got != "set semantics exactly-once " {
		t.Fatalf("completed to %q", got)
	}
	m, _ = press(t, m, "esc")
	if m.palette.Active() || len(eng.reqs) != 1 {
		t.Fatalf("esc: active %v, sent %v", m.palette.Active(), eng.reqs)
	}

	m, _ = press(t, m, ":")
	m = typeText(t, m, "run 5 seconds")
	m, _ = press(t, m, "enter")
	if !m.palette.Active() || !strings.Contains(m.palette.Err(), "run takes one argument") {
		t.Fatalf("a bad line: active %v, err %q", m.palette.Active(), m.palette.Err())
	}
	// The error takes the line's place, whole; what is typed next starts a
	// new line (a colon typed out of habit is not part of it), and ↑ brings
	// the refused line back to edit.
	if v := m.View(); !strings.Contains(v, "column 7: run takes one argument") || strings.Contains(v, "run 5 seconds") {
		t.Errorf("the palette after a refusal:\n%s", v)
	}
	m, _ = press(t, m, ":", "r")
	if got := m.palette.Value(); got != "r" || m.palette.Err() != "" {
		t.Fatalf("typing after a refusal gave %q (err %q)", got, m.palette.Err())
	}
	m = typeText(t, m, "un -1")
	m, _ = press(t, m, "enter", "up")
	if got := m.palette.Value(); got != "run -1" {
		t.Fatalf("up after a refusal recalled %q", got)
	}
	m, _ = press(t, m, "esc", ":", "up")
	if got := m.palette.Value(); got != "kill count[1]" {
		t.Fatalf("up recalled %q", got)
	}
	m, _ = press(t, m, "down")
	if got := m.palette.Value(); got != "" {
		t.Fatalf("down past the newest gave %q", got)
	}
	m, _ = press(t, m, "up", "enter")
	if len(eng.reqs) != 2 {
		t.Fatalf("history line not sent: %v", eng.reqs)
	}
	m, _ = press(t, m, ":", "q")
	if m.palette.Value() != "q" {
		t.Error("q in the palette is typed, not quit")
	}
}

func TestPaletteSetAfterTheStartOffersARestart(t *testing.T) {
	m, eng := started(t)
	m, _ = press(t, m, ":")
	m = typeText(t, m, "set sink table")
	m, _ = press(t, m, "enter")
	// The question pauses the running lab; nothing else is sent before
	// the answer.
	if m.Confirming() != "set sink table" || len(eng.reqs) != 1 || eng.reqs[0].Kind != bridge.Pause {
		t.Fatalf("confirming %q, sent %v", m.Confirming(), eng.reqs)
	}
	if !strings.Contains(plain(m.View()), "Restart the job?") || !strings.Contains(plain(m.View()), "already running") {
		t.Error("no restart question on screen")
	}
	// A failed job is not called running.
	m.frame.Snap.State = "failed"
	if v := plain(m.View()); !strings.Contains(v, "The job has failed") || strings.Contains(v, "already running") {
		t.Errorf("the restart question for a failed job:\n%s", v)
	}
}

func TestHomeKeys(t *testing.T) {
	eng := newFake()
	m := New(Options{Job: "clicks", Theme: "mono"}, eng)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	m, _ = press(t, m, "down")
	if m.home.Cursor() != home.Lessons || !strings.Contains(plain(m.View()), "4 Rollback recovery") {
		t.Errorf("down: cursor %d", m.home.Cursor())
	}
	m, _ = press(t, m, "j", "j")
	if m.home.Cursor() != home.Settings || !strings.Contains(plain(m.View()), "executor") {
		t.Errorf("j: cursor %d", m.home.Cursor())
	}
	m, _ = press(t, m, "up", "k", "k", "enter")
	if !m.home.InJobs() {
		t.Fatal("enter on the sandbox did not open the job list")
	}
	m, _ = press(t, m, "down", "up", "down")
	if m.home.Job() != "passthrough" {
		t.Errorf("job %s", m.home.Job())
	}
	m, _ = press(t, m, "esc")
	if m.home.InJobs() {
		t.Error("esc did not leave the job list")
	}
	m, _ = press(t, m, "?")
	if !m.HelpShown() {
		t.Error("? on home")
	}
	m, _ = press(t, m, "esc", "enter", "enter")
	if m.Screen() != ScreenLab {
		t.Fatal("did not open the lab")
	}
	if r, _ := eng.last(); r.Kind != bridge.Open || r.Job != "passthrough" {
		t.Errorf("sent %+v", r)
	}
	_, cmd := press(t, New(Options{}, eng), "q")
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q on home does not quit")
	}
}

// TestEveryBindingIsTested keeps the help and the tests from drifting: each
// key a key map offers must appear in the tests above.
func TestEveryBindingIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, k := range []string{" ", ".", "+", "=", "-", "k", "r", "m", "s", "e", "h", "f", ":", "ctrl+s", "tab", "shift+tab",
		"?", "esc", "q", "ctrl+c", "left", "right", "up", "down", "pgup", "pgdown", "end", "d", "v", "A", "enter", "y", "n", "j", "l", "x", ">", "R", "home", "c", "C", "w"} {
		tested[k] = true
	}
	untested := map[string]bool{"_": true} // "_" is "-" with shift, handled like it
	maps := map[string]interface{ FullHelp() [][]key.Binding }{
		"lab": DefaultLabKeys(), "home": DefaultHomeKeys(), "confirm": DefaultConfirmKeys(),
		"palette": palette.DefaultKeyMap(), "picker": picker.DefaultKeyMap(), "homescreen": home.DefaultKeyMap(),
		"events screen": DefaultEventsScreenKeys(),
	}
	m, _ := labModel(t, 80, 24, nil)
	maps["pipeline"], maps["output"], maps["ledger"], maps["events"] = m.pipeline.Keys(), m.output.Keys(), m.ledger.Keys(), m.events.Keys()
	maps["filter"] = m.filter.Keys()
	for name, km := range maps {
		for _, group := range km.FullHelp() {
			for _, b := range group {
				for _, k := range b.Keys() {
					if !tested[k] && !untested[k] {
						t.Errorf("%s key %q has no test", name, k)
					}
				}
			}
		}
	}
}
