package chart

import (
	"math"
	"strconv"

	"github.com/NimbleMarkets/ntcharts/canvas"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/tui/draw"
)

// FilterData is what the false-positive chart draws: a Bloom filter's
// shape, its curve of first sightings and false drops by n, and its fill.
type FilterData struct {
	M, K  uint64
	Curve filter.Curve
	Fill  float64
}

// gaugeW is the width of the fill gauge right of the plot.
const gaugeW = 5

// FalsePositives draws the false-positive rate against n, the distinct
// ids offered: the formula's (1 − e^(−kn/m))^k as a line, and the rate
// measured in each bucket of first sightings as points (the false drops
// among the first sightings that met that n) — the same quantity at the
// same fill. Right of it a gauge shows the share of bits set now. It
// returns h lines of w cells; nothing when w×h is too small to read.
func FalsePositives(w, h int, d FilterData, g Glyphs, l *Looks) []string {
	gr := newGrid(w, h, g)
	if w < 20 || h < 4 {
		return gr.tooSmall(l)
	}
	n := max(d.Curve.N, 1)
	theory := func(x float64) float64 { return filter.TheoreticalFP(d.M, d.K, int64(x)) }
	used := d.Curve.Used()
	top := theory(float64(n))
	for i, b := range used {
		if measurable(b, i, len(used), d.Curve.Size) {
			top = max(top, b.Rate())
		}
	}
	ymax := niceCeil(top * 1.05)
	ylabels := []string{pct(ymax), "0%"}
	if h >= 7 {
		ylabels = []string{pct(ymax), pct(ymax / 2), "0%"}
	}
	xlabels := []string{"0", draw.Count(n / 2), draw.Count(n) + " ids"}
	f := gr.axes(w-gaugeW, ylabels, xlabels)
	if f.w < 2 {
		return gr.lines(l)
	}
	// The formula, sampled at every Braille column.
	cols := 2 * f.w
	pts := make([]canvas.Float64Point, 0, cols)
	for i := range cols {
		x := float64(n) * float64(i) / float64(cols-1)
		pts = append(pts, canvas.Float64Point{X: x, Y: min(theory(x), ymax)})
	}
	gr.curve(f.x0, f.y0, f.w, f.h, 0, float64(n), 0, ymax, pts, Theory, g.theory)
	// The measured rate of each bucket, at the middle of its first
	// sightings.
	for i, b := range used {
		if !measurable(b, i, len(used), d.Curve.Size) {
			continue
		}
		mid := float64(int64(i)*d.Curve.Size) + float64(b.Firsts)/2
		x := f.x0 + cellX(mid, float64(n), f.w)
		y := f.y0 + cellY(min(b.Rate(), ymax), ymax, f.h)
		gr.set(x, y, g.point, Measured)
	}
	// The fill gauge.
	gx := w - gaugeW + 2
	gr.textRight(w-1, 0, strconv.Itoa(int(math.Round(d.Fill*100)))+"%", Gauge)
	gr.column(gx, f.h-1, f.h-1, d.Fill, Gauge, g.gaugeFull)
	gr.column(gx+1, f.h-1, f.h-1, d.Fill, Gauge, g.gaugeFull)
	gr.text(w-gaugeW+1, f.h+1, "fill", Axis)
	return gr.lines(l)
}

// measurable says whether bucket i of n has enough first sightings to
// show a rate: every full bucket, and the last one once half full.
func measurable(b filter.CurveBucket, i, n int, size int64) bool {
	return b.Firsts > 0 && (i < n-1 || b.Firsts*2 >= size || n == 1)
}

// cellX is the column of w that value v of [0, maxV] falls in, and cellY
// the row of h (counted from the top), as ntcharts' Braille grid places
// them — two dots a cell across, four down — so a point sits on its line.
func cellX(v, maxV float64, w int) int {
	if maxV <= 0 || w <= 0 {
		return 0
	}
	sub := int(math.Round(v / maxV * float64(2*w-1)))
	return min(max(sub/2, 0), w-1)
}

func cellY(v, maxV float64, h int) int {
	if maxV <= 0 || h <= 0 {
		return h - 1
	}
	sub := 4*h - 1 - int(math.Round(v/maxV*float64(4*h-1)))
	return min(max(sub/4, 0), h-1)
}
