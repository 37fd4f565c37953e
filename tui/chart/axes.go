package chart

import (
	"math"
	"strconv"

	"github.com/streamlab/streamlab/tui/draw"
)

// frame is a plot area inside a grid: the y labels left of a vertical
// axis, the x axis under the area and its labels on the row below.
type frame struct {
	x0, y0, w, h int // the plot area, in cells
}

// axes draws the axes of a plot whose area ends right of column right
// (exclusive) in a grid of gr.h rows: the y labels, top to bottom (the
// first at the top row, the last at the axis), right-aligned left of the
// axis; the x labels under the axis, the first at its left, the last
// ending at its right end.
func (gr *grid) axes(right int, ylabels, xlabels []string) frame {
	lw := 0
	for _, l := range ylabels {
		lw = max(lw, len([]rune(l)))
	}
	f := frame{x0: lw + 1, y0: 0, w: right - lw - 1, h: gr.h - 2}
	if f.w < 2 || f.h < 1 {
		return frame{}
	}
	ax := f.x0 - 1
	for y := range f.h {
		gr.set(ax, y, gr.g.vert, Axis)
	}
	gr.set(ax, f.h, gr.g.corner, Axis)
	for x := f.x0; x < f.x0+f.w; x++ {
		gr.set(x, f.h, gr.g.horiz, Axis)
	}
	for i, l := range ylabels {
		// Evenly spaced values, each at the row its value is drawn in.
		y := 0
		if len(ylabels) > 1 {
			y = cellY(1-float64(i)/float64(len(ylabels)-1), 1, f.h)
		}
		gr.textRight(ax-1, y, l, Axis)
	}
	row := f.h + 1
	switch len(xlabels) {
	case 0:
	case 1:
		gr.text(f.x0, row, xlabels[0], Axis)
	default:
		gr.text(f.x0, row, xlabels[0], Axis)
		last := xlabels[len(xlabels)-1]
		gr.textRight(f.x0+f.w-1, row, last, Axis)
		if len(xlabels) == 3 {
			mid := xlabels[1]
			x := f.x0 + cellX(0.5, 1, f.w) - len([]rune(mid))/2
			if x > f.x0+len([]rune(xlabels[0])) && x+len([]rune(mid)) < f.x0+f.w-len([]rune(last)) {
				gr.text(x, row, mid, Axis)
			}
		}
	}
	return f
}

// niceCeil rounds v up to a round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5,
// 6 or 8 times a power of ten), so an axis ends on one whose half is
// round too, without wasting much of the chart's height.
func niceCeil(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if v <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// pct labels a rate as a percentage, briefly: 12%, 12.5%, 1.5%, 0.2%.
func pct(p float64) string {
	x := math.Round(p*100*1e6) / 1e6 // 0.6·100 is 60.00000000000001
	switch {
	case x <= 0:
		return "0%"
	case x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', 0, 64) + "%"
	case x >= 1:
		return strconv.FormatFloat(x, 'f', 1, 64) + "%"
	}
	return draw.Percent(p)
}

// seconds labels virtual milliseconds: 0s, 12s, 2m30s.
func seconds(ms int64) string {
	s := ms / 1000
	if s < 120 {
		return strconv.FormatInt(s, 10) + "s"
	}
	if s%60 == 0 {
		return strconv.FormatInt(s/60, 10) + "m"
	}
	return strconv.FormatInt(s/60, 10) + "m" + strconv.FormatInt(s%60, 10) + "s"
}
