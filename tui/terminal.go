package tui

// Fallbacks for terminals that cannot do what the lab normally asks of
// them: one that never answers a colour query, a dumb one, one whose
// locale is not UTF-8, one too small for the panes.

import (
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/draw"
)

// queryTimeout bounds how long the lab waits for the terminal to answer
// a query. A terminal that never answers (some serial consoles, pipes
// dressed as terminals) held the start for termenv's five seconds, on the
// first adaptive colour; one that answers does so within milliseconds.
const queryTimeout = 150 * time.Millisecond

// prepareTerminal asks the terminal on in and out for its cursor position,
// the query every terminal answers, and waits at most queryTimeout. Without
// an answer the background colour is taken from COLORFGBG, else assumed
// dark, so that lipgloss never sends its own query and waits.
func prepareTerminal(in io.Reader, out io.Writer) {
	fin, ok1 := in.(*os.File)
	fout, ok2 := out.(*os.File)
	if !ok1 || !ok2 || answersQueries(fin, fout) {
		return
	}
	dark := true
	if fgbg := os.Getenv("COLORFGBG"); strings.Contains(fgbg, ";") {
		bg := fgbg[strings.LastIndexByte(fgbg, ';')+1:]
		dark = bg != "7" && bg != "15" // white backgrounds
	}
	lipgloss.SetHasDarkBackground(dark)
}

// plainTerminal reports whether the terminal described by env (os.Getenv's
// shape) should get the plain layout: TERM=dumb, or a locale whose
// character set is not UTF-8 (LC_ALL, else LC_CTYPE, else LANG; C and
// POSIX are ASCII). With no locale set at all the terminal is assumed to
// be UTF-8, as nearly every one is.
func plainTerminal(getenv func(string) string) bool {
	if getenv("TERM") == "dumb" {
		return true
	}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			l := strings.ToLower(v)
			return !strings.Contains(l, "utf-8") && !strings.Contains(l, "utf8")
		}
	}
	return false
}

// programOptions prepares the terminal on in and out and returns the
// Bubble Tea options it allows: the alternate screen only on a terminal
// that is not plain.
func programOptions(plain bool, in io.Reader, out io.Writer) []tea.ProgramOption {
	prepareTerminal(in, out)
	if plain {
		return nil
	}
	return []tea.ProgramOption{tea.WithAltScreen()}
}

// forTerminal wraps the lab's model for a plain terminal: its screens are
// drawn in ASCII. Elsewhere it returns m itself.
func forTerminal(m tea.Model, plain bool) tea.Model {
	if !plain {
		return m
	}
	return asciiModel{m}
}

// fromTerminal undoes forTerminal on the program's final model.
func fromTerminal(m tea.Model) tea.Model {
	if a, ok := m.(asciiModel); ok {
		return a.Model
	}
	return m
}

// asciiModel draws its model's view in ASCII, cell for cell, so that the
// layout (computed in cells) is unchanged.
type asciiModel struct{ tea.Model }

func (a asciiModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := a.Model.Update(msg)
	return asciiModel{m}, cmd
}

func (a asciiModel) View() string { return toASCII(a.Model.View()) }

// asciiFor maps the characters the lab draws with to ASCII of the same
// width. Box drawing and blocks are mapped by range in toASCII.
var asciiFor = map[rune]string{
	'…': ".", '×': "x", '·': ".", '•': "*", '●': "*", '○': "o", '◆': "*", '◇': "o",
	'→': ">", '←': "<", '↑': "^", '↓': "v", '▶': ">", '◀': "<", '▲': "^", '▼': "v",
	'▸': ">", '◂': "<", '▴': "^", '▾': "v", '✓': "v", '✔': "v", '✗': "x", '✘': "x",
	'–': "-", '—': "-", '−': "-", '±': "+", '≥': ">", '≤': "<", '≠': "#", '≈': "~",
	'“': "\"", '”': "\"", '‘': "'", '’': "'", '│': "|", '─': "-", '⏸': "=", '⏵': ">",
	'▰': "#", '▱': "-", // queue gauges (draw.Bar)
	'◐': "~", '◌': "o", // restarting and unknown node states
	'‹': "<", '›': ">", '↳': ">", '↘': "\\", '▮': "#",
	'²': "2", '₂': "2", 'Σ': "E", 'γ': "g", 'é': "e", '⌈': "[", '⌉': "]", '§': "S", // lesson text
}

// toASCII replaces every non-ASCII character of s outside escape
// sequences with ASCII of the same width.
func toASCII(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b { // keep an escape sequence as it is
			n := draw.EscapeLen(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		b.WriteString(asciiRune(r))
	}
	return b.String()
}

// asciiRune is the ASCII for r, as wide as r is.
func asciiRune(r rune) string {
	if a, ok := asciiFor[r]; ok {
		return a
	}
	switch {
	case r >= 0x2500 && r <= 0x257f: // box drawing
		switch r {
		case '│', '┃', '║', '╎', '╏', '┆', '┇', '┊', '┋':
			return "|"
		case '─', '━', '═', '╌', '╍', '┄', '┅', '┈', '┉':
			return "-"
		}
		return "+"
	case r >= 0x2580 && r <= 0x259f: // blocks and shades: bars, gauges
		return "#"
	case r >= 0x2800 && r <= 0x28ff: // braille: sparklines
		return "."
	}
	return strings.Repeat("?", max(ansi.StringWidth(string(r)), 1))
}

// tooSmallText says the terminal is too small in words that fit a w×h
// terminal down to 40×10 (and wrap, then cut, below that), centred.
func tooSmallText(w, h int, style lipgloss.Style) string {
	text := "streamlab needs at least " + cellCount(MinWidth) + "×" + cellCount(MinHeight) + ";\n" +
		"this terminal is " + cellCount(w) + "×" + cellCount(h) + ".\n\n" +
		"Enlarge the window or\nshrink the font.\nq quits."
	lines := strings.Split(ansi.Wordwrap(text, max(w, 1), " "), "\n")
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, style.Render(strings.Join(lines, "\n")))
}

func cellCount(n int) string { return strconv.Itoa(n) }

// isPlain is plainTerminal for this process's environment.
func isPlain() bool { return plainTerminal(os.Getenv) }
