package pipeline

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/draw"
)

// footer is what the pane's bottom edge says of the job as a whole: the
// job manager, as the node that coordinates the others (leader, standbys,
// the lease counting down while there is no leader), or once the job has
// failed, that it failed, when and why. Empty when the snapshot says
// nothing of either (a preview of an invalid job). The edge takes no row
// from the nodes.
func (m Model) footer(w int) string {
	k := footerKey{w: w, state: m.snap.State, failedAtMS: m.snap.FailedAtMS, err: m.snap.Error, jm: m.snap.JobManager}
	if k.jm.State == engine.JobManagerNoLeader {
		k.clockMS = m.clock // the lease's countdown
	}
	return m.footMemo.Lines(k, func() []string { return []string{m.drawFooter(w)} })[0]
}

// footerKey is what the footer draws from: it changes when the job fails
// or its job manager changes, and while a lease runs out, with the clock.
type footerKey struct {
	w                   int
	state               engine.JobState
	err                 string
	failedAtMS, clockMS int64
	jm                  engine.JobManagerSnapshot
}

// drawFooter draws the footer.
func (m Model) drawFooter(w int) string {
	s := m.snap
	switch {
	case s.State == engine.StateFailed:
		return m.failedLine(w)
	case s.JobManager.State != "":
		return m.jobManagerLine(w)
	}
	return ""
}

// failedLine says the job failed, when, and the start of the reason (the
// events pane has all of it); nothing restarts it.
func (m Model) failedLine(w int) string {
	st, s := m.st, m.snap
	head := st.Bad.Render("✗ failed") + st.Muted.Render(" at "+draw.Clock(s.FailedAtMS)+" · ")
	return ansi.Truncate(head+s.Error, w, "…")
}

// jobManagerLine draws the job manager like a node: its state, then its
// standbys, or while it has no leader how long the dead leader's lease
// still runs before a standby takes over.
func (m Model) jobManagerLine(w int) string {
	st, jm := m.st, m.snap.JobManager
	name := st.Bold.Render("jobmanager")
	var state, rest, short string
	switch jm.State {
	case engine.JobManagerNoLeader:
		state = st.Killed.Render("✗ no leader")
		rest = st.Warn.Render("lease runs out in "+m.countdownTo(jm.LeaseEndsMS)) + st.Muted.Render(" · then the standby leads and restarts every task")
	case engine.JobManagerDead:
		state = st.Bad.Render("✗ dead")
		rest = st.Muted.Render("no standby: its job failed with it")
	default:
		state = st.OK.Render("● " + string(jm.State))
		rest = st.Muted.Render("no standby job manager (jobmanager.ha none)")
		short = st.Muted.Render("no standby")
		if jm.Standbys > 0 {
			rest, short = st.Muted.Render("○ ")+plural(int64(jm.Standbys), "standby"), ""
		}
		if jm.Failovers > 0 {
			rest += st.Muted.Render(" · " + plural(jm.Failovers, "failover"))
		}
	}
	line := name + " " + state + st.Muted.Render(" · ") + rest
	if short != "" && ansi.StringWidth(line) > w {
		line = name + " " + state + st.Muted.Render(" · ") + short
	}
	return ansi.Truncate(line, w, "…")
}

// standbyMark is a node's active standby, for its queue line: ready, or
// taken over; empty under other schemes.
func (m Model) standbyMark(n engine.NodeSnapshot) []string {
	st := m.st
	switch {
	case n.Standby == engine.StandbyReady:
		return []string{st.Muted.Render("  standby ○"), st.Muted.Render(" sb○")}
	case n.Standby == engine.StandbyNone:
		// The state line counts down to the new one.
		return []string{st.Warn.Render("  standby took over"), st.Warn.Render(" took over"), st.Warn.Render(" no sb")}
	}
	return nil
}
