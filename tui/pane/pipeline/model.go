// Package pipeline is the lab's pipeline pane: the job's stages as columns
// of node boxes with arrows between them, each node with its state, records
// in and out, rate, queue fill and what alignment holds back, and in the
// pane's bottom edge the job manager that coordinates them (or why the job
// failed). It owns the node selection that kill and restart act on.
package pipeline

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// Model is the pipeline pane.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	w, h    int
	focused bool
	snap    engine.Snapshot
	gen     int64
	rates   map[string]*rate
	sel     int   // index into snap.Nodes
	clock   int64 // the lab's virtual clock, ms: countdowns count from it
	// footMemo is the footer as drawn last.
	footMemo *draw.Memo[footerKey]
}

// New returns an empty pipeline pane.
func New(st *styles.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), rates: map[string]*rate{}, footMemo: &draw.Memo[footerKey]{}}
}

// Keys is the pane's key map, for the help bar.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the pane's outer size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetFocused says whether the pane has the keyboard.
func (m *Model) SetFocused(f bool) { m.focused = f }

// SetFrame takes a new frame: the snapshot, and a rate sample per node. A
// new session (another job, a restart) forgets the old rates.
func (m *Model) SetFrame(f bridge.Frame) {
	fresh := f.Gen != m.gen || len(m.snap.Nodes) == 0
	if f.Gen != m.gen {
		m.gen, m.rates = f.Gen, map[string]*rate{}
	}
	m.snap = f.Snap
	m.clock = f.ClockMS
	if fresh {
		m.sel = defaultSelection(f.Snap)
	}
	for _, n := range f.Snap.Nodes {
		r := m.rates[n.Name]
		if r == nil {
			r = &rate{}
			m.rates[n.Name] = r
		}
		r.add(f.ClockMS, n.In)
	}
	if m.sel >= len(m.snap.Nodes) {
		m.sel = max(len(m.snap.Nodes)-1, 0)
	}
}

// defaultSelection is where the selection starts in a new session: on
// the first node of the first parallel stage (count[0] in clicks), the
// kind of node the lessons fail, and never on the source, whose failure
// says little.
func defaultSelection(s engine.Snapshot) int {
	for _, st := range s.Stages {
		if len(st.Nodes) > 1 {
			return st.Nodes[0]
		}
	}
	if len(s.Stages) > 1 && len(s.Stages[1].Nodes) > 0 {
		return s.Stages[1].Nodes[0]
	}
	return 0
}

// Selected is the selected node's name, or "" when there are none.
func (m Model) Selected() string {
	if m.sel < len(m.snap.Nodes) {
		return m.snap.Nodes[m.sel].Name
	}
	return ""
}

// Nodes lists the node names, for completion in the palette.
func (m Model) Nodes() []string {
	out := make([]string, len(m.snap.Nodes))
	for i, n := range m.snap.Nodes {
		out[i] = n.Name
	}
	return out
}

// Update moves the selection with the arrow keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || len(m.snap.Nodes) == 0 {
		return m, nil
	}
	cur := m.snap.Nodes[m.sel]
	switch {
	case key.Matches(k, m.keys.Left):
		m.selectStage(cur.Stage-1, cur.Index)
	case key.Matches(k, m.keys.Right):
		m.selectStage(cur.Stage+1, cur.Index)
	case key.Matches(k, m.keys.Up):
		m.selectInStage(cur.Stage, cur.Index-1)
	case key.Matches(k, m.keys.Down):
		m.selectInStage(cur.Stage, cur.Index+1)
	}
	return m, nil
}

// selectStage selects the node of stage s closest to index i.
func (m *Model) selectStage(s, i int) {
	if s < 0 || s >= len(m.snap.Stages) {
		return
	}
	nodes := m.snap.Stages[s].Nodes
	if len(nodes) > 0 {
		m.sel = nodes[min(i, len(nodes)-1)]
	}
}

func (m *Model) selectInStage(s, i int) {
	nodes := m.snap.Stages[s].Nodes
	if i >= 0 && i < len(nodes) {
		m.sel = nodes[i]
	}
}

// Select selects the node called name; false when there is none.
func (m *Model) Select(name string) bool {
	for i, n := range m.snap.Nodes {
		if n.Name == name {
			m.sel = i
			return true
		}
	}
	return false
}

// Click selects the node under (x, y), in the pane's own coordinates, and
// reports whether there was one.
func (m *Model) Click(x, y int) bool {
	g := m.geometry()
	if i := g.hit(m.snap.Stages, x-1, y-1); i >= 0 {
		m.sel = i
		return true
	}
	return false
}

func (m Model) selStage() int {
	if m.sel < len(m.snap.Nodes) {
		return m.snap.Nodes[m.sel].Stage
	}
	return 0
}

func (m Model) geometry() geometry {
	return layoutFor(m.snap.Stages, m.w-2, m.h-2, m.selStage())
}
