package runs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/tui/chart"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// KeyMap is the overlay's keys.
type KeyMap struct {
	Switch, Close key.Binding
}

// DefaultKeyMap is the overlay's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Switch: key.NewBinding(key.WithKeys("tab", "left", "right"), key.WithHelp("tab", "the other chart")),
		Close:  key.NewBinding(key.WithKeys("C", "esc", "q"), key.WithHelp("C/esc", "close the charts")),
	}
}

// ShortHelp lists the overlay's keys.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Switch, k.Close} }

// FullHelp lists the overlay's keys.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Switch, k.Close}} }

// Views of the overlay.
const (
	ViewInterval = iota // lesson 6: replayed records against checkpoint interval
	ViewHA              // lesson 7: recovery time against overhead
	views
)

// Model is the overlay of the learner's runs: the history and which
// chart is shown.
type Model struct {
	st     *styles.Styles
	looks  *chart.Looks
	glyphs chart.Glyphs
	keys   KeyMap
	hist   History
	active bool
	view   int
}

// New returns a closed overlay with no runs; ascii draws the charts in
// ASCII (a plain terminal).
func New(st *styles.Styles, ascii bool) Model {
	return Model{st: st, looks: chart.LooksFor(st), glyphs: chart.For(ascii), keys: DefaultKeyMap()}
}

// Keys is the overlay's key map.
func (m Model) Keys() KeyMap { return m.keys }

// Active reports whether the overlay is open.
func (m Model) Active() bool { return m.active }

// View is the chart shown.
func (m Model) View() int { return m.view }

// Add records a finished run of session gen.
func (m *Model) Add(gen int64, rep *report.Report) { m.hist.Add(gen, rep) }

// Runs are the finished runs, oldest first.
func (m Model) Runs() []Run { return m.hist.Runs() }

// Open shows the overlay, on the chart with more runs to show (the
// scheme comparison when it has as many), or on view when it is 0 or 1.
func (m *Model) Open(view int) {
	m.active = true
	switch {
	case view >= 0 && view < views:
		m.view = view
	case len(Checkpointed(m.hist.runs)) > len(Recovered(m.hist.runs))/2:
		m.view = ViewInterval
	default:
		m.view = ViewHA
	}
}

// Update switches the chart or closes the overlay.
func (m Model) Update(k tea.KeyMsg) Model {
	switch {
	case key.Matches(k, m.keys.Close):
		m.active = false
	case key.Matches(k, m.keys.Switch):
		m.view = (m.view + 1) % views
	}
	return m
}

// schemeMark marks a scheme's runs by its initial.
func schemeMark(ha engine.HAScheme) (rune, chart.Class) {
	switch ha {
	case engine.HAUpstreamBackup:
		return 'U', chart.Theory
	case engine.HAPassiveStandby:
		return 'P', chart.Measured
	default:
		return 'A', chart.Gauge
	}
}

// Lines draws the overlay as a box of w×h cells.
func (m Model) Lines(w, h int) []string {
	title := "Your runs · checkpoint interval against replay"
	if m.view == ViewHA {
		title = "Your runs · recovery time against overhead"
	}
	iw, ih := w-2, h-2
	var body []string
	if iw > 0 && ih > 0 {
		if m.view == ViewHA {
			body = m.haBody(iw, ih)
		} else {
			body = m.intervalBody(iw, ih)
		}
	}
	return draw.Box(m.st.Modal, title, body, w, h)
}

// layout splits h rows between the chart and the table under it.
func layout(h, rows int) (chartH, tableRows int) {
	tableRows = min(rows, max(h-12, 2))
	chartH = h - 2 - 1 - tableRows // legend, blank, header
	return chartH, tableRows
}

func (m Model) empty(w int, lines ...string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(m.st.Muted.Render(l), w)...)
	}
	return out
}

func (m Model) intervalBody(w, h int) []string {
	rs := Checkpointed(m.hist.runs)
	if len(rs) == 0 {
		return m.empty(w,
			"No run with checkpoints and a failure yet. Each run you finish under passive standby (or exactly-once) with a kill is a point here: replayed records against the checkpoint interval.",
			"",
			"Try: set ha passive-standby · set checkpoint.interval 100 · kill count[1] at 1200 · run 3000 · run 30s — then again with 500 and 2000.")
	}
	jobs := jobsOf(rs)
	pts := m.intervalPoints(rs, jobs)
	chartH, rows := layout(h, len(rs))
	count := func(v float64) string { return draw.Count(int64(v)) }
	out := chart.Scatter(w, chartH, pts, chart.Axes{X: count, Y: count, XName: "checkpoint interval (records)", Join: true}, m.glyphs, m.looks)
	legend := string(m.glyphs.PointGlyph()) + " a run: records replayed after the failure (y) at its interval (x)"
	if len(jobs) > 1 {
		legend = m.jobLegend(jobs) + "; a line joins one job's runs"
	}
	out = append(out, m.st.Muted.Render(legend), "")
	out = append(out, m.st.Muted.Render(fmt.Sprintf("%-4s %-*s %9s %12s %9s %10s", "run", jobW, "job", "interval", "checkpoints", "replayed", "recovery")))
	for _, r := range rs[len(rs)-rows:] {
		out = append(out, fmt.Sprintf("%-4s %s %9s %12s %9s %10s", "#"+strconv.FormatInt(r.Gen, 10), draw.Fit(r.Job, jobW), draw.Count(r.Interval), draw.Count(r.Checkpoints), draw.Count(r.Replayed), seconds(r.RecoveryMS)))
	}
	return out
}

// intervalPoints are rs on the interval chart, one series per job.
func (m Model) intervalPoints(rs []Run, jobs []string) []chart.Point {
	pts := make([]chart.Point, len(rs))
	for i, r := range rs {
		pts[i] = chart.Point{X: float64(r.Interval), Y: float64(r.Replayed), Mark: m.jobMark(jobs, r.Job), Class: chart.Measured, Series: r.Job}
	}
	return pts
}

// jobW is the job column's width in the tables of runs.
const jobW = 11

// jobsOf lists the jobs of rs, each once, in the order they first ran.
func jobsOf(rs []Run) []string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r.Job) {
			out = append(out, r.Job)
		}
	}
	return out
}

// jobMark marks a run on the interval chart: the point glyph while every
// run is of one job, else the job's number (1, 2, …) in jobs, so that
// runs of different jobs are told apart.
func (m Model) jobMark(jobs []string, job string) rune {
	if len(jobs) < 2 {
		return m.glyphs.PointGlyph()
	}
	i := slices.Index(jobs, job)
	if i >= 9 {
		return '+'
	}
	return rune('1' + i)
}

// jobLegend names each job's mark: "1 clicks · 2 passthrough".
func (m Model) jobLegend(jobs []string) string {
	parts := make([]string, len(jobs))
	for i, j := range jobs {
		parts[i] = string(m.jobMark(jobs, j)) + " " + j
	}
	return strings.Join(parts, " · ")
}

func (m Model) haBody(w, h int) []string {
	rs := Recovered(m.hist.runs)
	if len(rs) == 0 {
		return m.empty(w,
			"No run under an HA scheme with a failure yet. Each run you finish under upstream backup, passive standby or active standby with a kill is a point here: recovery time against the overhead shipped while nothing fails.",
			"",
			"Try lesson 7's steps: set ha upstream-backup (then passive-standby, active-standby) · kill count[1] at 1200 · run 3000 · run 30s.")
	}
	pts := make([]chart.Point, len(rs))
	for i, r := range rs {
		mark, cls := schemeMark(r.HA)
		pts[i] = chart.Point{X: float64(r.OverheadBytes), Y: float64(r.RecoveryMS), Mark: mark, Class: cls}
	}
	chartH, rows := layout(h, len(rs))
	bytes := func(v float64) string { return draw.Bytes(int64(v)) }
	secs := func(v float64) string { return seconds(int64(v)) }
	out := chart.Scatter(w, chartH, pts, chart.Axes{X: bytes, Y: secs, XName: "overhead while nothing fails (log)", LogX: true}, m.glyphs, m.looks)
	legend := m.st.Muted.Render("U upstream backup · P passive standby · A active standby; y recovery time")
	out = append(out, legend, "")
	out = append(out, m.st.Muted.Render(fmt.Sprintf("%-4s %-*s %-16s %10s %10s %9s", "run", jobW, "job", "scheme", "overhead", "recovery", "replayed")))
	for _, r := range rs[len(rs)-rows:] {
		out = append(out, fmt.Sprintf("%-4s %s %-16s %10s %10s %9s", "#"+strconv.FormatInt(r.Gen, 10), draw.Fit(r.Job, jobW), r.HA, draw.Bytes(r.OverheadBytes), seconds(r.RecoveryMS), draw.Count(r.Replayed)))
	}
	return out
}

// seconds writes virtual milliseconds as seconds: 0.4 s, 12.5 s.
func seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s" }

func wrap(s string, w int) []string { return strings.Split(ansi.Wrap(s, w, " "), "\n") }
