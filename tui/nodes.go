package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/picker"
)

// openTargets opens the list of nodes that k (kill) or r (restart) acts
// on, with each node's state, on the pipeline's selection. Nodes the verb
// cannot act on are listed disabled with the reason.
func (m *Model) openTargets(verb string) {
	snap := m.frame.Snap
	if len(snap.Nodes) == 0 {
		m.msg = message{text: "no job to act on", isErr: true}
		return
	}
	var opts []picker.Option
	for _, n := range snap.Nodes {
		o := picker.Option{Value: n.Name, Doc: n.State + " · in " + draw.Count(n.In)}
		down := n.State == engine.NodeKilled
		switch {
		case verb == script.VerbKill && down:
			o.Refused = n.Name + " is already down; r restarts it"
		case verb == script.VerbRestart && !down:
			o.Refused = n.Name + " is " + n.State + ": there is nothing to restart"
		}
		opts = append(opts, o)
	}
	jm := picker.Option{Value: engine.JobManager, Doc: "coordinates checkpoints and restarts"}
	if verb == script.VerbRestart {
		jm.Doc = "restart it after kill jobmanager"
	}
	opts = append(opts, jm)
	title := "Kill which node?"
	if verb == script.VerbRestart {
		title = "Restart which node?"
	}
	m.targets.Open(verb, title, opts, m.pipeline.Selected())
}

// targetKey handles a key while the node list is open: a node chosen for
// kill is asked about once more, one for restart is restarted.
func (m Model) targetKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	p, chosen, ok := m.targets.Update(k)
	m.targets = p
	switch {
	case ok && p.Key == script.VerbKill:
		m.pipeline.Select(chosen.Value)
		m.killing = chosen.Value
	case ok:
		m.pipeline.Select(chosen.Value)
		m.submit(p.Key + " " + chosen.Value)
	case chosen.Refused != "":
		m.msg = message{text: chosen.Refused, isErr: true}
	}
	return m, nil
}

// killKey answers "kill this node?".
func (m Model) killKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(k, m.yesNo.Yes):
		node := m.killing
		m.killing = ""
		m.submit(script.VerbKill + " " + node)
	case key.Matches(k, m.yesNo.No):
		m.killing = ""
		m.msg = message{text: "nothing killed"}
	}
	return m, nil
}

// overlayKill asks for the kill in one line naming the node and what goes
// with it.
func (m Model) overlayKill(body []string) []string {
	st := m.st
	what := "its input queue and its state are lost with it; the recovery scheme decides what comes back"
	if m.killing == engine.JobManager {
		what = "without a standby the whole job fails with it"
	}
	text := []string{
		"Kill " + st.Accent.Render(m.killing) + " now?",
		"",
	}
	for _, l := range strings.Split(ansi.Wordwrap(what, min(56, m.w-8), " "), "\n") {
		text = append(text, st.Muted.Render(l))
	}
	text = append(text, "", st.Accent.Render("y")+" kill it   "+st.Accent.Render("n")+" cancel")
	w := 0
	for _, l := range text {
		w = max(w, ansi.StringWidth(l))
	}
	w = min(w+2, m.w-4)
	box := draw.Box(st.Modal, "Kill "+m.killing+"?", text, w+2, len(text)+2)
	return draw.Overlay(body, box, max((m.w-w-2)/2, 0), max((len(body)-len(box))/2, 0))
}

// killKeys are the keys of the kill question (y and n, as ConfirmKeys
// handles them, described for a kill).
type killKeys struct{}

func (k killKeys) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "kill it")), key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "cancel"))}
}

func (k killKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
