package styles

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestConvertedColorsDrawTheSame checks that a theme colour worked out
// ahead for each profile writes the same sequences as lipgloss's own
// conversion at each Render, on every profile and either background.
func TestConvertedColorsDrawTheSame(t *testing.T) {
	colors := []lipgloss.TerminalColor{Default.Text, Default.Muted, Default.Accent, Default.OK, Default.Warn,
		Default.Bad, Default.Killed, Default.Duplicate, Default.Changed}
	for _, profile := range []termenv.Profile{termenv.TrueColor, termenv.ANSI256, termenv.ANSI, termenv.Ascii} {
		for _, dark := range []bool{true, false} {
			r := lipgloss.NewRenderer(io.Discard)
			r.SetColorProfile(profile)
			r.SetHasDarkBackground(dark)
			for _, c := range colors {
				want := r.NewStyle().Foreground(c).Render("x")
				got := r.NewStyle().Foreground(converted(c)).Render("x")
				if got != want {
					t.Errorf("profile %v, dark %v, colour %v: %q, want %q", profile, dark, c, got, want)
				}
				if profile != termenv.Ascii && want == "x" {
					t.Errorf("profile %v: colour %v drew no colour at all", profile, c)
				}
			}
		}
	}
}
