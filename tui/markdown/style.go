package markdown

import (
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/tui/styles"
)

// Style is the glamour style of theme t on a terminal with colour profile
// p and a dark background or not. It follows the lab's styles: text in
// the terminal's own colour, as the old plain text was, headings bold, code (the lines to type) in the
// accent colour, links and rules muted. On a terminal without escape
// codes (termenv.Ascii: NO_COLOR, TERM=dumb) glamour may set no
// attribute at all (it would write bold and italics whatever the
// profile), so emphasis is written out as *strong* and _emphasis_, and
// code keeps its backticks; the mono theme, which has no colours but may
// use bold, keeps the backticks too.
func Style(t styles.Theme, p termenv.Profile, dark bool) ansi.StyleConfig {
	plain := p == termenv.Ascii
	color := func(c lipgloss.TerminalColor) *string {
		if plain {
			return nil
		}
		return colorOf(c, dark)
	}
	attr := func() *bool {
		if plain {
			return nil
		}
		on := true
		return &on
	}
	u := func(n uint) *uint { return &n }
	s := func(v string) *string { return &v }
	c := ansi.StyleConfig{
		BlockQuote: ansi.StyleBlock{Indent: u(1), IndentToken: s("│ "),
			StylePrimitive: ansi.StylePrimitive{Color: color(t.Muted)}},
		List: ansi.StyleList{LevelIndent: 2},
		Heading: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Bold: attr(), Color: color(t.Text),
			BlockSuffix: "\n"}},
		H1:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: color(t.Accent)}},
		Strong:         ansi.StylePrimitive{Bold: attr()},
		Emph:           ansi.StylePrimitive{Italic: attr()},
		Strikethrough:  ansi.StylePrimitive{CrossedOut: attr()},
		HorizontalRule: ansi.StylePrimitive{Color: color(t.Muted), Format: "\n────────\n"},
		Item:           ansi.StylePrimitive{BlockPrefix: "• "},
		Enumeration:    ansi.StylePrimitive{BlockPrefix: ". "},
		Task:           ansi.StyleTask{Ticked: "[✓] ", Unticked: "[ ] "},
		// A link's address follows its text, in angle brackets: a
		// terminal shows it, and a learner can copy it.
		Link:      ansi.StylePrimitive{Color: color(t.Muted), Prefix: "<", Suffix: ">"},
		LinkText:  ansi.StylePrimitive{Underline: attr()},
		Image:     ansi.StylePrimitive{Color: color(t.Muted), Prefix: "<", Suffix: ">"},
		ImageText: ansi.StylePrimitive{Format: "image: {{.text}}"},
		Code:      ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: color(t.Accent)}},
		CodeBlock: ansi.StyleCodeBlock{StyleBlock: ansi.StyleBlock{Margin: u(codeMargin),
			StylePrimitive: ansi.StylePrimitive{Color: color(t.Accent), Bold: attr()}}},
		Table:                 ansi.StyleTable{CenterSeparator: s("┼"), ColumnSeparator: s("│"), RowSeparator: s("─")},
		DefinitionDescription: ansi.StylePrimitive{BlockPrefix: "\n  "},
	}
	if plain {
		c.Strong = ansi.StylePrimitive{Prefix: "*", Suffix: "*"}
		c.Emph = ansi.StylePrimitive{Prefix: "_", Suffix: "_"}
		c.Strikethrough = ansi.StylePrimitive{Prefix: "~", Suffix: "~"}
	}
	if ticks(t, p) {
		c.Code.Prefix, c.Code.Suffix = "`", "`"
	}
	return c
}

// ticks reports whether code spans keep their backticks: when there is no
// colour to set them apart.
func ticks(t styles.Theme, p termenv.Profile) bool { return p == termenv.Ascii || t.Accent == nil }

// colorOf is c as glamour names colours ("#rrggbb" or an ANSI number),
// nil for no colour.
func colorOf(c lipgloss.TerminalColor, dark bool) *string {
	var v string
	switch c := c.(type) {
	case lipgloss.Color:
		v = string(c)
	case lipgloss.AdaptiveColor:
		v = c.Light
		if dark {
			v = c.Dark
		}
	}
	if v == "" {
		return nil
	}
	return &v
}
