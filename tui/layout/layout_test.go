package layout

import (
	"fmt"
	"testing"

	"github.com/streamlab/streamlab/engine/filter"
)

// overlap reports whether a and b share a cell.
func overlap(a, b Rect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// At every size from the smallest the lab draws, with and without a
// lesson's column, a filter and a pipeline listed a node a line, the panes
// fit between the status bar and the two bottom lines and never cover
// each other, but for the one slot the filter and the events share.
func TestPanesFitAndDoNotOverlap(t *testing.T) {
	for w := 80; w <= 250; w += 7 {
		for h := 24; h <= 70; h += 5 {
			for _, lesson := range []bool{false, true} {
				for _, kind := range []string{"", filter.KindExact, "bloom"} {
					for _, listed := range []int{0, 3} {
						in := Input{W: w, H: h, Lesson: lesson, Filter: kind, NodeRows: 4, ListLines: func(int) int { return listed }}
						checkPlaces(t, fmt.Sprintf("%+v", in), Place(in), w, h, lesson)
					}
				}
			}
		}
	}
}

func checkPlaces(t *testing.T, name string, s Screen, w, h int, lesson bool) {
	t.Helper()
	rects := map[string]Rect{"pipeline": s.Pipeline, "output": s.Output, "ledger": s.Ledger, "filter": s.Filter, "events": s.Events, "lesson": s.Lesson}
	for pane, r := range rects {
		if !r.Shown() {
			continue
		}
		if r.X < 0 || r.Y < 1 || r.X+r.W > w || r.Y+r.H > h-2 {
			t.Errorf("%s: %s at %+v does not fit %d×%d", name, pane, r, w, h)
		}
		for other, o := range rects {
			shared := s.Bottom == Shared && (pane == "filter" && other == "events" || pane == "events" && other == "filter")
			if other != pane && o.Shown() && !shared && overlap(r, o) {
				t.Errorf("%s: %s at %+v covers %s at %+v", name, pane, r, other, o)
			}
		}
	}
	if s.Lesson.Shown() != lesson || lesson && s.Lesson.X+s.Lesson.W != w {
		t.Errorf("%s: the lesson's column at %+v", name, s.Lesson)
	}
}

// Only a job with a filter gives the filter pane room, except on a screen
// wide enough for four columns, where the pane says how to add one.
func TestTheFilterPaneIsPlacedForAFilter(t *testing.T) {
	none := func(int) int { return 0 }
	if s := Place(Input{W: 120, H: 40, NodeRows: 2, ListLines: none}); s.Filter.Shown() || s.Bottom != ThreeCols {
		t.Errorf("no filter at 120×40: %+v", s)
	}
	if s := Place(Input{W: 200, H: 50, NodeRows: 2, ListLines: none}); !s.Filter.Shown() || s.Bottom != FourCols {
		t.Errorf("no filter at 200×50: %+v", s)
	}
	exact := Place(Input{W: 120, H: 40, Filter: filter.KindExact, NodeRows: 2, ListLines: none})
	bloom := Place(Input{W: 120, H: 40, Filter: "bloom", NodeRows: 2, ListLines: none})
	if exact.Bottom != Stacked || exact.Filter.H != ExactH || bloom.Filter.H <= ExactH {
		t.Errorf("stacked: exact %+v, bloom %+v", exact.Filter, bloom.Filter)
	}
}
