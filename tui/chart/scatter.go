package chart

import (
	"cmp"
	"math"
	"slices"

	"github.com/NimbleMarkets/ntcharts/canvas"
)

// Point is one run on a scatter chart: where it lies, the character that
// marks it (a scheme's initial, say) and its class.
type Point struct {
	X, Y  float64
	Mark  rune
	Class Class
	// Series names the curve a point belongs to when the axes join
	// points: runs of different jobs are not one trade-off.
	Series string
}

// Axes says how a scatter chart labels its axes.
type Axes struct {
	// X and Y format a value of each axis for its labels.
	X, Y func(float64) string
	// XName names the x axis, under its labels' middle.
	XName string
	// Join draws a line through each series' points in order of x: a
	// trade-off curve rather than separate runs, one per series.
	Join bool
	// LogX spaces the x axis by powers of ten, from the one at or below
	// the smallest x (at least 1) to the one at or above the largest: for
	// quantities orders of magnitude apart, as the schemes' overheads are.
	LogX bool
}

// Scatter draws points on axes from 0 to a round number above the
// largest, each with its own mark, optionally joined by a line in order
// of x. Points on the same cell keep the later one's mark. It returns h
// lines of w cells.
func Scatter(w, h int, pts []Point, ax Axes, g Glyphs, l *Looks) []string {
	gr := newGrid(w, h, g)
	if w < 16 || h < 4 {
		return gr.tooSmall(l)
	}
	var xmax, ymax float64
	xmin := math.Inf(1)
	for _, p := range pts {
		xmax, ymax = max(xmax, p.X), max(ymax, p.Y)
		xmin = min(xmin, p.X)
	}
	xlo, xhi := 0.0, niceCeil(xmax*1.05) // the x axis's ends
	xOf := func(x float64) float64 { return x - xlo }
	if ax.LogX {
		xlo = math.Floor(math.Log10(max(xmin, 1)))
		xhi = max(math.Ceil(math.Log10(max(xmax, 1))), xlo+1)
		xOf = func(x float64) float64 { return math.Log10(max(x, 1)) - xlo }
	}
	ymax = niceCeil(ymax * 1.05)
	ylabels := []string{ax.Y(ymax), ax.Y(0)}
	if h >= 7 {
		ylabels = []string{ax.Y(ymax), ax.Y(ymax / 2), ax.Y(0)}
	}
	lo, hi := xlo, xhi
	if ax.LogX {
		lo, hi = math.Pow(10, xlo), math.Pow(10, xhi)
	}
	xlabels := []string{ax.X(lo), ax.X(hi)}
	if ax.XName != "" {
		xlabels = []string{ax.X(lo), ax.XName, ax.X(hi)}
	}
	span := xhi - xlo
	f := gr.axes(w, ylabels, xlabels)
	if f.w < 2 {
		return gr.lines(l)
	}
	for _, series := range bySeries(pts) {
		if !ax.Join || len(series) < 2 {
			continue
		}
		sorted := slices.SortedStableFunc(slices.Values(series), func(a, b Point) int { return cmp.Compare(a.X, b.X) })
		line := make([]canvas.Float64Point, len(sorted))
		for i, p := range sorted {
			line[i] = canvas.Float64Point{X: xOf(p.X), Y: p.Y}
		}
		gr.curve(f.x0, f.y0, f.w, f.h, 0, span, 0, ymax, line, Axis, g.theory)
	}
	for _, p := range pts {
		gr.set(f.x0+cellX(xOf(p.X), span, f.w), f.y0+cellY(p.Y, ymax, f.h), p.Mark, p.Class)
	}
	return gr.lines(l)
}

// bySeries groups points by their series, in the order each first comes.
func bySeries(pts []Point) [][]Point {
	var out [][]Point
	at := map[string]int{}
	for _, p := range pts {
		i, ok := at[p.Series]
		if !ok {
			i = len(out)
			at[p.Series] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], p)
	}
	return out
}
