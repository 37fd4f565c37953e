package tui

import (
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/pane/lessonpane"
)

// LabKeys are the lab screen's own keys: they work whichever pane has the
// focus (the panes' keys are in their packages' keys.go).
type LabKeys struct {
	Pause, Step, Faster, Slower       key.Binding
	Finish, Report, Runs              key.Binding
	Kill, Restart                     key.Binding
	Mode, Sink, Semantics, HA, Filter key.Binding
	Palette, Save, Events             key.Binding
	Focus, FocusBack                  key.Binding
	Help, Back, Quit                  key.Binding
}

// DefaultLabKeys is the lab screen's key map.
func DefaultLabKeys() LabKeys {
	return LabKeys{
		Pause:     key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pause/run")),
		Step:      key.NewBinding(key.WithKeys("."), key.WithHelp(".", "step")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:    key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower")),
		Finish:    key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "finish the run now")),
		Report:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "report")),
		Runs:      key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "charts of your runs")),
		Kill:      key.NewBinding(key.WithKeys("k"), key.WithHelp("k", "kill node")),
		Restart:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart node")),
		Mode:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "output mode")),
		Sink:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sink")),
		Semantics: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "semantics")),
		HA:        key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "HA scheme")),
		Filter:    key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter")),
		Palette:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Save:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save script")),
		Events:    key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "events full screen")),
		Focus:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusBack: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "home")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the help bar's share of the lab's keys.
func (k LabKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Palette, k.Pause, draw.KeyPair(k.Faster, k.Slower, "speed"), k.Kill, k.Report, k.Help, k.Quit, k.Finish, k.Step, k.Restart, k.Focus}
}

// FullHelp groups every lab key by what it is for.
func (k LabKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Pause, k.Step, k.Faster, k.Slower, k.Finish},
		{k.Kill, k.Restart, k.Palette, k.Report, k.Runs, k.Events, k.Save},
		{k.Mode, k.Sink, k.Semantics, k.HA, k.Filter},
		{k.Focus, k.FocusBack, k.Help, k.Back, k.Quit},
	}
}

// HomeKeys are the home screen's global keys.
type HomeKeys struct {
	Help, Quit key.Binding
}

// DefaultHomeKeys is the home screen's global key map.
func DefaultHomeKeys() HomeKeys {
	return HomeKeys{
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit: key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp lists the home screen's global keys.
func (k HomeKeys) ShortHelp() []key.Binding { return []key.Binding{k.Help, k.Quit} }

// FullHelp lists the home screen's global keys.
func (k HomeKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Help, k.Quit}} }

// ConfirmKeys answer a yes-or-no question: "restart the job with this
// setting?", "leave the lesson?".
type ConfirmKeys struct {
	Yes, No key.Binding
}

// DefaultConfirmKeys is the restart question's key map.
func DefaultConfirmKeys() ConfirmKeys {
	return yesNoKeys("restart the job", "n", "leave it as it is")
}

// yesNoKeys is a question's key map: y or enter says yes, n or esc no;
// the help says what each does (noHelp names the no keys it shows).
func yesNoKeys(yes, noHelp, no string) ConfirmKeys {
	return ConfirmKeys{
		Yes: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y", yes)),
		No:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp(noHelp, no)),
	}
}

// ShortHelp lists the question's keys.
func (k ConfirmKeys) ShortHelp() []key.Binding { return []key.Binding{k.Yes, k.No} }

// FullHelp lists the question's keys.
func (k ConfirmKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Yes, k.No}} }

// helpKeys joins key maps into one for the help bar.
type helpKeys []interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

func (h helpKeys) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, k := range h {
		out = append(out, k.ShortHelp()...)
	}
	return out
}

func (h helpKeys) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, k := range h {
		out = append(out, k.FullHelp()...)
	}
	return out
}

// guideHelp is the help in a lesson or an exercise: the lesson pane's keys
// and the palette first in the help bar (a learner types the steps' lines),
// then the lab's.
type guideHelp struct {
	guide lessonpane.KeyMap
	lab   LabKeys
}

func (g guideHelp) ShortHelp() []key.Binding {
	return []key.Binding{g.lab.Palette, g.guide.Next, g.guide.Hint, g.guide.Answer, g.lab.Report, g.lab.Help, g.lab.Pause,
		g.guide.Grade, draw.KeyPair(g.guide.PageUp, g.guide.PageDn, "page the lesson"), g.lab.Focus, g.lab.Back, g.lab.Quit}
}

func (g guideHelp) FullHelp() [][]key.Binding {
	return append(g.guide.FullHelp(), g.lab.FullHelp()...)
}

// unshadowed are the keys of keys that are not all taken by the bindings
// of over: what still reaches a layer beneath an overlay that takes some
// keys and lets the others through.
type unshadowed struct {
	keys help.KeyMap
	over help.KeyMap
}

func (u unshadowed) ShortHelp() []key.Binding { return u.reaching(u.keys.ShortHelp()) }

func (u unshadowed) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, group := range u.keys.FullHelp() {
		if g := u.reaching(group); len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// reaching is bs less the bindings every key of which over takes.
func (u unshadowed) reaching(bs []key.Binding) []key.Binding {
	taken := map[string]bool{}
	for _, group := range u.over.FullHelp() {
		for _, b := range group {
			if b.Enabled() {
				for _, k := range b.Keys() {
					taken[k] = true
				}
			}
		}
	}
	var out []key.Binding
	for _, b := range bs {
		if slices.ContainsFunc(b.Keys(), func(k string) bool { return !taken[k] }) {
			out = append(out, b)
		}
	}
	return out
}
