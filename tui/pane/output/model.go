// Package output is the lab's output pane: what the sink holds. For a log
// sink it scrolls the rows as they are written; for a table sink it shows
// one row per window and key, updated in place, with what just changed
// highlighted. A row written again with the same contents (an extra effect
// of some input record) is marked ×2, ×3, …
package output

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// maxLog bounds the rows the log view keeps.
const maxLog = 1000

// flashMS is how long (virtual time) a table row stays highlighted after it
// changed.
const flashMS = 2000

// logRow is a row as written, with how many times the same row had been
// written by then.
type logRow struct {
	rec   engine.Record
	times int
}

type cellKey struct {
	start int64
	key   string
}

// cell is one window and key of the table view.
type cell struct {
	rec     engine.Record
	changed int64 // virtual time of the last change
	times   int   // writes of this exact row
}

// Model is the output pane.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	w, h    int
	focused bool
	gen     int64

	sink   engine.SinkKind
	mode   engine.Mode
	clock  int64
	prev   []engine.Record
	seen   map[engine.Record]int
	log    []logRow
	table  map[cellKey]*cell
	order  []cellKey // table keys, sorted
	scroll int       // rows scrolled up from the newest
	// rev numbers the rows as they are now, for memo's key.
	rev  uint64
	memo *draw.Memo[viewKey]
}

// New returns an empty output pane.
func New(st *styles.Styles) Model {
	m := Model{st: st, keys: DefaultKeyMap(), memo: &draw.Memo[viewKey]{}}
	m.reset()
	return m
}

func (m *Model) reset() {
	m.prev, m.log, m.order, m.scroll, m.rev = nil, nil, nil, 0, draw.Revision()
	m.seen = map[engine.Record]int{}
	m.table = map[cellKey]*cell{}
}

// Keys is the pane's key map.
func (m Model) Keys() KeyMap { return m.keys }

// SetSize sets the pane's outer size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetFocused says whether the pane has the keyboard.
func (m *Model) SetFocused(f bool) { m.focused = f }

// SetFrame takes the sink's latest rows from a frame.
func (m *Model) SetFrame(f bridge.Frame) {
	if f.Gen != m.gen {
		m.gen = f.Gen
		m.reset()
	}
	m.sink, m.mode, m.clock = f.Snap.Sink, f.Snap.Mode, f.ClockMS
	rows := newRows(m.prev, f.Snap.Rows)
	m.prev = f.Snap.Rows
	for _, r := range rows {
		m.add(r)
	}
}

// countsRepeats says whether writing the same row again is an extra
// effect. In complete mode every trigger rewrites the whole result, so a
// repeated row there is normal.
func (m *Model) countsRepeats() bool { return m.mode != engine.ModeComplete }

func (m *Model) add(r engine.Record) {
	times := 1
	if m.countsRepeats() {
		m.seen[r]++
		times = m.seen[r]
	}
	m.rev = draw.Revision()
	m.log = append(m.log, logRow{r, times})
	if len(m.log) > maxLog {
		m.log = m.log[len(m.log)-maxLog:]
	}
	if !r.IsResult() {
		return
	}
	k := cellKey{r.WindowStart, r.Key}
	c := m.table[k]
	if c == nil {
		c = &cell{}
		m.table[k] = c
		m.insertKey(k)
	}
	if c.rec != r {
		c.changed = m.clock
	}
	c.rec, c.times = r, times
}

// insertKey keeps the table's keys sorted by window, then key.
func (m *Model) insertKey(k cellKey) {
	i := len(m.order)
	for i > 0 && less(k, m.order[i-1]) {
		i--
	}
	m.order = append(m.order, cellKey{})
	copy(m.order[i+1:], m.order[i:])
	m.order[i] = k
}

func less(a, b cellKey) bool {
	if a.start != b.start {
		return a.start < b.start
	}
	return a.key < b.key
}

// tableView says whether the pane shows the table (a table sink of
// aggregation results) rather than the log.
func (m Model) tableView() bool { return m.sink == engine.SinkTable && len(m.table) > 0 }

// Update scrolls.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	m.scroll, _ = m.keys.Scroll(k, m.scroll, max(m.h-3, 1), m.total())
	return m, nil
}

// Marked is the row the pane marks while it has the focus (the newest in
// view, which the scroll keys move), as `why` names it: KEY@MS for a
// window's count, offset=N for an event; ok is false when there is none.
func (m Model) Marked() (row string, ok bool) {
	r, ok := m.marked()
	if !ok {
		return "", false
	}
	if r.IsResult() {
		return fmt.Sprintf("%s@%d", r.Key, r.WindowStart), true
	}
	return fmt.Sprintf("offset=%d", r.Offset), true
}

// marked is the newest row in view.
func (m Model) marked() (engine.Record, bool) {
	if m.tableView() {
		_, to := m.window(len(m.order), max(m.h-3, 1))
		if to == 0 {
			return engine.Record{}, false
		}
		return m.table[m.order[to-1]].rec, true
	}
	_, to := m.window(len(m.log), max(m.h-2, 1))
	if to == 0 {
		return engine.Record{}, false
	}
	return m.log[to-1].rec, true
}

// Scroll is how many rows the view is scrolled up from the newest.
func (m Model) Scroll() int { return m.scroll }

func (m Model) total() int {
	if m.tableView() {
		return len(m.order)
	}
	return len(m.log)
}
