package chart

import (
	"fmt"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/report"
)

// TextWidth and the heights are the size of the charts `streamlab run
// --charts` prints: a page's width, short enough for a slide.
const (
	TextWidth     = 72
	textFilterH   = 14
	textLedgerH   = 13
	textIndent    = "  "
	textLineWidth = TextWidth - len(textIndent)
)

// Text draws a finished run's charts as plain text, for handouts and
// slides: the false-positive rate against the ids offered when the job has
// a Bloom filter in a dedup stage, and the ledger over virtual time with
// its kills, restarts and checkpoints when the ledger is on. They are the
// charts of the terminal lab, from the same numbers: the filter's stats
// and the runtime's timeline (rt.FilterStats, rt.Timeline). The ledger
// ends at the report's counts when rep is given: the report compares the
// sink with the whole failure-free run, the timeline with it as far as
// each committed batch. ascii draws them in ASCII. It returns "" when
// there is nothing to chart.
func Text(rep *report.Report, fs *engine.FilterStats, tl engine.Timeline, ascii bool) string {
	g := For(ascii)
	if n := len(tl.Samples); rep != nil && n > 0 {
		last := tl.Samples[n-1]
		end := engine.TimelineSample{TimeMS: max(rep.Source.TimeMS, last.TimeMS)}
		end.Delivered, end.Duplicates, end.Lost = rep.Sink.Delivered, rep.Sink.Duplicates, rep.Sink.Lost
		if end.Delivered != last.Delivered || end.Duplicates != last.Duplicates || end.Lost != last.Lost {
			tl.Samples = append(tl.Samples[:n:n], end)
		}
	}
	var b strings.Builder
	section := func(title string, lines []string, notes ...string) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(title + "\n")
		for _, l := range lines {
			b.WriteString(strings.TrimRight(textIndent+l, " ") + "\n")
		}
		for _, n := range notes {
			b.WriteString(textIndent + n + "\n")
		}
	}
	if fs != nil && fs.Kind == filter.KindBloom && fs.Curve.N > 0 {
		lines := FalsePositives(textLineWidth, textFilterH, FilterData{M: fs.M, K: fs.K, Curve: fs.Curve, Fill: fs.FillRatio}, g, nil)
		section(fmt.Sprintf("false positives against the ids offered (%s)", fs.Spec), lines,
			fmt.Sprintf("%s formula (1 - e^(-kn/m))^k   %c measured, per bucket of %d new ids", g.Line(), g.point, fs.Curve.Size),
			fmt.Sprintf("false drops %d measured, %.1f expected, of %d new ids", fs.FalseDrops, fs.ExpectedFalseDrops, fs.Firsts),
			fmt.Sprintf("rate now %.2f%% (the formula at this fill), fill %.1f%%", 100*fs.EstimatedFP, 100*fs.FillRatio))
	}
	if len(tl.Samples) > 0 {
		lines := Ledger(textLineWidth, textLedgerH, LedgerData{Timeline: tl}, g, nil)
		note := fmt.Sprintf("%c killed   %c restarted   %c checkpoint completed", g.kill, g.restart, g.ckpt)
		if tl.MoreMarks > 0 {
			note += fmt.Sprintf(" (%d more not kept)", tl.MoreMarks)
		}
		section("delivered, duplicates and lost over virtual time", lines, note)
	}
	return b.String()
}
