// Package filterpane is the lab's filter pane: the membership filter of the
// job's dedup stage (or of the passwords job's breach check). A Bloom
// filter is drawn as a map of its m bits, shaded by how full each range is,
// beside its fill, the false-positive rate the formula predicts against the
// one measured, and its memory against an exact set of the same ids. The
// learner picks a sink row (or an id the job never saw) and the pane shows
// that id's k bit positions and whether each is set: why a test answers
// "maybe". An exact set shows its memory; no filter, how to add one.
package filterpane

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/chart"
	"github.com/streamlab/streamlab/tui/styles"
)

// Target is what the pane probes: a row of the sink, or an id made up for
// the purpose, which no record of the job carries.
type Target struct {
	Row    engine.Record
	ID     uint64
	MadeUp uint64 // 1, 2, …: which made-up id; 0 for a row
}

// Action is what a key asks of the bridge: watch an id's bits, or stop.
type Action struct {
	Probe bool
	ID    uint64
	Stop  bool
}

// Model is the filter pane.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	w, h    int
	focused bool
	gen     int64
	started bool

	stats   *engine.FilterStats
	density []float64
	check   bool // the passwords job's breach check, not a dedup stage
	rows    []engine.Record

	target  *Target
	probe   []filter.Probe // the bridge's latest answer for target
	probed  bool           // an answer for target has arrived
	madeUps uint64

	// chart shows the false-positive rate against the ids offered
	// instead of the map of bits; glyphs and looks draw it.
	chart  bool
	glyphs chart.Glyphs
	ink    *chart.Looks
}

// New returns an empty filter pane.
func New(st *styles.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), glyphs: chart.Unicode, ink: chart.LooksFor(st)}
}

// SetASCII draws the chart in ASCII (a plain terminal).
func (m *Model) SetASCII(ascii bool) { m.glyphs = chart.For(ascii) }

// Chart reports whether the pane shows the chart rather than the map.
func (m Model) Chart() bool { return m.chart }

// chartable says whether the filter has a curve to chart: a Bloom
// filter in a dedup stage (the breach check's filter does not fill).
func (m Model) chartable() bool {
	return m.stats != nil && m.stats.Kind == filter.KindBloom && !m.check
}

// Keys is the pane's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the pane's outer size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetFocused says whether the pane has the keyboard.
func (m *Model) SetFocused(f bool) { m.focused = f }

// Target is the probed record, or nil.
func (m Model) Target() *Target { return m.target }

// Probe is the latest answer for the target: its bit positions.
func (m Model) Probe() []filter.Probe { return m.probe }

// SetFrame takes the filter's statistics, its density map, the sink's
// latest rows and the answer to the probe from a frame. A new session
// forgets the target: its rows are other rows.
func (m *Model) SetFrame(f bridge.Frame) {
	if f.Gen != m.gen {
		m.gen, m.target, m.probe, m.probed, m.madeUps = f.Gen, nil, nil, false, 0
	}
	m.started = f.Started
	m.stats, m.density, m.rows = f.Snap.Filter, f.Snap.Density, f.Snap.Rows
	m.check = false
	for _, s := range f.Snap.Stages {
		if s.Kind == jobspec.KindBreachCheck {
			m.check = true
		}
	}
	if p := f.Probe; p != nil && m.target != nil && p.ID == m.target.ID {
		m.probe, m.probed = p.Bits, true
	}
}

// probeable says whether ids can be probed: a Bloom filter in a dedup
// stage. (The breach check looks passwords up, not record ids.)
func (m Model) probeable() bool {
	return m.stats != nil && m.stats.Kind == filter.KindBloom && !m.check
}

// Update picks the record to probe.
func (m Model) Update(msg tea.Msg) (Model, Action) {
	k, ok := msg.(tea.KeyMsg)
	if ok && key.Matches(k, m.keys.Chart) && m.chartable() {
		m.chart = !m.chart
		return m, Action{}
	}
	if !ok || !m.probeable() {
		return m, Action{}
	}
	switch {
	case key.Matches(k, m.keys.Older):
		return m.pickRow(-1)
	case key.Matches(k, m.keys.Newer):
		return m.pickRow(+1)
	case key.Matches(k, m.keys.Newest):
		return m.pickRow(0)
	case key.Matches(k, m.keys.MadeUp):
		m.madeUps++
		return m.aim(Target{ID: madeUpID(m.madeUps), MadeUp: m.madeUps})
	case key.Matches(k, m.keys.Stop):
		if m.target != nil {
			m.target, m.probe, m.probed = nil, nil, false
			return m, Action{Stop: true}
		}
	}
	return m, Action{}
}

// pickRow aims at the row dir places from the probed one among the sink's
// latest rows (-1 older, +1 newer), or at the newest for 0, for a made-up
// id, or when the probed row has scrolled out of the sink's latest rows.
func (m Model) pickRow(dir int) (Model, Action) {
	if len(m.rows) == 0 {
		return m, Action{}
	}
	i := m.rowIndex()
	switch {
	case i < 0 || dir == 0:
		i = len(m.rows) - 1
	default:
		i = min(max(i+dir, 0), len(m.rows)-1)
	}
	return m.aim(Target{Row: m.rows[i], ID: engine.DedupID(m.rows[i])})
}

// rowIndex is where the probed row is among the latest rows, or -1.
func (m Model) rowIndex() int {
	if m.target == nil || m.target.MadeUp != 0 {
		return -1
	}
	for i := len(m.rows) - 1; i >= 0; i-- {
		if m.rows[i] == m.target.Row {
			return i
		}
	}
	return -1
}

func (m Model) aim(t Target) (Model, Action) {
	if m.target == nil || m.target.ID != t.ID {
		m.probe, m.probed = nil, false
	}
	m.target = &t
	return m, Action{Probe: true, ID: t.ID}
}

// madeUpID is the n-th id made up for a probe: splitmix64 of n and a
// constant, so it is the same on every run and, like the source's ids,
// spread over all 64 bits. A job's source would have to emit one by
// chance (about one in 2^64) for the job to have seen it.
func madeUpID(n uint64) uint64 {
	z := n*0x9e3779b97f4a7c15 + 0x5eed_f11e_c0ffee
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
