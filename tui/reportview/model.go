package reportview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// KeyMap are the overlay's keys.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Close key.Binding
}

// DefaultKeyMap is the overlay's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Close:    key.NewBinding(key.WithKeys("R", "esc", "q"), key.WithHelp("R/esc", "close the report")),
	}
}

// ShortHelp lists the keys for the help bar.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{draw.KeyPair(k.Up, k.Down, "scroll"), draw.KeyPair(k.PageUp, k.PageDown, "page"), k.Top, k.Close}
}

// FullHelp lists every key.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Close}}
}

// Model is the report overlay: open or closed, the latest report the
// engine sent, and how far it is scrolled.
type Model struct {
	st     *styles.Styles
	keys   KeyMap
	active bool
	rep    *report.Report
	clock  string
	why    string // why there is no report yet
	offset int
	w, h   int // the box's outer size
	// hideSeed: see HideSeed.
	hideSeed bool
}

// New returns a closed overlay.
func New(st *styles.Styles) Model { return Model{st: st, keys: DefaultKeyMap(), w: 78, h: 20} }

// SetSize sets the box's outer size.
func (m *Model) SetSize(w, h int) { m.w, m.h = max(w, 20), max(h, 5) }

// page is how many rows the box shows.
func (m Model) page() int { return max(m.h-3, 1) }

// clamp keeps the offset within the rows.
func (m Model) clamp(off int) int {
	total := len(m.Rows(m.w - 4))
	return min(max(off, 0), max(total-m.page(), 0))
}

// Keys is the overlay's key map.
func (m Model) Keys() KeyMap { return m.keys }

// Active reports whether the overlay is open.
func (m Model) Active() bool { return m.active }

// Open shows the overlay from the top.
func (m *Model) Open() { m.active, m.offset = true, 0 }

// Close hides it.
func (m *Model) Close() { m.active = false }

// SetReport gives the overlay the latest report, taken at virtual time
// clock; nil with why when the job has not started.
func (m *Model) SetReport(rep *report.Report, clock, why string) {
	m.rep, m.clock, m.why = rep, clock, why
}

// HideSeed keeps job.seed out of the report: in a lab served with a
// grading secret, the seed is the student's own, derived from the secret,
// and with it a student could run the exercise's scenario elsewhere and
// read the answers off the report.
func (m *Model) HideSeed() { m.hideSeed = true }

// hiddenSeed is what the report shows for a hidden seed.
const hiddenSeed = "yours (not shown)"

// Report is the report shown, nil before one arrived.
func (m Model) Report() *report.Report { return m.rep }

// Offset is the first row shown.
func (m Model) Offset() int { return m.offset }

// Update scrolls or closes the overlay.
func (m Model) Update(k tea.KeyMsg) Model {
	switch {
	case key.Matches(k, m.keys.Close):
		m.active = false
	case key.Matches(k, m.keys.Up):
		m.offset--
	case key.Matches(k, m.keys.Down):
		m.offset++
	case key.Matches(k, m.keys.PageUp):
		m.offset -= m.page()
	case key.Matches(k, m.keys.PageDown):
		m.offset += m.page()
	case key.Matches(k, m.keys.Top):
		m.offset = 0
	}
	m.offset = m.clamp(m.offset)
	return m
}

// cellWidth is one key–value cell: the longest key, a gap, a value.
const (
	keyWidth   = 22
	valueWidth = 12
	cellWidth  = keyWidth + valueWidth + 2
)

// Rows lays the report out for an inner width w: a heading per section,
// then its fields in as many columns as fit; a value too long for a cell
// gets a line (or more) of its own.
func (m Model) Rows(w int) []string {
	st := m.st
	if m.rep == nil {
		why := m.why
		if why == "" {
			why = "no report yet"
		}
		var out []string
		for _, l := range strings.Split(ansi.Wordwrap(why, max(w, 10), " "), "\n") {
			out = append(out, st.Muted.Render(l))
		}
		return out
	}
	secs, err := Sections(m.rep)
	if err != nil {
		return []string{st.Bad.Render("the report could not be read: " + err.Error())}
	}
	if m.hideSeed {
		for i := range secs {
			for j := range secs[i].Fields {
				if secs[i].Name == "job" && secs[i].Fields[j].Key == "seed" {
					secs[i].Fields[j].Value = hiddenSeed
				}
			}
		}
	}
	cols := max(1, (w+2)/(cellWidth+2))
	var out []string
	for _, s := range secs {
		out = append(out, st.Accent.Render(s.Name))
		var row []string
		flush := func() {
			if len(row) > 0 {
				out = append(out, "  "+strings.Join(row, "  "))
				row = nil
			}
		}
		for _, f := range s.Fields {
			k := st.Muted.Render(draw.Fit(f.Key, keyWidth))
			if ansi.StringWidth(f.Value) > valueWidth || ansi.StringWidth(f.Key) > keyWidth {
				flush()
				key := f.Key
				if ansi.StringWidth(key) < keyWidth {
					key = draw.Fit(key, keyWidth)
				}
				out = append(out, wrap("  "+st.Muted.Render(key)+" ", st.Bold.Render(f.Value), f.Value, w)...)
				continue
			}
			row = append(row, k+" "+st.Bold.Render(draw.Fit(f.Value, valueWidth)))
			if len(row) == cols {
				flush()
			}
		}
		flush()
	}
	return out
}

// wrap writes a long value after its key, continuing on indented lines.
func wrap(head, styled, raw string, w int) []string {
	if ansi.StringWidth(head)+ansi.StringWidth(raw) <= w {
		return []string{head + styled}
	}
	lines := strings.Split(ansi.Wordwrap(raw, max(w-6, 10), " "), "\n")
	out := []string{head}
	for _, l := range lines {
		out = append(out, "      "+l)
	}
	return out
}

// Lines draws the overlay as a box of its size.
func (m Model) Lines() []string {
	w, h, page := m.w, m.h, m.page()
	rows := m.Rows(w - 4)
	off := min(max(m.offset, 0), max(len(rows)-page, 0))
	end := min(off+page, len(rows))
	var content []string
	for _, r := range rows[off:end] {
		content = append(content, " "+r)
	}
	for len(content) < page {
		content = append(content, "")
	}
	more := fmt.Sprintf("rows %d–%d of %d · ↑↓ pgup pgdn scroll · R or esc closes", off+1, end, len(rows))
	if len(rows) <= page {
		more = "R or esc closes"
	}
	content = append(content, m.st.Muted.Render(" "+more))
	title := "Report"
	if m.clock != "" {
		title += " at t " + m.clock
	}
	return draw.Box(m.st.Modal, title, content, w, h)
}
