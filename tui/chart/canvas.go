// Package chart draws the lab's charts as lines of text: the Bloom
// filter's false-positive rate against the ids it was offered, the ledger
// over virtual time with the kills, restarts and checkpoints that explain
// it, and the learner's own runs compared (checkpoint interval against
// replay, recovery time against overhead).
//
// The plotting is ntcharts' (github.com/NimbleMarkets/ntcharts): its
// Braille grid and line rasteriser place a curve at twice the columns and
// four times the rows of the cells, and its block elements shade an area
// by eighths. The cells are then drawn here, one lipgloss render per run of
// cells of one class rather than one per cell, which keeps a frame cheap,
// and in plain ASCII when the terminal asks for it (TERM=dumb): a Braille
// curve becomes a series' own character, so two lines stay apart without
// colour, as they do under NO_COLOR, where each series has its own glyph.
//
// Every chart is drawn from numbers the engine recorded (the filter's
// curve, the ledger's timeline, the reports of finished runs): nothing is
// interpolated or made up beyond joining measured points with a line.
package chart

import (
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/charmbracelet/lipgloss"

	"github.com/streamlab/streamlab/tui/styles"
)

// Class is what a cell shows, which decides its look.
type Class uint8

// Classes of cell.
const (
	Plain      Class = iota
	Axis             // axes, ticks and their labels
	Theory           // what a formula predicts
	Measured         // what the engine measured
	Gauge            // a level beside a chart (the filter's fill)
	Delivered        // the ledger's delivered records
	Duplicates       // … duplicates
	Lost             // … lost records
	Killed           // a node died
	Restarted        // a replacement took over
	Checkpoint       // a checkpoint completed
	classes
)

// Looks are the styles of the classes; the zero Looks draws plain text.
type Looks struct {
	styles [classes]lipgloss.Style
	set    bool
	// kept is what the classes' styles rendered: a chart drawn at every
	// frame renders mostly the same runs of cells.
	kept *styles.Rendered
}

// NewLooks returns looks with style s for each class named.
func NewLooks(by map[Class]lipgloss.Style) *Looks {
	l := &Looks{set: true, kept: styles.NewRendered()}
	for c, s := range by {
		l.styles[c] = s
	}
	return l
}

// Glyphs are the characters a chart draws with: Unicode, or ASCII for a
// plain terminal.
type Glyphs struct {
	ascii                          bool
	vert, horiz, corner, tick      rune
	point, kill, restart, ckpt     rune
	guide                          rune
	theory, measured               rune // a Braille curve's cells in ASCII
	deliveredA, duplicateA, lostA  rune // area fills in ASCII, by series
	gaugeFull, gaugeHalf, gaugeLow rune
}

// Unicode and ASCII are the two sets of glyphs.
var (
	Unicode = Glyphs{vert: '│', horiz: '─', corner: '└', tick: '┬', point: '●', kill: '✗', restart: '▲', ckpt: '•', guide: '┊'}
	ASCII   = Glyphs{ascii: true, vert: '|', horiz: '-', corner: '+', tick: '+', point: 'o', kill: 'X', restart: '^', ckpt: '.', guide: ':',
		theory: '.', measured: 'o', deliveredA: '#', duplicateA: '+', lostA: '=', gaugeFull: '#', gaugeHalf: '=', gaugeLow: '_'}
)

// For returns the ASCII glyphs when ascii is set, else the Unicode ones.
func For(ascii bool) Glyphs {
	if ascii {
		return ASCII
	}
	return Unicode
}

type cell struct {
	r rune
	c Class
}

// grid is a w×h block of cells, top left (0,0).
type grid struct {
	w, h  int
	cells []cell
	g     Glyphs
}

func newGrid(w, h int, g Glyphs) *grid {
	w, h = max(w, 0), max(h, 0)
	gr := &grid{w: w, h: h, cells: make([]cell, w*h), g: g}
	for i := range gr.cells {
		gr.cells[i] = cell{' ', Plain}
	}
	return gr
}

func (gr *grid) in(x, y int) bool { return x >= 0 && y >= 0 && x < gr.w && y < gr.h }

func (gr *grid) at(x, y int) cell {
	if !gr.in(x, y) {
		return cell{}
	}
	return gr.cells[y*gr.w+x]
}

func (gr *grid) set(x, y int, r rune, c Class) {
	if gr.in(x, y) {
		gr.cells[y*gr.w+x] = cell{r, c}
	}
}

// text writes s from (x, y), cut at the grid's edge; s is ASCII or
// one cell a rune.
func (gr *grid) text(x, y int, s string, c Class) {
	for _, r := range s {
		gr.set(x, y, r, c)
		x++
	}
}

// tooSmall fills the grid with a note, word-wrapped, instead of a chart
// it has no room for: an empty area would look like a chart of nothing.
func (gr *grid) tooSmall(l *Looks) []string {
	x, y := 0, 0
	for _, word := range strings.Fields("too small for the chart: widen the terminal") {
		n := len([]rune(word))
		if x > 0 && x+1+n > gr.w {
			x, y = 0, y+1
		}
		if x > 0 {
			x++
		}
		gr.text(x, y, word, Axis)
		x += n
	}
	return gr.lines(l)
}

// textRight writes s so that it ends at column x (inclusive).
func (gr *grid) textRight(x, y int, s string, c Class) {
	gr.text(x-len([]rune(s))+1, y, s, c)
}

// curve draws points (in data coordinates) joined by lines into the
// w×h cells from (x0, y0) with ntcharts' Braille grid, over the ranges
// given. In ASCII each cell the curve touches gets glyph.
func (gr *grid) curve(x0, y0, w, h int, minX, maxX, minY, maxY float64, pts []canvas.Float64Point, c Class, glyph rune) {
	if w <= 0 || h <= 0 || len(pts) == 0 {
		return
	}
	bg := graph.NewBrailleGrid(w, h, minX, maxX, minY, maxY)
	prev := bg.GridPoint(pts[0])
	bg.Set(prev)
	for _, p := range pts[1:] {
		q := bg.GridPoint(p)
		for _, lp := range graph.GetLinePoints(prev, q) {
			bg.Set(lp)
		}
		prev = q
	}
	for y, row := range bg.BraillePatterns() {
		for x, r := range row {
			if r == runes.BrailleBlockOffset {
				continue
			}
			cur := gr.at(x0+x, y0+y)
			switch {
			case gr.g.ascii:
				gr.set(x0+x, y0+y, glyph, c)
			case runes.IsBraillePattern(cur.r) && cur.c == c:
				gr.set(x0+x, y0+y, runes.CombineBraillePatterns(cur.r, r), c)
			default:
				gr.set(x0+x, y0+y, r, c)
			}
		}
	}
}

// column fills column x from row bottom upwards by frac of rows cells,
// in eighths (ntcharts' lower block elements), or in ASCII with full.
func (gr *grid) column(x, bottom, rows int, frac float64, c Class, full rune) {
	eighths := frac * float64(rows)
	for i := range rows {
		v := eighths - float64(i)
		if v <= 0 {
			return
		}
		r := runes.LowerBlockElementFromFloat64(min(v, 1))
		if gr.g.ascii {
			switch {
			case v >= 0.5:
				r = full
			default:
				r = '_'
			}
		}
		if r == ' ' || r == 0 {
			return
		}
		gr.set(x, bottom-i, r, c)
	}
}

// lines renders the grid, one styled run per stretch of cells of one
// class.
func (gr *grid) lines(l *Looks) []string {
	out := make([]string, gr.h)
	var b, run strings.Builder
	for y := range gr.h {
		b.Reset()
		cur := Class(255)
		flush := func() {
			if run.Len() == 0 {
				return
			}
			b.WriteString(l.Render(cur, run.String()))
			run.Reset()
		}
		for x := range gr.w {
			c := gr.cells[y*gr.w+x]
			cls := c.c
			if c.r == ' ' {
				cls = Plain // spaces need no style
			}
			if cls != cur {
				flush()
				cur = cls
			}
			run.WriteRune(c.r)
		}
		flush()
		out[y] = b.String()
	}
	return out
}

// PointGlyph is the mark of a measured point; Kill, Restart and
// Checkpoint mark the ledger's moments: for legends.
func (g Glyphs) PointGlyph() rune { return g.point }

// Kill, Restart and Checkpoint are the ledger chart's marks.
func (g Glyphs) Kill() rune       { return g.kill }
func (g Glyphs) Restart() rune    { return g.restart }
func (g Glyphs) Checkpoint() rune { return g.ckpt }

// Line is the glyph of a curve in a legend: a Braille stroke, or in
// ASCII the curve's own character.
func (g Glyphs) Line() string {
	if g.ascii {
		return string([]rune{g.theory, g.theory, g.theory})
	}
	return "⠤⠤⠤"
}
