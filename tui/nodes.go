package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/tui/dialog/picker"
	"github.com/streamlab/streamlab/tui/draw"
)

// openTargets opens the list of nodes that k (kill) or r (restart) acts
// on, with each node's state, on the pipeline's selection. Nodes the verb
// cannot act on are listed disabled with the reason: r is offered only
// for a node a restart can bring back, and nothing in a failed job.
func (m *Model) openTargets(verb string) {
	snap := m.frame.Snap
	if len(snap.Nodes) == 0 {
		m.msg = message{text: "no job to act on", isErr: true}
		return
	}
	var opts []picker.Option
	for _, n := range snap.Nodes {
		o := picker.Option{Value: n.Name, Doc: string(n.State) + " · in " + draw.Count(n.In)}
		o.Refused = refusal(verb, n.Name, n.State, snap)
		opts = append(opts, o)
	}
	jm := picker.Option{Value: engine.JobManager, Doc: "coordinates checkpoints and restarts · " + string(snap.JobManager.State)}
	jm.Refused = jobManagerRefusal(verb, snap)
	opts = append(opts, jm)
	title := "Kill which node?"
	if verb == script.VerbRestart {
		title = "Restart which node?"
	}
	m.targets.Open(verb, title, opts, m.pipeline.Selected())
}

// refusal says why verb cannot act on the node called name in state, or
// "" when it can: only a running node can be killed, and only a killed
// one waiting for a task manager restarted.
func refusal(verb, name string, state engine.NodeState, snap engine.Snapshot) string {
	switch {
	case snap.State == engine.StateFailed:
		return "the job has failed: nothing runs and nothing restarts it; change a setting or open the job again"
	case state == engine.NodeCancelled:
		return name + " was cancelled with its job manager: the new leader restarts it once the lease has run out"
	case verb == script.VerbKill && state == engine.NodeKilled:
		return name + " is already down; r restarts it"
	case verb == script.VerbKill && state != engine.NodeRunning:
		return name + " is " + string(state) + ": only a running node can be killed"
	case verb == script.VerbRestart && state == engine.NodeRestarting:
		return name + "'s restart is already on the way"
	case verb == script.VerbRestart && state != engine.NodeKilled:
		return name + " is " + string(state) + ": there is nothing to restart"
	}
	return ""
}

// jobManagerRefusal says why verb cannot act on the job manager, or "":
// it can be killed while it leads; nobody restarts it by hand, a standby
// takes over by itself.
func jobManagerRefusal(verb string, snap engine.Snapshot) string {
	jm := snap.JobManager
	switch {
	case snap.State == engine.StateFailed:
		return "the job has failed: nothing runs and nothing restarts it; change a setting or open the job again"
	case verb == script.VerbKill && jm.State == engine.JobManagerNoLeader:
		return "the leader is already dead: a standby leads once the lease has run out"
	case verb == script.VerbRestart && jm.State == engine.JobManagerNoLeader:
		return "nothing to do: a standby becomes leader by itself once the lease has run out"
	case verb == script.VerbRestart:
		return "the job manager is running: there is nothing to restart"
	}
	return ""
}

// targetKey handles a key while the node list is open: a node chosen for
// kill is asked about once more, one for restart is restarted.
func (m Model) targetKey(k tea.KeyMsg) (Model, tea.Cmd) {
	if tk := m.targets.Keys(); !key.Matches(k, tk.Up, tk.Down, tk.Cancel, tk.Choose) {
		m.dropForDialog()
		return m, nil
	}
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

// killKey answers "kill this node?": y loses its task manager (kill), f
// makes its task throw (fail), n cancels.
func (m Model) killKey(k tea.KeyMsg) (Model, tea.Cmd) {
	keys := newKillKeys()
	switch {
	case key.Matches(k, keys.Kill):
		node := m.killing
		m.killing = ""
		m.submit(script.VerbKill + " " + node)
	case key.Matches(k, keys.Fail) && m.killing == engine.JobManager:
		m.msg = message{text: "the job manager runs no task that could throw; y kills it", isErr: true}
	case key.Matches(k, keys.Fail):
		node := m.killing
		m.killing = ""
		m.submit(script.VerbFail + " " + node)
	case key.Matches(k, keys.No):
		m.killing = ""
		m.msg = message{text: "nothing killed"}
	default:
		m.dropForDialog()
	}
	return m, nil
}

// killKeys are the keys of the kill question: the two kinds of failure a
// node can meet, and no.
type killKeys struct {
	Kill, Fail, No key.Binding
}

func newKillKeys() killKeys {
	return killKeys{
		Kill: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y", "lose its task manager")),
		Fail: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "the task fails")),
		No:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "cancel")),
	}
}

func (k killKeys) ShortHelp() []key.Binding { return []key.Binding{k.Kill, k.Fail, k.No} }

func (k killKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
