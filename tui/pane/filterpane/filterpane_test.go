package filterpane

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package's goldens are the lab's, in package tui.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func pane(w, h int, snap engine.Snapshot) Model {
	m := New(styles.New(styles.Mono))
	m.SetSize(w, h)
	m.SetFrame(bridge.Frame{Gen: 1, Started: true, Snap: snap})
	return m
}

func bloomStats(m uint64, k uint64) *engine.FilterStats {
	return &engine.FilterStats{
		Stats: filter.Stats{Kind: filter.KindBloom, M: m, K: k, Inserted: 200, FillRatio: 0.74, EstimatedFP: 0.329,
			Bytes: 200, ExactBytes: 5000, BitsPerElement: 8, ExactBitsPerElement: 198, ApproxSize: 230},
		Spec: "bloom m=512 k=3", FalseDrops: 37, Firsts: 237, MeasuredFP: 0.156, ExpectedFalseDrops: 35.24,
	}
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func TestCellsAgreeWithBits(t *testing.T) {
	for _, m := range []uint64{64, 100, 512, 1000, 95851} {
		for _, n := range []int{1, 7, 26, 64, 256} {
			if uint64(n) > m {
				continue
			}
			// One bit set: the cell holding it is the only one not empty,
			// and cellOf finds that cell.
			for _, bit := range []uint64{0, m / 3, m - 1} {
				density := make([]float64, engine.DensityBuckets)
				b := cellBucket(bit, m)
				lo, hi := m*uint64(b)/engine.DensityBuckets, m*uint64(b+1)/engine.DensityBuckets
				density[b] = 1 / float64(hi-lo)
				fills := cellFill(density, m, n)
				c := cellOf(bit, m, engine.DensityBuckets, n)
				for i, f := range fills {
					if (f > 0) != (i == c) {
						t.Fatalf("m=%d n=%d bit %d: cell %d has fill %g, cellOf says %d", m, n, bit, i, f, c)
					}
				}
			}
		}
	}
}

// cellBucket is the density bucket holding bit, by the engine's ranges.
func cellBucket(bit, m uint64) int {
	for b := range engine.DensityBuckets {
		if m*uint64(b)/engine.DensityBuckets <= bit && bit < m*uint64(b+1)/engine.DensityBuckets {
			return b
		}
	}
	return -1
}

func TestFullFilterIsAllBlocks(t *testing.T) {
	density := make([]float64, engine.DensityBuckets)
	for i := range density {
		density[i] = 1
	}
	m := pane(40, 20, engine.Snapshot{Filter: bloomStats(512, 3), Density: density})
	lines := m.bitMap(38, 2)
	if got := ansi.Strip(lines[0]); got != strings.Repeat("█", 38) {
		t.Errorf("full map row %q", got)
	}
}

func TestWithoutAFilterThePaneSaysHowToAddOne(t *testing.T) {
	view := ansi.Strip(pane(30, 14, engine.Snapshot{}).View())
	for _, want := range []string{":set filter bloom n=10000", "p=0.01", ":set filter exact"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
}

func TestExactSetShowsItsMemory(t *testing.T) {
	s := &engine.FilterStats{Stats: filter.Stats{Kind: filter.KindExact, Inserted: 1500, Bytes: 37_000, ExactBytes: 37_000, BitsPerElement: 197}, Spec: "exact", Drops: 12}
	view := ansi.Strip(pane(44, 10, engine.Snapshot{Filter: s}).View())
	for _, want := range []string{"Filter · exact", "never wrong", "1.5k", "37 kB", "197 bits/id", "12 duplicates"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
	if strings.Contains(view, "false pos") || strings.Contains(view, "probe") {
		t.Errorf("an exact set has no false positives or bits:\n%s", view)
	}
}

// A rotating filter is not drawn as an exact set: it errs both ways.
func TestRotatingFilterSaysItForgets(t *testing.T) {
	s := &engine.FilterStats{Stats: filter.Stats{Kind: filter.KindRotating, Inserted: 2500, Bytes: 2_400, FillRatio: 0.41, BitsPerElement: 7.7}, Spec: "rotating n=1000 p=0.01", Drops: 155, FalseDrops: 56}
	view := ansi.Strip(pane(52, 10, engine.Snapshot{Filter: s}).View())
	for _, want := range []string{"Filter · rotating n=1000 p=0.01", "rotating Bloom", "forgets old ids", "2.4 kB", "7.7 bits/id", "41.0%", "155 as seen", "56 new ids", "passes"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
	if strings.Contains(view, "never wrong") || strings.Contains(view, "exact set") {
		t.Errorf("a rotating filter drawn as an exact set:\n%s", view)
	}
}

func TestBloomNumbersAtEveryWidth(t *testing.T) {
	snap := engine.Snapshot{Filter: bloomStats(512, 3), Density: make([]float64, engine.DensityBuckets)}
	for _, c := range []struct {
		w, h  int
		wants []string
	}{
		{28, 14, []string{"m 512 · k 3 · n 200", "rate now 32.9%", "false drops 37 / 237", "expected 35.2 by formula", "200 B", "5.0 kB"}},
		{26, 14, []string{"rate now 32.9%", "false drops 37 / 237", "expected 35.2"}}, // measured and expected, not cut
		{52, 20, []string{"512 bits · 3 hash functions", "32.9% the formula at this fill", "37 of 237 new ids", "35.2 false drops by the formula", "exact set", "(×25)", "each cell ≈ 2 bits"}},
	} {
		view := ansi.Strip(pane(c.w, c.h, snap).View())
		for _, want := range c.wants {
			if !strings.Contains(view, want) {
				t.Errorf("%d×%d: no %q in\n%s", c.w, c.h, want, view)
			}
		}
		if n := len(strings.Split(view, "\n")); n != c.h {
			t.Errorf("%d lines, want %d", n, c.h)
		}
	}
	// Too short for everything: the map and the rates stay.
	view := ansi.Strip(pane(28, 6, snap).View())
	if !strings.Contains(view, "·······") || !strings.Contains(view, "rate now") {
		t.Errorf("a short pane:\n%s", view)
	}
}

func TestProbeVerdicts(t *testing.T) {
	rows := []engine.Record{{ID: 11, Offset: 1, Action: "click"}, {ID: 12, Offset: 2, Action: "view"}}
	snap := engine.Snapshot{Filter: bloomStats(512, 3), Density: make([]float64, engine.DensityBuckets), Rows: rows}
	m := pane(52, 22, snap)
	m, act := m.Update(keyMsg("up"))
	if !act.Probe || act.ID != engine.DedupID(rows[1]) {
		t.Fatalf("action %+v", act)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "asking the filter") {
		t.Errorf("before the answer:\n%s", v)
	}
	answer := func(m Model, id uint64, bits ...filter.Probe) string {
		m.SetFrame(bridge.Frame{Gen: 1, Started: true, Snap: snap, Probe: &bridge.FilterProbe{ID: id, Bits: bits}})
		return ansi.Strip(m.View())
	}
	if v := answer(m, 999, filter.Probe{Bit: 1, Set: true}); !strings.Contains(v, "asking the filter") {
		t.Errorf("an answer for another id was taken:\n%s", v)
	}
	v := answer(m, act.ID, filter.Probe{Bit: 5, Set: true}, filter.Probe{Bit: 300, Set: false}, filter.Probe{Bit: 511, Set: true})
	for _, want := range []string{"#2 view", "hash 2 → bit 300 ◇ clear", "1 of 3 bits clear", "◇"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	m, act = m.Update(keyMsg("n"))
	v = answer(m, act.ID, filter.Probe{Bit: 5, Set: true}, filter.Probe{Bit: 6, Set: true}, filter.Probe{Bit: 7, Set: true})
	if !strings.Contains(v, "new id 1") || !strings.Contains(v, "false positive") {
		t.Errorf("a made-up id with every bit set:\n%s", v)
	}
}

func TestBreachCheckHasNoProbes(t *testing.T) {
	snap := engine.Snapshot{Filter: bloomStats(95851, 7), Density: make([]float64, engine.DensityBuckets),
		Stages: []engine.StageSnapshot{{Kind: jobspec.KindBreachCheck}}, Rows: []engine.Record{{ID: 1}}}
	m := pane(52, 22, snap)
	if _, act := m.Update(keyMsg("up")); act.Probe {
		t.Error("probed a breach check")
	}
	v := ansi.Strip(m.View())
	for _, want := range []string{"breach list", "false alarms", "clean logins", "by password"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
}

// realSnapshot runs passthrough through bloom m=20000 k=3 (seed 8) and
// returns its snapshot: a filter with a curve the engine measured.
func realSnapshot(t *testing.T) engine.Snapshot {
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
	return rt.Snapshot()
}

func TestChartOfTheRateAgainstTheIdsOffered(t *testing.T) {
	snap := realSnapshot(t)
	s := snap.Filter
	m := pane(52, 22, snap)
	m, _ = m.Update(keyMsg("c"))
	if !m.Chart() {
		t.Fatal("c did not switch to the chart")
	}
	view := ansi.Strip(m.View())
	wants := []string{"false positives", "formula", "measured per 256 new ids", "ids", "fill",
		fmt.Sprintf("false drops  %d measured · %.0f expected", s.FalseDrops, s.ExpectedFalseDrops),
		"rate now     " + draw.Percent(s.EstimatedFP), "●"}
	for _, want := range wants {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
	if n := len(strings.Split(view, "\n")); n != 22 {
		t.Errorf("%d lines", n)
	}
	// Narrow and short, the chart and the counts stay.
	narrow := pane(28, 15, snap)
	narrow, _ = narrow.Update(keyMsg("c"))
	if v := ansi.Strip(narrow.View()); !strings.Contains(v, fmt.Sprintf("drops %d · exp %.0f", s.FalseDrops, s.ExpectedFalseDrops)) || !strings.Contains(v, "0%") {
		t.Errorf("narrow:\n%s", v)
	}
	// In ASCII the curve and the points keep apart without colour.
	m.SetASCII(true)
	view = ansi.Strip(m.View())
	for _, r := range view {
		if r >= 0x2800 && r <= 0x28ff || r == '●' {
			t.Fatalf("%q in an ASCII chart:\n%s", r, view)
		}
	}
	if !strings.Contains(view, "o") || !strings.Contains(view, "...") {
		t.Errorf("no ASCII points or curve:\n%s", view)
	}
	m, _ = m.Update(keyMsg("c"))
	if m.Chart() || !strings.Contains(ansi.Strip(m.View()), "each cell") {
		t.Error("c again did not bring the map back")
	}
	// The breach check's filter does not fill as ids arrive: no chart.
	check := pane(52, 22, engine.Snapshot{Filter: bloomStats(95851, 7), Stages: []engine.StageSnapshot{{Kind: jobspec.KindBreachCheck}}})
	if check, _ = check.Update(keyMsg("c")); check.Chart() {
		t.Error("a breach check charted")
	}
}
