package chart

import (
	"strconv"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/draw"
)

// LedgerData is what the ledger chart draws: the timeline the engine
// recorded, up to EndMS of virtual time (at least its last sample), and
// whether to draw the change in each interval rather than running totals.
type LedgerData struct {
	Timeline engine.Timeline
	EndMS    int64
	Changes  bool
}

// ledgerLabelW is the column of series names and scales left of the
// strips.
const ledgerLabelW = 11

// Ledger draws delivered, duplicates and lost records over virtual time,
// one strip each on a scale of its own (a few lost records beside
// thousands delivered would not show on one), under a row that marks
// where a node was killed (✗), a replacement took over (▲) and a
// checkpoint completed (•), with the kills and restarts carried down
// through the strips as dotted lines; the time axis is at the bottom.
// It returns h lines of w cells.
func Ledger(w, h int, d LedgerData, g Glyphs, l *Looks) []string {
	gr := newGrid(w, h, g)
	pw := w - ledgerLabelW
	if pw < 8 || h < 5 {
		return gr.tooSmall(l)
	}
	tl := d.Timeline
	end := d.EndMS
	if n := len(tl.Samples); n > 0 {
		end = max(end, tl.Samples[n-1].TimeMS)
	}
	for _, m := range tl.Marks {
		end = max(end, m.TimeMS)
	}
	end = max(end, 1000)
	col := func(ms int64) int { return min(int(ms*int64(pw)/(end+1)), pw-1) }

	// The value of each series in each column: the last sample at or
	// before the column's end (totals only ever grow), or the growth
	// over the column.
	series := [3][]int64{make([]int64, pw), make([]int64, pw), make([]int64, pw)}
	pick := func(s engine.TimelineSample) [3]int64 { return [3]int64{s.Delivered, s.Duplicates, s.Lost} }
	var cur [3]int64
	j := 0
	for c := range pw {
		colEnd := (int64(c) + 1) * (end + 1) / int64(pw)
		for j < len(tl.Samples) && tl.Samples[j].TimeMS < colEnd {
			cur = pick(tl.Samples[j])
			j++
		}
		for i := range series {
			series[i][c] = cur[i]
		}
	}
	if d.Changes {
		for i := range series {
			prev := int64(0)
			for c, v := range series[i] {
				series[i][c], prev = v-prev, v
			}
		}
	}

	// Rows: the marks, three strips, the axis and its labels.
	strips := h - 3
	base := strips / 3
	heights := [3]int{base, base, base}
	for i := range strips % 3 { // delivered first, then lost
		heights[[]int{0, 2, 1}[i]]++
	}
	names := [3]string{"delivered", "duplicates", "lost"}
	short := [3]string{"deliv", "dups", "lost"}
	classes := [3]Class{Delivered, Duplicates, Lost}
	fills := [3]rune{g.deliveredA, g.duplicateA, g.lostA}
	x0 := ledgerLabelW
	y := 1
	guides := map[int]engine.MarkKind{}
	for _, m := range tl.Marks {
		c := col(m.TimeMS)
		switch {
		case m.Kind == engine.MarkKilled:
			guides[c] = m.Kind
		case m.Kind == engine.MarkRestarted && guides[c] != engine.MarkKilled:
			guides[c] = m.Kind
		}
	}
	for i, hgt := range heights {
		if hgt == 0 {
			continue
		}
		top := int64(0)
		for _, v := range series[i] {
			top = max(top, v)
		}
		gr.text(0, y, names[i], Axis)
		if hgt > 1 || top > 0 {
			scale := draw.Count(top)
			if hgt == 1 {
				gr.text(0, y, "         ", Axis)
				gr.text(0, y, short[i], Axis)
			}
			gr.textRight(ledgerLabelW-2, y+min(1, hgt-1), scale, classes[i])
		}
		gr.set(x0-1, y+hgt-1, g.vert, Axis)
		for r := range hgt - 1 {
			gr.set(x0-1, y+r, g.vert, Axis)
		}
		for c, v := range series[i] {
			if kind, ok := guides[c]; ok {
				cls := Killed
				if kind == engine.MarkRestarted {
					cls = Restarted
				}
				for r := range hgt {
					gr.set(x0+c, y+r, g.guide, cls)
				}
			}
			if top > 0 && v > 0 {
				gr.column(x0+c, y+hgt-1, hgt, float64(v)/float64(top), classes[i], fills[i])
			}
		}
		y += hgt
	}
	// The marks row: a kill wins a column over a restart, a restart over
	// a checkpoint.
	gr.text(0, 0, "events", Axis)
	rank := map[engine.MarkKind]int{engine.MarkCheckpoint: 1, engine.MarkRestarted: 2, engine.MarkKilled: 3}
	best := make([]int, pw)
	for _, m := range tl.Marks {
		c := col(m.TimeMS)
		if rank[m.Kind] <= best[c] {
			continue
		}
		best[c] = rank[m.Kind]
		switch m.Kind {
		case engine.MarkKilled:
			gr.set(x0+c, 0, g.kill, Killed)
		case engine.MarkRestarted:
			gr.set(x0+c, 0, g.restart, Restarted)
		default:
			gr.set(x0+c, 0, g.ckpt, Checkpoint)
		}
	}
	// The time axis.
	gr.set(x0-1, y, g.corner, Axis)
	for c := range pw {
		gr.set(x0+c, y, g.horiz, Axis)
	}
	gr.text(x0, y+1, "0s", Axis)
	gr.textRight(w-1, y+1, seconds(end), Axis)
	if mid := seconds(end / 2); pw >= 24 {
		gr.text(x0+pw/2-len(mid)/2, y+1, mid, Axis)
	}
	if d.Changes {
		gr.text(0, y+1, "per "+strconv.FormatInt(max((end+1)/int64(pw), 1), 10)+"ms", Axis)
	}
	return gr.lines(l)
}
