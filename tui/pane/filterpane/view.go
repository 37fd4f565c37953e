package filterpane

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/tui/chart"
	"github.com/streamlab/streamlab/tui/draw"
)

// Sizes of the drawing, in cells.
const (
	maxMapCols = 64 // 4 rows of 64 show all engine.DensityBuckets
	wideW      = 40 // from this inner width on, the statistics are spelled out
	labelW     = 13 // their label column
)

// View draws the pane.
func (m Model) View() string { return strings.Join(m.Lines(), "\n") }

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	iw, ih := m.w-2, m.h-2
	var body []string
	if iw > 0 && ih > 0 {
		switch {
		case m.stats == nil:
			body = m.noFilter(iw)
		case m.chart && m.chartable():
			body = m.fpChart(iw, ih)
		case m.stats.Kind == filter.KindBloom:
			body = m.bloom(iw, ih)
		case m.stats.Kind == filter.KindRotating:
			body = m.rotating(iw)
		default:
			body = m.exact(iw)
		}
	}
	return draw.Box(frame, m.title(), body, m.w, m.h)
}

func (m Model) title() string {
	switch {
	case m.stats == nil:
		return "Filter"
	case m.check:
		return "Filter · breach list · " + m.stats.Spec
	}
	if m.chart && m.chartable() {
		return "Filter · false positives · " + m.stats.Spec
	}
	return "Filter · " + m.stats.Spec
}

// wrap wraps text to w cells, indenting the lines after the first by
// indent spaces.
func wrap(text string, w, indent int) []string {
	lines := strings.Split(ansi.Wrap(text, w, " "), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat(" ", indent) + lines[i]
	}
	return lines
}

// noFilter says how to add a filter.
func (m Model) noFilter(w int) []string {
	st := m.st
	var out []string
	out = append(out, wrap(st.Muted.Render("No membership filter: a record replayed after a failure reaches the sink twice. Remove duplicates with a dedup stage:"), w, 0)...)
	out = append(out, "")
	for _, cmd := range []string{":set filter bloom n=10000 p=0.01", ":set filter exact"} {
		out = append(out, wrap(st.Accent.Render(cmd), w, 2)...)
	}
	return append(out, "", st.Muted.Render("or f to pick one"))
}

// kv is a label and its value; narrow panes drop the label column.
func (m Model) kv(label, value string, w int) string {
	if w < wideW {
		return m.st.Muted.Render(label+" ") + value
	}
	return m.st.Muted.Render(fmt.Sprintf("%-*s", labelW, label)) + value
}

// exact describes an exact set: its memory, and what it dropped.
func (m Model) exact(w int) []string {
	s, st := m.stats, m.st
	out := []string{
		st.OK.Render("exact set") + st.Muted.Render(" · never wrong"),
		m.kv("ids held", draw.Count(s.Inserted), w),
		m.kv("memory", draw.Bytes(s.Bytes)+st.Muted.Render(" · ")+bitsPerID(s.BitsPerElement), w),
		m.kv("dropped", draw.Count(s.Drops)+st.Muted.Render(" duplicates"), w),
	}
	return out
}

// rotating describes a rotating Bloom filter: bounded memory, paid for
// with both kinds of mistake — false drops of new ids, and duplicates that
// come back after the older generation was dropped and pass as new.
func (m Model) rotating(w int) []string {
	s, st := m.stats, m.st
	falses := st.OK.Render(draw.Count(s.FalseDrops))
	if s.FalseDrops > 0 {
		falses = st.Bad.Render(draw.Count(s.FalseDrops))
	}
	return []string{
		st.Warn.Render("rotating Bloom") + st.Muted.Render(" · forgets old ids"),
		m.kv("memory", draw.Bytes(s.Bytes)+st.Muted.Render(" · ")+bitsPerID(s.BitsPerElement), w),
		m.kv("fill", draw.Percent(s.FillRatio), w),
		m.kv("dropped", draw.Count(s.Drops)+st.Muted.Render(" as seen"), w),
		m.kv("false drops", falses+st.Muted.Render(" new ids"), w),
		st.Muted.Render("a duplicate older than two generations passes"),
	}
}

// expected writes the formula's expected false drops: 35.2, 962, 12k.
func expected(e float64) string {
	if e < 100 {
		return strconv.FormatFloat(e, 'f', 1, 64)
	}
	return draw.Count(int64(e + 0.5))
}

func bitsPerID(b float64) string {
	switch {
	case b == 0:
		return "– bits/id"
	case b < 10:
		return strconv.FormatFloat(b, 'f', 1, 64) + " bits/id"
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " bits/id"
}

// fpStyle grades a false-positive rate: fine under 1%, a warning under
// 10%, bad above.
func (m Model) fpStyle(p float64) lipgloss.Style {
	switch {
	case p < 0.0105:
		return m.st.OK
	case p < 0.1:
		return m.st.Warn
	}
	return m.st.Bad
}

// Fill grades of a range of bits, and the two probe marks: indexes into
// Model.looks.
const (
	lookEmpty = iota
	lookLow
	lookHalf
	lookFull
	lookSet
	lookClear
)

// fillLook grades how full a range of bits is: a Bloom filter is at its
// best half full, and every test says "maybe" once all bits are set.
func fillLook(d float64) int {
	switch {
	case d <= 0:
		return lookEmpty
	case d <= 0.5:
		return lookLow
	case d <= 0.75:
		return lookHalf
	}
	return lookFull
}

func (m Model) looks() [6]lipgloss.Style {
	st := m.st
	return [6]lipgloss.Style{st.Muted, st.OK, st.Warn, st.Bad, st.ProbeSet, st.ProbeClear}
}

func (m Model) fillStyle(d float64) lipgloss.Style { return m.looks()[fillLook(d)] }

// statLine is a line of statistics and how much it matters when the pane
// is too short for all of them (the lowest goes first).
type statLine struct {
	text string
	keep int
}

// stats are the Bloom filter's numbers, in display order.
func (m Model) statLines(w int) []statLine {
	s, st := m.stats, m.st
	wide := w >= wideW
	dot := st.Muted.Render(" · ")
	est := m.fpStyle(s.EstimatedFP).Render(draw.Percent(s.EstimatedFP))
	label := len("fill ")
	if wide {
		label = labelW
	}
	barW := min(max(w-label-len(" 100.0%"), 4), 16)
	fill := m.fillStyle(s.FillRatio).Render(draw.Bar(int(s.FillRatio*1000+0.5), 1000, barW)) + " " + draw.Percent(s.FillRatio)
	drops, of := "false drops", "new ids"
	if m.check {
		drops, of = "false alarms", "clean logins"
	}
	falses := st.OK.Render(draw.Count(s.FalseDrops))
	if s.FalseDrops > 0 {
		falses = st.Bad.Render(draw.Count(s.FalseDrops))
	}
	ratio := ""
	if s.Bytes > 0 && s.ExactBytes > s.Bytes {
		ratio = st.Muted.Render(fmt.Sprintf(" (×%.0f)", float64(s.ExactBytes)/float64(s.Bytes)))
	}
	if !wide {
		return []statLine{
			{fmt.Sprintf("m %d · k %d · n %s", s.M, s.K, draw.Count(s.Inserted)), 9},
			{m.kv("fill", fill, w), 3},
			{m.kv("rate now", est, w), 8},
			{m.kv(drops, falses+" / "+draw.Count(s.Firsts), w), 6},
			{m.kv("expected", expected(s.ExpectedFalseDrops)+st.Muted.Render(" by formula"), w), 5},
			{m.kv("mem", draw.Bytes(s.Bytes)+dot+bitsPerID(s.BitsPerElement), w), 7},
			{m.kv("exact", draw.Bytes(s.ExactBytes)+dot+bitsPerID(s.ExactBitsPerElement), w), 4},
		}
	}
	inserted := draw.Count(s.Inserted) + " ids"
	if m.check {
		inserted = draw.Count(s.Inserted) + " passwords"
	}
	if approx := s.ApproxSize; approx > 1e18 {
		inserted += st.Muted.Render(" · fill can no longer tell")
	} else if s.Inserted > 0 {
		inserted += st.Muted.Render(" · fill says ≈" + draw.Count(int64(approx+0.5)))
	}
	return []statLine{
		{m.kv("m · k", fmt.Sprintf("%d bits · %d hash functions", s.M, s.K), w), 9},
		{m.kv("inserted", inserted, w), 4},
		{m.kv("fill", fill, w), 3},
		{m.kv("rate now", est+st.Muted.Render(" the formula at this fill"), w), 8},
		{m.kv(drops, falses+st.Muted.Render(" of "+draw.Count(s.Firsts)+" "+of), w), 5},
		{m.kv("expected", expected(s.ExpectedFalseDrops)+st.Muted.Render(" "+drops+" by the formula"), w), 8},
		{m.kv("memory", draw.Bytes(s.Bytes)+dot+bitsPerID(s.BitsPerElement), w), 7},
		{m.kv("exact set", draw.Bytes(s.ExactBytes)+dot+bitsPerID(s.ExactBitsPerElement)+ratio, w), 6},
	}
}

// bloom lays out a Bloom filter: the map of its bits, its numbers, the
// probe, and (when there is room) the rows to pick a probe from, giving up
// spacing, then map rows, then the least telling numbers when short.
func (m Model) bloom(w, h int) []string {
	s := m.stats
	cols := int(min(uint64(min(w, maxMapCols)), max(s.M, 1)))
	maxRows := max(int(min(uint64(engine.DensityBuckets), s.M))/cols, 1)
	rows, legend, spacers := maxRows, true, 2
	stats := m.statLines(w)
	probe := m.probeLines(w, false)
	// One bit a line says best which hash gave which bit: worth a map row
	// or the spacing, not the numbers.
	if m.target != nil && m.probed {
		if long := m.probeLines(w, true); min(maxRows, 4)+len(stats)+len(long) <= h {
			probe = long
		}
	}
	need := func() int {
		n := rows + len(stats) + len(probe) + spacers
		if legend {
			n++
		}
		return n
	}
fit:
	for need() > h {
		switch {
		case spacers > 0:
			spacers--
		case legend:
			legend = false
		case rows > 2:
			rows--
		case len(stats) > 3:
			stats = dropLeast(stats)
		case rows > 1:
			rows--
		case len(probe) > 1:
			probe = probe[:len(probe)-1]
		case len(stats) > 0:
			stats = dropLeast(stats)
		default:
			break fit
		}
	}
	out := m.bitMap(cols, rows)
	if legend {
		out = append(out, m.legend(cols, rows))
	}
	if spacers > 0 {
		out = append(out, "")
	}
	for _, l := range stats {
		out = append(out, l.text)
	}
	if spacers > 1 {
		out = append(out, "")
	}
	out = append(out, probe...)
	if room := h - len(out); room >= 4 && m.probeable() && len(m.rows) > 0 {
		out = append(out, "")
		out = append(out, m.rowList(w, room-1)...)
	}
	return out
}

// dropLeast removes the line that matters least.
func dropLeast(lines []statLine) []statLine {
	least := 0
	for i, l := range lines {
		if l.keep < lines[least].keep {
			least = i
		}
	}
	return append(lines[:least:least], lines[least+1:]...)
}

// cellFill averages the density buckets into n cells, weighting each
// bucket by the bits it covers (with fewer bits than buckets, some cover
// none).
func cellFill(density []float64, m uint64, n int) []float64 {
	out := make([]float64, n)
	b := uint64(len(density))
	if b == 0 || n == 0 {
		return out
	}
	weight := make([]float64, n)
	for i, d := range density {
		w := float64(m*(uint64(i)+1)/b - m*uint64(i)/b)
		c := i * n / len(density)
		out[c] += d * w
		weight[c] += w
	}
	for c := range out {
		if weight[c] > 0 {
			out[c] /= weight[c]
		}
	}
	return out
}

// cellOf is the cell of n that shows bit, consistently with cellFill.
func cellOf(bit, m uint64, buckets, n int) int {
	b := uint64(buckets)
	i := min(bit*b/max(m, 1), b-1)
	for i+1 < b && m*(i+1)/b <= bit {
		i++
	}
	for i > 0 && m*i/b > bit {
		i--
	}
	return int(i) * n / buckets
}

var shades = []rune("·░▒▓█")

func shade(d float64) rune {
	switch {
	case d <= 0:
		return shades[0]
	case d <= 0.25:
		return shades[1]
	case d <= 0.5:
		return shades[2]
	case d <= 0.75:
		return shades[3]
	}
	return shades[4]
}

// bitMap draws the filter's bits as rows×cols cells, each shaded by the
// share of its bits that are set, with the probed id's bits marked.
func (m Model) bitMap(cols, rows int) []string {
	n := cols * rows
	fills := cellFill(m.density, m.stats.M, n)
	marks := map[int]bool{} // cell → all of its probed bits are set
	for _, p := range m.probe {
		c := cellOf(p.Bit, m.stats.M, max(len(m.density), 1), n)
		if set, ok := marks[c]; ok {
			marks[c] = set && p.Set
		} else {
			marks[c] = p.Set
		}
	}
	looks := m.looks()
	out := make([]string, 0, rows)
	var b, run strings.Builder
	for r := range rows {
		b.Reset()
		cur := -1
		for c := r * cols; c < (r+1)*cols; c++ {
			look, ch := fillLook(fills[c]), shade(fills[c])
			if set, ok := marks[c]; ok {
				look, ch = lookClear, '◇'
				if set {
					look, ch = lookSet, '◆'
				}
			}
			if look != cur && run.Len() > 0 {
				b.WriteString(looks[cur].Render(run.String()))
				run.Reset()
			}
			cur = look
			run.WriteRune(ch)
		}
		if run.Len() > 0 {
			b.WriteString(looks[cur].Render(run.String()))
			run.Reset()
		}
		out = append(out, b.String())
	}
	return out
}

// legend is the line under the map: the first and last bit, and how many
// bits a cell stands for.
func (m Model) legend(cols, rows int) string {
	last := strconv.FormatUint(m.stats.M-1, 10)
	per := float64(m.stats.M) / float64(cols*rows)
	mid := fmt.Sprintf(" each cell ≈ %s bits ", strconv.FormatFloat(per, 'f', -1, 64))
	if per >= 10 || per != float64(int(per)) {
		mid = fmt.Sprintf(" each cell ≈ %.0f bits ", per)
	}
	if per <= 1 {
		mid = " a cell a bit "
	}
	gap := cols - len("bit 0") - len(last)
	if w := ansi.StringWidth(mid); gap >= w+2 {
		l := (gap - w) / 2
		return m.st.Muted.Render("bit 0" + strings.Repeat("┄", l) + mid + strings.Repeat("┄", gap-w-l) + last)
	}
	return m.st.Muted.Render("bit 0" + strings.Repeat(" ", max(gap, 1)) + last)
}

// rowLabel names a sink row: "#316 click 12:00:01" for an event, the
// window, key and count for a result.
func rowLabel(r engine.Record) string {
	if r.IsResult() {
		return fmt.Sprintf("%s %s %d", clock(r.WindowStart), r.Key, r.Value)
	}
	return fmt.Sprintf("#%d %s %s", r.Offset, r.Action, clock(r.Time))
}

func clock(ms int64) string {
	s := (ms / 1000) % 86400
	if s < 0 {
		s += 86400
	}
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// probeLines is the probe: what is probed, its bit positions, and the
// verdict; long lists one bit a line (for tall panes).
func (m Model) probeLines(w int, long bool) []string {
	st := m.st
	switch {
	case m.check:
		return wrap(st.Muted.Render("the list is looked up by password, not by record id: no probes here"), w, 0)
	case m.target == nil && len(m.rows) == 0:
		return []string{st.Muted.Render("run the job, then ↑ probes a sink row")}
	case m.target == nil:
		hint := "↑ probe a row · n a new id"
		if !m.focused {
			hint = "tab here to probe an id"
		}
		return []string{st.Muted.Render(hint)}
	}
	t := m.target
	what := st.Bold.Render(rowLabel(t.Row))
	if t.MadeUp != 0 {
		what = st.Bold.Render("new id "+strconv.FormatUint(t.MadeUp, 10)) + st.Muted.Render(" (no record has it)")
	}
	out := []string{st.Muted.Render("probe ") + what}
	switch {
	case !m.probed:
		return append(out, st.Muted.Render("asking the filter…"))
	case len(m.probe) == 0:
		return append(out, st.Muted.Render("no bit positions: the job has not started"))
	}
	set := 0
	for _, p := range m.probe {
		if p.Set {
			set++
		}
	}
	if long {
		for i, p := range m.probe {
			mark, state := st.ProbeSet.Render("◆"), st.OK.Render("set")
			if !p.Set {
				mark, state = st.ProbeClear.Render("◇"), st.Bad.Render("clear")
			}
			out = append(out, st.Muted.Render(fmt.Sprintf("  hash %d → bit %*d ", i+1, len(strconv.FormatUint(m.stats.M, 10)), p.Bit))+mark+" "+state)
		}
	} else {
		out = append(out, m.bitTokens(w)...)
	}
	return append(out, m.verdict(set, len(m.probe), w)...)
}

// bitTokens lists the probed bits compactly, at most two lines of them.
func (m Model) bitTokens(w int) []string {
	st := m.st
	var lines []string
	line, lw := "", 0
	for i, p := range m.probe {
		tok := st.ProbeSet.Render("◆") + strconv.FormatUint(p.Bit, 10)
		if !p.Set {
			tok = st.ProbeClear.Render("◇") + st.Bad.Render(strconv.FormatUint(p.Bit, 10))
		}
		tw := ansi.StringWidth(tok)
		if lw > 0 && lw+1+tw > w {
			if len(lines) == 1 {
				line += st.Muted.Render(fmt.Sprintf(" +%d", len(m.probe)-i))
				break
			}
			lines, line, lw = append(lines, line), "", 0
		}
		if lw > 0 {
			line, lw = line+" ", lw+1
		}
		line, lw = line+tok, lw+tw
	}
	return append(lines, line)
}

// verdict says what a test of the id answers now, and why.
func (m Model) verdict(set, k, w int) []string {
	st := m.st
	var text string
	switch {
	case set < k && w < wideW:
		text = st.OK.Render(fmt.Sprintf("%d clear: certainly new", k-set))
	case set < k:
		text = st.OK.Render(fmt.Sprintf("%d of %d bits clear: a test says new, and is right", k-set, k))
	case m.target.MadeUp != 0 && w < wideW:
		text = st.Bad.Render("all set: false positive")
	case m.target.MadeUp != 0:
		text = st.Bad.Render(fmt.Sprintf("all %d set by other ids: a false positive, it would be dropped", k))
	case w < wideW:
		text = st.Warn.Render("all set: maybe (added)")
	default:
		text = st.Warn.Render(fmt.Sprintf("all %d set: a test says maybe; this row set them", k))
	}
	return wrap(text, w, 2)
}

// rowList is the sink's latest rows around the probed one, newest last, to
// pick a probe from.
func (m Model) rowList(w, h int) []string {
	st := m.st
	out := []string{st.Muted.Render("sink rows · ↑/↓ probe one")}
	h--
	sel := m.rowIndex()
	end := len(m.rows)
	if sel >= 0 {
		end = min(max(sel+h/2+1, h), len(m.rows))
	}
	for i := max(end-h, 0); i < end; i++ {
		label := rowLabel(m.rows[i])
		if i == sel {
			out = append(out, st.Selected.Render("▸ "+label))
			continue
		}
		out = append(out, "  "+st.Text.Render(label))
	}
	return out
}

// fpChart draws the chart mode: the false-positive rate against the ids
// offered, the formula's line beside the rate measured in each bucket of
// new ids, the fill beside it; under it measured against expected false
// drops (the same quantity) and the rate now.
func (m Model) fpChart(w, h int) []string {
	s, st := m.stats, m.st
	wide := w >= wideW
	per := draw.Count(max(s.Curve.Size, 1))
	dot := st.Muted.Render(" · ")
	legend := m.ink.Render(chart.Theory, m.glyphs.Line()) + st.Muted.Render(" formula  ") +
		m.ink.Render(chart.Measured, string(m.glyphs.PointGlyph())) + st.Muted.Render(" measured per "+per+" new ids")
	falses := st.OK.Render(draw.Count(s.FalseDrops))
	if s.FalseDrops > 0 {
		falses = st.Bad.Render(draw.Count(s.FalseDrops))
	}
	drops := m.kv("false drops", falses+st.Muted.Render(" measured · ")+expected(s.ExpectedFalseDrops)+st.Muted.Render(" expected"), w)
	now := m.kv("rate now", m.fpStyle(s.EstimatedFP).Render(draw.Percent(s.EstimatedFP))+dot+st.Muted.Render("fill ")+draw.Percent(s.FillRatio), w)
	if !wide {
		legend = m.ink.Render(chart.Theory, m.glyphs.Line()) + st.Muted.Render(" formula ") +
			m.ink.Render(chart.Measured, string(m.glyphs.PointGlyph())) + st.Muted.Render(" per "+per+" ids")
		drops = m.kv("drops", falses+st.Muted.Render(" · exp ")+expected(s.ExpectedFalseDrops), w)
		now = m.kv("rate now", m.fpStyle(s.EstimatedFP).Render(draw.Percent(s.EstimatedFP)), w)
	}
	text := []string{legend, drops, now}
	var out []string
	for _, l := range text {
		out = append(out, wrap(l, w, 2)...)
	}
	ch := h - len(out)
	if ch < 6 { // a short pane keeps the chart and the counts
		out, ch = out[1:2], h-1
	}
	return append(chart.FalsePositives(w, ch, chart.FilterData{M: s.M, K: s.K, Curve: s.Curve, Fill: s.FillRatio}, m.glyphs, m.ink), out...)
}
