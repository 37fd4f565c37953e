package styles

import (
	"strconv"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles are the lipgloss styles every pane draws with, built once from a
// Theme.
type Styles struct {
	Theme Theme

	Text, Muted, Bold, Accent lipgloss.Style
	OK, Warn, Bad             lipgloss.Style
	Killed, Duplicate         lipgloss.Style
	// Changed highlights a table row that was just updated in place.
	Changed lipgloss.Style
	// Selected marks the selected item of a list or the selected node.
	Selected lipgloss.Style
	// ProbeSet and ProbeClear mark a probed record's bit positions in a
	// Bloom filter's map: set (the test goes on) or clear (certainly new).
	ProbeSet, ProbeClear lipgloss.Style

	// Pane and FocusedPane frame a pane; Node, SelectedNode and KilledNode
	// frame a node of the pipeline; Modal frames a dialog.
	Pane, FocusedPane              Frame
	Node, SelectedNode, KilledNode Frame
	Modal                          Frame
	StatusBar, StatusKey           lipgloss.Style
	StatusRunning, StatusOff       lipgloss.Style
	Banner                         lipgloss.Style
	Prompt                         lipgloss.Style
}

// Frame is how a box is drawn: the border's shape, the style of its
// glyphs, and the style of the title set into its top edge.
type Frame struct {
	Shape lipgloss.Border
	Edge  lipgloss.Style
	Title lipgloss.Style
	// drawn keeps the edges drawn with the frame (see Edges), so the
	// fields above stay as New set them.
	drawn *Rendered
}

// fg colours s's text with c, unless c is nil (mono).
func fg(s lipgloss.Style, c lipgloss.TerminalColor) lipgloss.Style {
	if c == nil {
		return s
	}
	return s.Foreground(converted(c))
}

// converted is c with its conversions to 256 and 16 colours worked out
// once: lipgloss converts a #rrggbb colour for a 256-colour terminal at
// every Render, in a colour space search that took a fifth of a served
// lab's drawing. The sequences written are the same.
func converted(c lipgloss.TerminalColor) lipgloss.TerminalColor {
	a, ok := c.(lipgloss.AdaptiveColor)
	if !ok {
		return c
	}
	return lipgloss.CompleteAdaptiveColor{Light: complete(a.Light), Dark: complete(a.Dark)}
}

// complete is hex as each colour profile shows it.
func complete(hex string) lipgloss.CompleteColor {
	return lipgloss.CompleteColor{TrueColor: hex,
		ANSI256: colorIndex(termenv.ANSI256.Color(hex)), ANSI: colorIndex(termenv.ANSI.Color(hex))}
}

// colorIndex is a palette colour's number, as termenv reads it back.
func colorIndex(c termenv.Color) string {
	switch c := c.(type) {
	case termenv.ANSI256Color:
		return strconv.Itoa(int(c))
	case termenv.ANSIColor:
		return strconv.Itoa(int(c))
	}
	return ""
}

// New builds the styles of theme t.
func New(t Theme) *Styles {
	mono := t.Text == nil
	s := &Styles{Theme: t}
	base := lipgloss.NewStyle()
	s.Text = fg(base, t.Text)
	s.Muted = fg(base, t.Muted)
	s.Bold = fg(base.Bold(true), t.Text)
	s.Accent = fg(base.Bold(true), t.Accent)
	s.OK = fg(base, t.OK)
	s.Warn = fg(base, t.Warn)
	s.Bad = fg(base.Bold(true), t.Bad)
	s.Killed = fg(base.Bold(true), t.Killed)
	s.Duplicate = fg(base.Bold(true), t.Duplicate)
	s.Changed = fg(base.Bold(true), t.Changed)
	s.Selected = fg(base.Bold(true).Reverse(mono), t.Accent)
	s.ProbeSet = fg(base.Bold(true).Reverse(true), t.OK)
	s.ProbeClear = fg(base.Bold(true).Reverse(true), t.Bad)
	if mono {
		s.Muted = base.Faint(true)
		s.Warn = base.Underline(true)
		s.Changed = base.Reverse(true)
	}

	focusTitle := fg(base.Bold(true), t.Accent)
	if mono {
		focusTitle = base.Bold(true).Reverse(true)
	}
	s.Pane = newFrame(lipgloss.RoundedBorder(), fg(base, t.Muted), fg(base.Bold(true), t.Text))
	s.FocusedPane = newFrame(lipgloss.ThickBorder(), fg(base, t.Accent), focusTitle)
	s.Node = newFrame(lipgloss.RoundedBorder(), fg(base, t.Muted), fg(base.Bold(true), t.Text))
	s.SelectedNode = newFrame(lipgloss.DoubleBorder(), fg(base.Bold(true), t.Accent), focusTitle)
	s.KilledNode = newFrame(lipgloss.NormalBorder(), fg(base, t.Killed), fg(base.Bold(true).Strikethrough(true), t.Killed))
	s.Modal = newFrame(lipgloss.RoundedBorder(), fg(base, t.Accent), fg(base.Bold(true), t.Accent))

	s.StatusBar = base.Reverse(mono)
	s.StatusKey = fg(base, t.Muted)
	s.StatusRunning = fg(base.Bold(true), t.OK)
	s.StatusOff = fg(base.Bold(true), t.Warn)
	s.Banner = fg(base.Bold(true), t.Accent)
	s.Prompt = fg(base.Bold(true), t.Accent)
	return s
}
