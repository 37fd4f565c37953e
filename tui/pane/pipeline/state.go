package pipeline

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/styles"
)

// look is how a node state is drawn: a glyph, a style and whether the node
// is down (drawn with the killed frame).
type look struct {
	glyph string
	style lipgloss.Style
	down  bool
}

// stateLook maps the states the engine reports to a look. The engine is
// gaining states (killed, restarting, recovering, standby, …); any state
// not listed here is still shown, by name, with a neutral glyph, so a new
// state never breaks the pane.
func stateLook(st *styles.Styles, state engine.NodeState) look {
	switch state {
	case "running":
		return look{"●", st.OK, false}
	case "idle", "standby", "waiting":
		return look{"○", st.Muted, false}
	case "killed", "dead", "down", "lost":
		return look{"✗", st.Killed, true}
	case "failed", "invalid":
		return look{"✗", st.Bad, true}
	case "cancelled":
		return look{"✗", st.Killed, true}
	case "restarting", "recovering", "starting", "aligning", "replaying", "scheduled":
		return look{"◐", st.Warn, false}
	case "finished":
		return look{"✓", st.Muted, false}
	}
	return look{"◌", st.Warn, false}
}
