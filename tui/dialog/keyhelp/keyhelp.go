// Package keyhelp is the help (?): every key that works now, from the same
// key maps the key dispatch and the help bar read, drawn over the screen
// and scrolled with the arrows. The lab decides which keys work and which
// close the help.
package keyhelp

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// why says what the palette's why asks for: a ROW as the Output pane
// shows it.
const why = ": why ROW explains a row: ROW is KEY@HH:MM:SS (click@12:00:10), offset=N or a record id"

// Model is the help, open or closed, and how far its list is scrolled.
type Model struct {
	open bool
	off  int
}

// Open opens the help at the top of its list.
func (m *Model) Open() { m.open, m.off = true, 0 }

// Close closes the help.
func (m *Model) Close() { m.open = false }

// Active reports whether the help is open.
func (m Model) Active() bool { return m.open }

// Update scrolls the list: a line with the arrows, a page of ten with
// page up and down; other keys do nothing.
func (m Model) Update(k tea.KeyMsg) Model {
	switch k.String() {
	case "up":
		m.off = max(m.off-1, 0)
	case "down":
		m.off++
	case "pgup":
		m.off = max(m.off-10, 0)
	case "pgdown":
		m.off += 10
	}
	return m
}

// Box draws every enabled key of keys over body, on a screen w wide,
// scrolled as far as the help is.
func (m Model) Box(st *styles.Styles, w int, body []string, keys help.KeyMap) []string {
	return box(st, w, body, keys, m.off)
}

// box draws every enabled key of keys over body, on a screen w wide: the
// groups of the key map one after another, in as many columns as the
// width allows, scrolled off lines down when they do not fit the height.
func box(st *styles.Styles, w int, body []string, keys help.KeyMap, off int) []string {
	type cell struct{ key, desc string }
	var cells []cell
	seen := map[string]bool{}
	keyW, descW := 0, 0
	for _, group := range keys.FullHelp() {
		for _, b := range group {
			h := b.Help()
			if h.Key == "" || seen[h.Key+h.Desc] || !b.Enabled() {
				continue
			}
			seen[h.Key+h.Desc] = true
			cells = append(cells, cell{h.Key, h.Desc})
			keyW, descW = max(keyW, ansi.StringWidth(h.Key)), max(descW, ansi.StringWidth(h.Desc))
		}
	}
	descW = min(descW, 26)
	cellW := keyW + 1 + descW
	inner := min(w-6, 3*(cellW+2))
	cols := max(1, min((inner+2)/(cellW+2), 3))
	rows := (len(cells) + cols - 1) / cols
	var text []string
	for r := range rows {
		var line []string
		for c := range cols {
			if i := c*rows + r; i < len(cells) {
				line = append(line, st.Accent.Render(draw.Fit(cells[i].key, keyW))+" "+st.Muted.Render(draw.Fit(cells[i].desc, descW)))
			}
		}
		text = append(text, strings.Join(line, "  "))
	}
	page := max(len(body)-5, 3)
	off = min(max(off, 0), max(len(text)-page, 0))
	foot := "? or esc closes this help"
	if len(text) > page {
		foot = fmt.Sprintf("keys %d–%d of %d · ↑↓ scroll · ", off+1, min(off+page, len(text)), len(text)) + foot
		text = text[off:min(off+page, len(text))]
	}
	text = append(text, "", st.Muted.Render(why), st.Muted.Render(foot))
	boxW := 0
	for _, l := range text {
		boxW = max(boxW, ansi.StringWidth(l))
	}
	boxW = min(boxW+2, w-2)
	framed := draw.Box(st.Modal, "Keys", text, boxW+2, len(text)+2)
	return draw.Overlay(body, framed, max((w-boxW-2)/2, 0), max((len(body)-len(framed))/2, 0))
}
