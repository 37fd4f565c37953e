package pipeline

import (
	"math"
	"time"

	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/draw"
)

// partitionLabel names how records reach a stage, short enough for an
// arrow.
var partitionLabel = map[string]string{
	"forward": "fwd", "hash": "hash", "rebalance": "rr", "gather": "all", "broadcast": "all",
}

// View draws the pane.
func (m Model) View() string {
	return strings.Join(m.Lines(), "\n")
}

// Lines draws the pane as exactly h lines of w cells.
func (m Model) Lines() []string {
	frame := m.st.Pane
	if m.focused {
		frame = m.st.FocusedPane
	}
	lines := draw.Box(frame, m.title(m.w-6), m.body(m.w-2, m.h-2), m.w, m.h)
	if foot := m.footer(m.w - 6); foot != "" && len(lines) >= 2 {
		lines[len(lines)-1] = draw.Bottom(frame, foot, m.w)
	}
	return lines
}

// title names the job and sums up its recovery: the guarantee and the
// mechanism in effect, failures so far, completed checkpoints (passive
// standby) and what upstream output queues hold (upstream backup). Parts
// that do not fit in w cells are left out, the least telling first.
func (m Model) title(w int) string {
	s := m.snap
	if s.Job == "" {
		return "Pipeline"
	}
	parts := []string{"Pipeline · " + s.Job}
	if s.Semantics != "" {
		mech := string(s.Semantics)
		switch s.HA {
		case "":
		case engine.HANone:
			mech += ", no HA"
		default:
			mech += " via " + string(s.HA)
		}
		parts = append(parts, mech)
	}
	if s.Failures > 0 {
		parts = append(parts, plural(s.Failures, "failure"))
	}
	if s.HA == engine.HAPassiveStandby || s.Checkpoints > 0 {
		parts = append(parts, plural(s.Checkpoints, "checkpoint"))
	}
	if s.HA == engine.HAUpstreamBackup {
		parts = append(parts, "backup "+draw.Count(s.Backup))
	}
	out := parts[0]
	for _, p := range parts[1:] {
		if ansi.StringWidth(out)+3+ansi.StringWidth(p) <= w {
			out += " · " + p
		}
	}
	return out
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return draw.Count(n) + " " + noun + "s"
}

// countdown is the virtual time until a node's scheduled restart, as
// "3.2s", "12s" or "2m05s"; "now" once it is due.
func (m Model) countdown(n engine.NodeSnapshot) string { return m.countdownTo(n.RestartAtMS) }

// countdownTo is the virtual time from the lab's clock until at.
func (m Model) countdownTo(at int64) string {
	ms := at - m.clock
	switch {
	case ms <= 0:
		return "now"
	case ms < 10_000:
		return fmt.Sprintf("%.1fs", float64(ms)/1000)
	case ms < 60_000:
		return fmt.Sprintf("%ds", (ms+999)/1000)
	}
	s := (ms + 999) / 1000
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// restartDue says whether the node is down with a restart on the way: a
// restart the strategy scheduled, or the new leader's once the lease has
// run out.
func restartDue(n engine.NodeSnapshot) bool {
	return (n.State == engine.NodeRestarting || n.State == engine.NodeCancelled) && n.HasRestart
}

// backs says whether the node keeps an upstream backup: under that HA
// scheme, every node with a downstream stage.
func (m Model) backs(n engine.NodeSnapshot) bool {
	return m.snap.HA == engine.HAUpstreamBackup && n.Stage+1 < len(m.snap.Stages)
}

func (m Model) body(w, h int) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	if len(m.snap.Stages) == 0 {
		return []string{m.st.Muted.Render("no job")}
	}
	g := layoutFor(m.snap.Stages, w, h, m.selStage())
	if g.list {
		return m.listBody(g, w, h)
	}
	var cols [][]string
	if g.left > 0 {
		cols = append(cols, draw.Block(nil, g.left, h))
	}
	for i := g.first; i < g.first+g.count; i++ {
		if i > g.first {
			cols = append(cols, m.arrow(g, m.snap.Stages[i].Partition, i-1 >= 0))
		}
		cols = append(cols, m.column(g, m.snap.Stages[i]))
	}
	lines := draw.Join(cols...)
	if g.first > 0 {
		lines[g.mid()] = m.st.Muted.Render("‹") + ansi.TruncateLeft(lines[g.mid()], 1, "")
	}
	if g.first+g.count < len(m.snap.Stages) {
		lines[g.mid()] = draw.Fit(lines[g.mid()], w-1) + m.st.Muted.Render("›")
	}
	return draw.Block(lines, w, h)
}

// listBody is the compact stage form, for panes too narrow for the stages
// side by side: a line per node, in stage order, with its state, rate (or
// restart countdown, or held watermark), records in and queue; ↳ marks the
// first node of each stage after the source.
func (m Model) listBody(g geometry, w, h int) []string {
	st := m.st
	nameW := 0
	for _, i := range g.order {
		nameW = max(nameW, len(m.snap.Nodes[i].Name))
	}
	lines := make([]string, g.top, h)
	prevStage := -1
	for _, i := range g.order {
		n := m.snap.Nodes[i]
		mark := "  "
		if n.Stage != prevStage && prevStage >= 0 {
			mark = st.Muted.Render("↳ ")
		}
		prevStage = n.Stage
		name := st.Bold.Render(draw.Fit(n.Name, nameW))
		if i == m.sel {
			mark, name = st.Accent.Render("▸ "), st.Selected.Render(draw.Fit(n.Name, nameW))
		}
		state, right, _ := m.stateLine(n)
		tail := st.Muted.Render("in ") + draw.Count(n.In) + st.Muted.Render(" q ") + draw.Count(int64(n.Queue))
		if words := downWords(n, m.snap); words != nil {
			tail = st.Killed.Render(words[min(1, len(words)-1)])
		}
		if right != "" {
			tail = right + "  " + tail
		}
		lines = append(lines, spread(mark+name+" "+state, tail, w))
	}
	return draw.Block(lines, w, h)
}

// arrow is the gap between two stages: an arrow on the middle row, the
// partitioning above it when there is room.
func (m Model) arrow(g geometry, partition string, _ bool) []string {
	lines := make([]string, g.h)
	mid := g.mid()
	switch {
	case g.arrowW >= 5:
		lines[mid] = m.st.Muted.Render(" ──▶ ")
	case g.arrowW == 4:
		lines[mid] = m.st.Muted.Render("──▶ ")
	default:
		lines[mid] = m.st.Muted.Render("─▶ ")
	}
	if g.arrowW >= 4 && mid > 0 {
		lines[mid-1] = m.st.Muted.Render(draw.Fit(" "+partitionLabel[partition], g.arrowW))
	}
	return draw.Block(lines, g.arrowW, g.h)
}

// column draws one stage's nodes stacked and centred.
func (m Model) column(g geometry, st engine.StageSnapshot) []string {
	lines := make([]string, g.h)
	for j, ni := range st.Nodes {
		var box []string
		if g.nodeH == boxedH {
			box = m.boxed(ni, g.colW)
		} else {
			box = m.compact(ni, g.colW)
		}
		top := g.y(len(st.Nodes), j)
		for k, l := range box {
			if top+k < len(lines) {
				lines[top+k] = l
			}
		}
	}
	return draw.Block(lines, g.colW, g.h)
}

// spread puts left and right at the two ends of w cells.
func spread(left, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return draw.Fit(left, w)
	}
	return left + strings.Repeat(" ", gap) + right
}

func (m Model) rateOf(name string) string {
	if r := m.rates[name]; r != nil {
		return draw.Rate(r.perSecond())
	}
	return "0/s"
}

// queueLine is the queue bar and the held count, and under upstream backup
// what the node keeps for downstream; a killed node, whose queue is gone,
// says how to bring it back instead. It fits w cells, giving up the bar's
// length, then the bar, then the words.
func (m Model) queueLine(n engine.NodeSnapshot, w int) string {
	st := m.st
	if words := downWords(n, m.snap); words != nil {
		style := st.Killed
		if n.State == engine.NodeRestarting {
			style = st.Warn // on its way back
		}
		for _, s := range words {
			if len(s) <= w || s == words[len(words)-1] {
				return style.Render(s)
			}
		}
	}
	style := st.OK
	switch fill := float64(n.Queue) / float64(max(n.QueueCap, 1)); {
	case fill >= 0.9:
		style = st.Bad
	case fill >= 0.5:
		style = st.Warn
	case n.Queue == 0:
		style = st.Muted
	}
	tail := " " + draw.Count(int64(n.Queue))
	if n.Barriers > 0 {
		tail += " " + st.Accent.Render(strings.Repeat("▮", min(n.Barriers, 3)))
	}
	if n.Held > 0 {
		tail += " " + st.Warn.Render(fmt.Sprintf("held %d", n.Held))
	}
	backup := []string{""}
	if sb := m.standbyMark(n); sb != nil {
		backup = sb
	}
	if m.backs(n) {
		num := st.Muted.Render(draw.Count(int64(n.Backup)))
		if n.Backup > 0 {
			num = st.Bold.Render(draw.Count(int64(n.Backup)))
		}
		backup = []string{st.Muted.Render("  backup ") + num, st.Muted.Render(" bk ") + num}
	}
	// The bar keeps the length the box gives it while the words fit
	// beside it; then the words get shorter, then the bar.
	natural := max(min(w-10, 8), 3)
	for _, least := range []int{natural, 3} {
		for _, b := range backup {
			if barW := min(w-2-ansi.StringWidth(tail+b), natural); barW >= least {
				return "q " + style.Render(draw.Bar(n.Queue, n.QueueCap, barW)) + tail + b
			}
		}
	}
	return "q" + tail + backup[len(backup)-1]
}

// stateLine is a node's state and, at the right, its rate, or the time
// until its restart; short is the form for narrow boxes, where the right
// part goes beside the counts.
func (m Model) stateLine(n engine.NodeSnapshot) (state, right, short string) {
	st, lk := m.st, stateLook(m.st, n.State)
	state = lk.style.Render(lk.glyph + " " + string(n.State))
	right = st.Muted.Render(m.rateOf(n.Name))
	short = right
	switch {
	case n.State == engine.NodeKilled:
		state = st.Killed.Render(lk.glyph + " KILLED")
		right, short = "", ""
	case (n.State == engine.NodeCancelled || n.State == engine.NodeFailed) && !n.HasRestart:
		right, short = "", ""
	case restartDue(n) && n.Failed:
		// The node whose failure the restart recovers from: drawn down.
		cd := m.countdown(n)
		state = st.Killed.Render("✗ down")
		right, short = st.Warn.Render("in "+cd), st.Warn.Render(cd)
	case restartDue(n):
		cd := m.countdown(n)
		right, short = st.Warn.Render("in "+cd), st.Warn.Render(cd)
	case n.Standby == engine.StandbyNone && n.HasStandbyAt:
		// Its standby took over: the next one is up in cd.
		cd := m.countdownTo(n.StandbyAtMS)
		right, short = st.Warn.Render("sb in "+cd), st.Warn.Render("sb "+cd)
	case n.WatermarkHeld:
		// A dead sender holds this node's watermark back until its
		// replacement has replayed: no window closes meanwhile.
		right, short = st.Warn.Render("⏸wm "+wmClock(n.Watermark)), st.Warn.Render("⏸wm")
	}
	return state, right, short
}

// boxed draws a node in a frame: the name in the border, then its state
// and rate (or restart countdown), its counts, and its queue. Narrow boxes
// (80 columns) use the short form "300→298" for in and out and put the
// rate beside them. A killed node keeps its killed frame when selected,
// with the selection marked in its name.
func (m Model) boxed(i, w int) []string {
	n := m.snap.Nodes[i]
	st, lk := m.st, stateLook(m.st, n.State)
	lk.down = lk.down || n.Failed
	frame, name := st.Node, n.Name
	switch {
	case lk.down && i == m.sel:
		frame, name = st.KilledNode, "▸"+n.Name
	case i == m.sel:
		frame, name = st.SelectedNode, "▸"+n.Name
	case lk.down:
		frame = st.KilledNode
	}
	iw := w - 2
	state, right, short := m.stateLine(n)
	counts := "in " + draw.Count(n.In) + "  out " + draw.Count(n.Out)
	content := []string{spread(state, right, iw), counts}
	if ansi.StringWidth(state)+ansi.StringWidth(right)+1 > iw || len(counts) > iw {
		content = []string{state, spread(draw.Count(n.In)+"→"+draw.Count(n.Out), short, iw)}
	}
	content = append(content, m.queueLine(n, iw))
	return draw.Box(frame, name, content, w, boxedH)
}

// compact draws a node on two unframed lines, for short terminals.
func (m Model) compact(i, w int) []string {
	n := m.snap.Nodes[i]
	st, lk := m.st, stateLook(m.st, n.State)
	name := st.Bold.Render(n.Name)
	if i == m.sel {
		name = st.Selected.Render("▸" + n.Name)
	}
	in := "in " + draw.Count(n.In)
	_, _, short := m.stateLine(n)
	second := m.queueLine(n, w-len(in)-3) + " " + in
	if ansi.StringWidth(second) > w-2 || downWords(n, m.snap) != nil {
		second = m.queueLine(n, w-2)
	}
	if lk.down && !restartDue(n) {
		short = st.Killed.Render(string(n.State))
	}
	return []string{
		draw.Fit(spread(lk.style.Render(lk.glyph)+" "+name, short, w), w),
		draw.Fit("  "+second, w),
	}
}

// wmClock writes an event-time watermark (Unix ms) as a time of day.
func wmClock(ms int64) string {
	if ms == math.MinInt64 || ms <= 0 {
		return "–"
	}
	return time.UnixMilli(ms).UTC().Format("15:04:05")
}

// downWords says, longest first, why a node that is down stays down and
// what brings it back: r, for a killed task waiting for a task manager; a
// new leader, for a task cancelled while the job has none; nothing, in a
// job that has failed; under passive standby, the checkpoint its restart
// restores. Nil for a node whose queue line says more.
func downWords(n engine.NodeSnapshot, s engine.Snapshot) []string {
	switch {
	case n.State == engine.NodeKilled:
		return []string{"down · r restarts it", "down · r restarts", "r restarts"}
	case n.State == engine.NodeFailed:
		return []string{"failed the job", "failed"}
	case n.State == engine.NodeCancelled && s.State == engine.StateFailed:
		return []string{"cancelled: job failed", "job failed"}
	case n.State == engine.NodeCancelled:
		return []string{"waits for a leader", "no leader"}
	case n.State == engine.NodeRestarting && s.HA == engine.HAPassiveStandby:
		// Passive standby: what takes over is the latest checkpoint.
		if s.LastCheckpoint == 0 {
			return []string{"no checkpoint: from start", "from start"}
		}
		ck := fmt.Sprintf("%d", s.LastCheckpoint)
		return []string{"restores checkpoint " + ck, "from ckpt " + ck, "ckpt " + ck}
	}
	return nil
}
