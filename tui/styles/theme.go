// Package styles is the one place where the terminal lab's looks are
// decided: a Theme names colours by what they mean (ok, warn, bad, …), and
// Styles turns a theme into the lipgloss styles the panes use. Panes never
// build a style inline, so a theme change (or NO_COLOR) reaches every pane.
package styles

import (
	"os"

	"github.com/charmbracelet/lipgloss"
)

// Theme names the colours by meaning. A nil colour means "no colour": the
// mono theme leans on bold, faint, underline and reverse instead.
type Theme struct {
	Name string
	// Text is ordinary text; Muted is secondary (labels, borders).
	Text, Muted lipgloss.TerminalColor
	// Accent marks focus and selection.
	Accent lipgloss.TerminalColor
	// OK, Warn and Bad grade a value: healthy, needs a look, wrong.
	OK, Warn, Bad lipgloss.TerminalColor
	// Killed is a node that is down; Duplicate is an extra effect in the
	// sink (a row written twice); Changed flashes a row updated in place.
	Killed, Duplicate, Changed lipgloss.TerminalColor
}

// Default is the colour theme.
var Default = Theme{
	Name:      "default",
	Text:      lipgloss.AdaptiveColor{Light: "#1c1c1c", Dark: "#e4e4e4"},
	Muted:     lipgloss.AdaptiveColor{Light: "#808080", Dark: "#7a7a7a"},
	Accent:    lipgloss.AdaptiveColor{Light: "#5f00d7", Dark: "#af87ff"},
	OK:        lipgloss.AdaptiveColor{Light: "#008700", Dark: "#5fd787"},
	Warn:      lipgloss.AdaptiveColor{Light: "#af5f00", Dark: "#ffaf00"},
	Bad:       lipgloss.AdaptiveColor{Light: "#d70000", Dark: "#ff5f5f"},
	Killed:    lipgloss.AdaptiveColor{Light: "#870000", Dark: "#d75f5f"},
	Duplicate: lipgloss.AdaptiveColor{Light: "#af00af", Dark: "#ff87d7"},
	Changed:   lipgloss.AdaptiveColor{Light: "#005faf", Dark: "#5fafff"},
}

// Mono uses no colour at all.
var Mono = Theme{Name: "mono"}

// Names lists the themes a configuration may name.
var Names = []string{Default.Name, Mono.Name}

// ByName returns the theme called name, falling back to Default. When
// noColor is set (the NO_COLOR convention) it is always Mono.
func ByName(name string, noColor bool) Theme {
	if noColor || name == Mono.Name {
		return Mono
	}
	return Default
}

// NoColor reports whether the environment asks for no colour: NO_COLOR set
// to anything non-empty (https://no-color.org).
func NoColor() bool { return os.Getenv("NO_COLOR") != "" }
