package chart

import (
	"context"
	"flag"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package's goldens are the lab's, in package tui.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

// bloomRun runs passthrough through bloom m=20000 k=3, seed 8: the
// issue's example, 927 false drops among 8 044 first sightings.
func bloomRun(t testing.TB) engine.FilterStats {
	t.Helper()
	spec, _ := jobspec.Builtin("passthrough")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.Mode, cfg.Seed = engine.AtLeastOnce, engine.ModeAppend, 8
	cfg.Filter = filter.Spec{Kind: filter.KindBloom, M: 20000, K: 3}
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rt.Admit(10000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fs, _ := rt.FilterStats()
	return fs
}

// clicksRun kills count[1] at 1200 under passive standby and runs on.
func clicksRun(t testing.TB) engine.Timeline {
	t.Helper()
	spec, _ := jobspec.Builtin("clicks")
	cfg := engine.DefaultConfig()
	cfg.Semantics, cfg.HA = engine.AtLeastOnce, engine.HAPassiveStandby
	rt, err := engine.New(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if err := rt.KillAt("count[1]", 1200); err != nil {
		t.Fatal(err)
	}
	rt.Admit(3000)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rt.AdmitFor(30e9)
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rt.Timeline()
}

// checkBlock asserts lines are h lines of exactly w cells, and in ASCII
// nothing but ASCII.
func checkBlock(t *testing.T, what string, lines []string, w, h int, ascii bool) {
	t.Helper()
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d", what, len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("%s: line %d is %d wide, want %d: %q", what, i, n, w, l)
		}
		if ascii {
			for _, r := range l {
				if r >= utf8.RuneSelf {
					t.Fatalf("%s: %q in ASCII:\n%s", what, r, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

func TestFalsePositivesFitAndSetTheSeriesApart(t *testing.T) {
	fs := bloomRun(t)
	d := FilterData{M: fs.M, K: fs.K, Curve: fs.Curve, Fill: fs.FillRatio}
	for _, size := range [][2]int{{26, 8}, {48, 12}, {70, 14}, {19, 3}} {
		for _, g := range []Glyphs{Unicode, ASCII} {
			lines := FalsePositives(size[0], size[1], d, g, nil)
			checkBlock(t, "fp", lines, size[0], size[1], g.ascii)
			text := strings.Join(lines, "\n")
			if size[0] < 20 {
				if !strings.Contains(text, "widen") || strings.ContainsAny(text, "%●") {
					t.Errorf("too small, yet drawn, or not said:\n%s", text)
				}
				continue
			}
			curve, point := "⠤", "●"
			if g.ascii {
				curve, point = ".", "o"
			}
			for _, want := range []string{curve, point, "0%", "8.0k ids", "fill", "70%"} {
				if want == "⠤" {
					if !strings.ContainsFunc(text, func(r rune) bool { return r > 0x2800 && r <= 0x28ff }) {
						t.Errorf("%v: no Braille curve:\n%s", size, text)
					}
					continue
				}
				if !strings.Contains(text, want) {
					t.Errorf("%v: no %q in\n%s", size, want, text)
				}
			}
		}
	}
}

// The rate grows with the fill, and so do the points: a later bucket's
// point is never drawn lower than an earlier one's by more than the noise
// of a few cells.
func TestMeasuredPointsClimbWithTheFill(t *testing.T) {
	fs := bloomRun(t)
	lines := FalsePositives(70, 20, FilterData{M: fs.M, K: fs.K, Curve: fs.Curve, Fill: fs.FillRatio}, ASCII, nil)
	firstRow, lastRow := -1, -1
	firstCol, lastCol := 1<<30, -1
	for y, l := range lines {
		for x, r := range l {
			if r != 'o' {
				continue
			}
			if x < firstCol {
				firstCol, firstRow = x, y
			}
			if x > lastCol {
				lastCol, lastRow = x, y
			}
		}
	}
	if firstRow < 0 || !(lastRow < firstRow) {
		t.Errorf("the first point on row %d, the last on row %d:\n%s", firstRow, lastRow, strings.Join(lines, "\n"))
	}
}

func TestLedgerMarksTheFailureWhereItHappened(t *testing.T) {
	tl := engine.Timeline{StepMS: 250, Marks: []engine.TimelineMark{
		{TimeMS: 4000, Kind: engine.MarkCheckpoint}, {TimeMS: 5000, Kind: engine.MarkKilled, Node: "count[1]"}, {TimeMS: 7500, Kind: engine.MarkRestarted, Node: "count[1]"},
	}}
	for ms := int64(0); ms <= 10_000; ms += 500 {
		s := engine.TimelineSample{TimeMS: ms}
		s.Delivered = ms / 10
		if ms >= 5000 {
			s.Lost = 20
		}
		tl.Samples = append(tl.Samples, s)
	}
	w, h := 11+40, 9
	for _, g := range []Glyphs{Unicode, ASCII} {
		lines := Ledger(w, h, LedgerData{Timeline: tl, EndMS: 9_999}, g, nil)
		checkBlock(t, "ledger", lines, w, h, g.ascii)
		text := strings.Join(lines, "\n")
		marks := []rune(lines[0])
		col := func(ms int64) int { return 11 + int(ms*40/10_001) }
		if marks[col(5000)] != g.kill || marks[col(7500)] != g.restart || marks[col(4000)] != g.ckpt {
			t.Errorf("marks row %q", lines[0])
		}
		// The lost strip (the rows above the axis) is empty before the
		// kill and filled after it.
		lost := []rune(lines[h-3])
		if lost[col(2000)] != ' ' || lost[col(9000)] == ' ' {
			t.Errorf("lost strip %q\n%s", string(lost), text)
		}
		for _, want := range []string{"0s", "10s", "delivered", "lost", "1.0k"} {
			if !strings.Contains(text, want) {
				t.Errorf("no %q in\n%s", want, text)
			}
		}
	}
	// Changes: a running total that grows evenly draws an even strip.
	lines := Ledger(w, h, LedgerData{Timeline: tl, EndMS: 9_999, Changes: true}, ASCII, nil)
	if !strings.Contains(strings.Join(lines, "\n"), "per ") {
		t.Errorf("changes are not labelled:\n%s", strings.Join(lines, "\n"))
	}
}

func TestScatterPlacesPointsOnTheirAxes(t *testing.T) {
	pts := []Point{{X: 100, Y: 900, Mark: 'a'}, {X: 1000, Y: 100, Mark: 'b'}, {X: 500, Y: 400, Mark: 'c'}}
	count := func(v float64) string { return strconv.FormatInt(int64(v), 10) }
	lines := Scatter(40, 12, pts, Axes{X: count, Y: count, XName: "x", Join: true}, ASCII, nil)
	checkBlock(t, "scatter", lines, 40, 12, true)
	find := func(r rune) (int, int) {
		for y, l := range lines {
			if x := strings.IndexRune(l, r); x >= 0 {
				return x, y
			}
		}
		t.Fatalf("no %c in\n%s", r, strings.Join(lines, "\n"))
		return 0, 0
	}
	ax, ay := find('a')
	bx, by := find('b')
	cx, cy := find('c')
	if !(ax < cx && cx < bx) || !(ay < cy && cy < by) {
		t.Errorf("a (%d,%d) c (%d,%d) b (%d,%d):\n%s", ax, ay, cx, cy, bx, by, strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[0], "1000") || !strings.Contains(lines[len(lines)-1], "1200") {
		t.Errorf("axes end on round numbers above the largest:\n%s", strings.Join(lines, "\n"))
	}
}

func TestNiceCeil(t *testing.T) {
	for v, want := range map[float64]float64{0.361: 0.4, 0.44: 0.5, 1: 1, 1.01: 1.2, 7: 8, 0: 1, 93: 100, 0.0123: 0.015} {
		if got := niceCeil(v); got < want*0.999 || got > want*1.001 {
			t.Errorf("niceCeil(%g) = %g, want %g", v, got, want)
		}
	}
}

// The handout: both charts of a run, in ASCII when asked, as many lines
// as it says.
func TestTextHasBothCharts(t *testing.T) {
	fs := bloomRun(t)
	tl := clicksRun(t)
	for _, ascii := range []bool{false, true} {
		out := Text(nil, &fs, tl, ascii)
		for _, want := range []string{"false positives against the ids offered (bloom m=20000 k=3)", "false drops 927 measured", "delivered, duplicates and lost over virtual time", "checkpoint completed"} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in\n%s", want, out)
			}
		}
		for i, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if n := ansi.StringWidth(l); n > TextWidth {
				t.Errorf("line %d is %d wide", i, n)
			}
			if ascii && strings.ContainsFunc(l, func(r rune) bool { return r >= utf8.RuneSelf }) {
				t.Errorf("non-ASCII line %d: %q", i, l)
			}
		}
	}
	if Text(nil, nil, engine.Timeline{}, false) != "" {
		t.Error("nothing to chart, yet a chart")
	}
}

// On a log axis, overheads three orders of magnitude apart spread out: a
// run ten times another lies a third of the way further along, not
// crushed against the origin.
func TestScatterLogX(t *testing.T) {
	pts := []Point{{X: 480, Y: 19, Mark: 'U'}, {X: 1200, Y: 14, Mark: 'P'}, {X: 1_100_000, Y: 0, Mark: 'A'}}
	label := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	lines := Scatter(60, 10, pts, Axes{X: label, Y: label, LogX: true}, ASCII, nil)
	checkBlock(t, "log scatter", lines, 60, 10, true)
	col := func(r rune) int {
		for _, l := range lines {
			if x := strings.IndexRune(l, r); x >= 0 {
				return x
			}
		}
		t.Fatalf("no %c", r)
		return 0
	}
	u, p, a := col('U'), col('P'), col('A')
	// 100 … 10^7: five decades over the plot.
	if !(u < p && p < a) || p-u < 3 || a-p < 20 {
		t.Errorf("U %d P %d A %d:\n%s", u, p, a, strings.Join(lines, "\n"))
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "100") || !strings.Contains(last, "1e+07") {
		t.Errorf("axis ends: %q", last)
	}
}

// A pane too small for a chart says so in words that fit it, rather than
// showing an empty area that reads as a chart of nothing.
func TestTooSmallForAChartSaysSo(t *testing.T) {
	for name, lines := range map[string][]string{
		"false positives": FalsePositives(16, 10, FilterData{M: 512, K: 3}, ASCII, nil),
		"ledger":          Ledger(14, 10, LedgerData{}, ASCII, nil),
		"scatter":         Scatter(12, 10, nil, Axes{}, ASCII, nil),
	} {
		text := strings.Join(lines, " ")
		if !strings.Contains(text, "widen") {
			t.Errorf("%s: %q", name, text)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 16 {
				t.Errorf("%s: line %q is %d cells", name, l, w)
			}
		}
	}
}

// Join draws one line per series and none across two: runs of different
// jobs are drawn as the same points without a line between them.
func TestScatterJoinsOnlyASeries(t *testing.T) {
	count := func(v float64) string { return strconv.FormatInt(int64(v), 10) }
	one := []Point{{X: 100, Y: 900, Mark: 'a', Series: "clicks"}, {X: 1000, Y: 100, Mark: 'b', Series: "clicks"}}
	two := []Point{{X: 100, Y: 900, Mark: 'a', Series: "clicks"}, {X: 1000, Y: 100, Mark: 'b', Series: "passthrough"}}
	draw := func(pts []Point, join bool) string {
		return strings.Join(Scatter(40, 12, pts, Axes{X: count, Y: count, Join: join}, ASCII, nil), "\n")
	}
	if draw(one, true) == draw(one, false) {
		t.Errorf("two runs of one series are not joined:\n%s", draw(one, true))
	}
	if got, want := draw(two, true), draw(two, false); got != want {
		t.Errorf("runs of two series are joined:\n%s\nwant\n%s", got, want)
	}
}
