// Package markdown lays out the lessons' and exercises' Markdown for a
// pane of the terminal lab: tables, code, emphasis, links and nested
// lists, in the lab's theme. It renders with glamour, but never lets
// glamour look at the terminal (no automatic style: a query would hang a
// terminal that does not answer, and would make the output depend on the
// terminal in tests and over SSH); the caller says what the terminal can
// do. Rendering costs a few milliseconds, so a Renderer keeps what it
// rendered, by document and width.
package markdown

import (
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/lipgloss"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/tui/styles"
)

// Renderer renders Markdown in one theme for one kind of terminal and
// keeps the results. It is safe for concurrent use.
type Renderer struct {
	profile termenv.Profile
	config  ansi.StyleConfig
	ticks   bool // code spans keep their backticks
	// mutedColor draws a table's rules; "" for none.
	mutedColor string

	mu    sync.Mutex
	terms map[int]*glamour.TermRenderer
	cache map[key][]string
}

type key struct {
	doc   string
	width int
}

// maxCached bounds the cache: a lesson has a few dozen documents (its
// text, steps, hints, check), and a pane a handful of widths.
const maxCached = 512

// New returns a renderer for theme t on a terminal with colour profile p
// (termenv.Ascii: no escape codes at all) and a dark background or not.
func New(t styles.Theme, p termenv.Profile, dark bool) *Renderer {
	r := &Renderer{profile: p, config: Style(t, p, dark), ticks: ticks(t, p),
		terms: map[int]*glamour.TermRenderer{}, cache: map[key][]string{}}
	if c := colorOf(t.Muted, dark); c != nil {
		r.mutedColor = *c
	}
	return r
}

// ForLab returns a renderer for theme t on the terminal lipgloss draws
// the rest of the lab on: its colour profile, and its background as
// lipgloss already knows it (asked only when there are colours to pick).
func ForLab(t styles.Theme) *Renderer {
	p := lipgloss.ColorProfile()
	dark := true
	if p != termenv.Ascii && t.Text != nil {
		dark = lipgloss.HasDarkBackground()
	}
	return New(t, p, dark)
}

// Lines renders md to lines of at most w cells. The lines are shared
// with later calls: the caller must not change them. A nil renderer lays
// md out as plain wrapped text.
func (r *Renderer) Lines(md string, w int) []string {
	w = max(w, 1)
	if r == nil {
		return fallback(md, w)
	}
	k := key{md, w}
	r.mu.Lock()
	defer r.mu.Unlock()
	if out, ok := r.cache[k]; ok {
		return out
	}
	out := r.render(md, w)
	if len(r.cache) >= maxCached {
		clear(r.cache)
	}
	r.cache[k] = out
	return out
}

// render lays md out for w cells. glamour turns the Markdown into styled
// text with each paragraph and list item on one line (its own wrapping
// breaks inside words and leaves list items without a hanging indent);
// layout wraps it for the pane; tables are drawn by drawTable.
func (r *Renderer) render(md string, w int) []string {
	var lines []string
	for i, b := range prepare(md, w, r.ticks) {
		if i > 0 {
			lines = append(lines, "")
		}
		if b.table != nil {
			t, err := r.drawTable(b.table, w)
			if err != nil {
				return fallback(md, w)
			}
			lines = append(lines, t...)
			continue
		}
		s, err := r.glamour(b.md)
		if err != nil {
			return fallback(md, w)
		}
		lines = append(lines, wrap(strings.Split(s, "\n"), w)...)
	}
	lines = tidy(lines, w)
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, nbHyphen, "-")
	}
	return lines
}

// glamour renders md with no line wrapped: each line of md is a block's
// whole text (see prepare), and glamour is told the longest is narrower
// than the page. Renderers are kept by that width, rounded up.
func (r *Renderer) glamour(md string) (string, error) {
	widest := 0
	for _, l := range strings.Split(md, "\n") {
		widest = max(widest, xansi.StringWidth(l))
	}
	page := (widest/pageStep + 1) * pageStep
	tr, ok := r.terms[page]
	if !ok {
		var err error
		tr, err = glamour.NewTermRenderer(glamour.WithStyles(r.config), glamour.WithColorProfile(r.profile),
			glamour.WithWordWrap(page))
		if err != nil {
			return "", err
		}
		r.terms[page] = tr
	}
	return tr.Render(md)
}

// pageStep rounds the width glamour is given.
const pageStep = 128

// fallback is md as plain wrapped text, should glamour fail.
func fallback(md string, w int) []string {
	return strings.Split(xansi.Hardwrap(xansi.Wordwrap(md, w, ""), w, true), "\n")
}
