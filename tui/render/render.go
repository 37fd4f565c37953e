// Package render draws the lab screen's lines that belong to no pane: the
// status bar on top and the help bar at the bottom. Each keeps what it
// drew, as the panes do, since both are the same at almost every frame.
// The pieces they are drawn with, shared with the panes, are tui/draw's.
package render

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// StatusBar draws the top line: job, settings, virtual time, speed, state.
type StatusBar struct {
	st *styles.Styles
	// kept keeps its pieces rendered once.
	kept *styles.Rendered
}

// NewStatusBar is a status bar drawn in st.
func NewStatusBar(st *styles.Styles) StatusBar {
	return StatusBar{st: st, kept: styles.NewRendered()}
}

// Line draws the bar for frame f, w wide, with the lab's paused state and
// speed (the lab owns both, not the frame). When it is too wide its
// segments go by rank, the least needed first.
func (b StatusBar) Line(f bridge.Frame, paused bool, speed float64, w int) string {
	st, s, snap := b.st, f.Settings, f.Snap
	// The engine's word on the guarantee and mechanism in effect wins over
	// what was asked for (at-least-once brings upstream backup along).
	sem, ha, filter := s["semantics"], s["ha"], s["filter"]
	if snap.Semantics != "" {
		sem, ha = string(snap.Semantics), string(snap.HA)
	}
	if snap.Filter != nil && snap.Filter.Spec != "" {
		filter = snap.Filter.Spec // the passwords job's list is a filter it sets itself
	}
	kv := func(k, v string) string {
		return b.keep(k+"\x00"+v, func() string { return st.StatusKey.Render(k+" ") + st.Bold.Render(v) })
	}
	semSeg := kv("sem", orDash(sem))
	if f.Note != "" && s["semantics"] != "" && s["semantics"] != sem {
		// A weaker guarantee than asked: R shows config.note, why.
		semSeg += st.Warn.Render(" (asked " + s["semantics"] + ")")
	}
	// Segments in display order, each with a rank: when the bar is too
	// wide the highest ranks go first.
	segs := []struct {
		text string
		rank int
	}{
		{b.keep("streamlab", func() string { return st.Accent.Render("streamlab") }), 9},
		{kv("job", orDash(s["job"])), 1},
		{kv("mode", orDash(s["mode"])), 4},
		{kv("sink", orDash(s["sink"])), 5},
		{semSeg, 1},
		{kv("ha", orDash(ha)), 6},
		{kv("filter", orDash(filter)), 7},
		{kv("t", draw.Clock(f.ClockMS)), 1},
		{bridge.FormatSpeed(speed), 2},
		{b.state(f, paused), 0},
	}
	sep := b.keep(" │ ", func() string { return st.Muted.Render(" │ ") })
	join := func(limit int) string {
		var parts []string
		for _, sg := range segs {
			if sg.rank <= limit {
				parts = append(parts, sg.text)
			}
		}
		return " " + strings.Join(parts, sep)
	}
	bar := join(9)
	for limit := 8; limit >= 0 && ansi.StringWidth(bar) > w; limit-- {
		bar = join(limit)
	}
	return st.StatusBar.Render(draw.Fit(bar, w))
}

// state is the bar's last segment: running, paused, ready (no job run
// yet), a typed run's end, or failed.
func (b StatusBar) state(f bridge.Frame, paused bool) string {
	st := b.st
	state := st.StatusRunning.Render("▶ running")
	if paused {
		state = st.StatusOff.Render("⏸ paused")
	}
	if !f.Started {
		state = st.StatusOff.Render("⏸ ready")
	}
	if f.Playing {
		state = st.StatusRunning.Render("▶ " + playing(f))
		if paused {
			state = st.StatusOff.Render("⏸ " + playing(f))
		}
	}
	if f.Snap.State == engine.StateFailed {
		state = st.Bad.Render("✗ failed") // not paused: nothing will run on
	}
	return state
}

// playing says where a typed run stands: where it ends, or while it is
// fast-forwarded how far its source has read.
func playing(f bridge.Frame) string {
	if f.Forwarding {
		return "finishing · " + draw.Count(f.ForwardDone) + " of " + draw.Count(f.ForwardTotal) + " records"
	}
	return "run to " + draw.Clock(f.PlayEndMS)
}

// keep is render's result for text, rendered once and kept: most of the
// status bar is the same at every frame.
func (b StatusBar) keep(text string, render func() string) string {
	return draw.Kept(b.kept, "status", text, 0, render)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// HelpBar draws the bottom line: the short help of the keys that work now.
type HelpBar struct {
	help help.Model
	memo *draw.Memo[helpBarKey] // the bar as drawn last
}

// helpBarKey is what the help bar draws from: the width, and each key's
// help as the bar shows it, the same at almost every frame.
type helpBarKey struct {
	w, helpW int
	keys     string
}

// NewHelpBar is a help bar drawn in st's accent (keys) and muted (the
// rest) styles.
func NewHelpBar(st *styles.Styles) HelpBar {
	h := help.New()
	h.Styles.ShortKey, h.Styles.FullKey = st.Accent, st.Accent
	h.Styles.ShortDesc, h.Styles.FullDesc = st.Muted, st.Muted
	h.Styles.ShortSeparator, h.Styles.FullSeparator, h.Styles.Ellipsis = st.Muted, st.Muted, st.Muted
	return HelpBar{help: h, memo: &draw.Memo[helpBarKey]{}}
}

// SetWidth is the width the keys are cut to, with an ellipsis.
func (b *HelpBar) SetWidth(w int) { b.help.Width = w }

// Line draws the short help of keys, fitted to w.
func (b HelpBar) Line(keys help.KeyMap, w int) string {
	bindings := keys.ShortHelp()
	var id strings.Builder
	for _, k := range bindings {
		h := k.Help()
		id.WriteString(strconv.FormatBool(k.Enabled()) + "\x00" + h.Key + "\x00" + h.Desc + "\x00")
	}
	render := func() []string { return []string{draw.Fit(" "+b.help.ShortHelpView(bindings), w)} }
	return b.memo.Lines(helpBarKey{w, b.help.Width, id.String()}, render)[0]
}
