package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// drawTable draws a table's cells (its head first) in w cells: columns
// separated by a bar, the head underlined. A column gets the width of
// its longest word at least and of its longest cell at most; the room
// left over goes to the columns that would wrap, in proportion to what
// they lack. When a row takes more than one line, rules part the rows.
func (r *Renderer) drawTable(rows [][]string, w int) ([]string, error) {
	cols := len(rows[0])
	text := make([][]string, len(rows))
	for i, row := range rows {
		text[i] = make([]string, cols)
		for c, cell := range row {
			if i == 0 && !r.plain() && cell != "" {
				cell = "**" + cell + "**"
			}
			s, err := r.glamour(strings.ReplaceAll(cell, `\|`, "|"))
			if err != nil {
				return nil, err
			}
			text[i][c] = firstLine(s)
		}
	}
	widths := columnWidths(text, w-3*(cols-1))
	bar := r.muted("│")
	rule := make([]string, cols)
	for c, cw := range widths {
		rule[c] = strings.Repeat("─", cw)
	}
	sep := r.muted(strings.Join(rule, "─┼─"))
	var out, body []string
	tall := false
	for i, row := range text {
		cellLines := make([][]string, cols)
		height := 1
		for c, cell := range row {
			cellLines[c] = closeStyles(strings.Split(ansi.Wordwrap(cell, widths[c], ""), "\n"))
			height = max(height, len(cellLines[c]))
		}
		if i > 0 && height > 1 {
			tall = true
		}
		var lines []string
		for k := range height {
			parts := make([]string, cols)
			for c := range cols {
				s := ""
				if k < len(cellLines[c]) {
					s = cellLines[c][k]
				}
				parts[c] = s + strings.Repeat(" ", max(widths[c]-ansi.StringWidth(s), 0))
			}
			lines = append(lines, trimRight(strings.Join(parts, " "+bar+" ")))
		}
		if i == 0 {
			out = append(lines, sep)
			continue
		}
		body = append(body, strings.Join(lines, "\n"))
	}
	for i, b := range body {
		if i > 0 && tall {
			out = append(out, sep)
		}
		out = append(out, strings.Split(b, "\n")...)
	}
	return out, nil
}

// columnWidths shares room cells among the columns of text: each gets its
// longest word, then what is left goes to those whose longest cell does
// not fit yet, in proportion to what they lack.
func columnWidths(text [][]string, room int) []int {
	cols := len(text[0])
	least, most := make([]int, cols), make([]int, cols)
	for _, row := range text {
		for c, cell := range row {
			most[c] = max(most[c], ansi.StringWidth(cell))
			for _, word := range strings.Fields(ansi.Strip(cell)) {
				least[c] = max(least[c], ansi.StringWidth(word))
			}
		}
	}
	widths := append([]int(nil), least...)
	left, lack := room, 0
	for c := range cols {
		left -= least[c]
		lack += most[c] - least[c]
	}
	if left >= lack {
		return most
	}
	if left > 0 {
		given := 0
		for c := range cols {
			g := left * (most[c] - least[c]) / lack
			widths[c] += g
			given += g
		}
		for c := 0; given < left; c = (c + 1) % cols { // the remainder, a cell each
			if widths[c] < most[c] {
				widths[c]++
				given++
			}
		}
	}
	return widths
}

// plain reports whether the renderer writes no escape codes.
func (r *Renderer) plain() bool { return r.profile == termenv.Ascii }

// muted is s in the theme's muted colour.
func (r *Renderer) muted(s string) string {
	if r.mutedColor == "" || r.plain() {
		return s
	}
	return termenv.String(s).Foreground(r.profile.Color(r.mutedColor)).String()
}

// firstLine is the first line of s that is not blank, without the spaces
// glamour pads it with.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if !isBlank(l) {
			return trimRight(l)
		}
	}
	return ""
}
