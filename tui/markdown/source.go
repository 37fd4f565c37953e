package markdown

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The lessons' Markdown is written for a text editor: paragraphs and list
// items wrapped by hand at 75 columns, lab lines in indented code blocks,
// tables as wide as they need. prepare rewrites it for a pane w cells
// wide before glamour reads it, so that what glamour cannot do for a
// narrow pane is done here:
//
//   - a paragraph's or a list item's lines are joined into one, so that a
//     list item wraps as one piece of text (glamour keeps a list item's
//     line breaks) and emphasis over a line break is one run of text;
//   - a code line too long for the pane is broken at a space, its rest
//     indented below it, rather than cut off: these are lines to type;
//   - a table too wide for the pane becomes a list, a row an item and its
//     cells nested items named by their column ("gives up: at the first
//     failure"), which reads better than columns a few cells wide;
//   - a hyphen between two letters becomes a non-breaking one (see
//     keepWords).
func prepare(md string, w int, ticks bool) []block {
	var blocks []block
	var out []string
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(md), "\r\n", "\n"), "\n")
	fence := ""       // the open fence's marker, "" outside a fence
	joinable := false // the last line out is text a next line continues
	blank := true     // the last line in was blank (or there was none)
	code := false     // the last line in was indented code
	listIndent := 0   // the content column of the list being read
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case fence != "":
			if strings.HasPrefix(trim, fence) {
				fence = ""
				out = append(out, line)
			} else {
				out = append(out, splitCode(line, "", w-codeMargin)...)
			}
			joinable = false
		case trim == "":
			out = append(out, "")
			joinable, blank = false, true
			continue
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			fence = trim[:3]
			out = append(out, line)
			joinable, code = false, false
		case indent >= listIndent+4 && (blank || code) && !joinable:
			lead := line[:listIndent+4]
			out = append(out, splitCode(line[len(lead):], lead, w-codeMargin-listIndent)...)
			code, blank = true, false
			continue
		case strings.HasPrefix(trim, "|"):
			j := i
			for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|") {
				j++
			}
			if rows, ok := table(lines[i:j], w, ticks); ok {
				blocks = append(blocks, block{md: keepWords(strings.Join(out, "\n"))}, block{table: rows})
				out = nil
			} else {
				out = append(out, records(lines[i:j])...)
			}
			i = j - 1
			joinable = false
		case isBlockStart(trim):
			out = append(out, line)
			joinable = false
			if indent == 0 {
				listIndent = 0
			}
		case listItem.MatchString(line):
			out = append(out, line)
			listIndent = len(listItem.FindString(line))
			joinable = true
		case joinable && !hardBreak(out[len(out)-1]):
			out[len(out)-1] += " " + trim
		default:
			if indent < listIndent && blank {
				listIndent = 0
			}
			out = append(out, line)
			joinable = true
		}
		blank, code = false, false
	}
	return append(blocks, block{md: keepWords(strings.Join(out, "\n"))})
}

// A block is Markdown for glamour, or a table's cells (its head first)
// that the renderer lays out itself, to fit the pane.
type block struct {
	md    string
	table [][]string
}

// codeMargin is how far a code block is indented (see Style).
const codeMargin = 2

// listItem matches a list item's marker and the spaces after it.
var listItem = regexp.MustCompile(`^ *(?:[-*+]|\d{1,9}[.)])(?: +|$)`)

// isBlockStart reports whether a line (trimmed) starts a block that ends
// a paragraph: a heading, a quote, a rule, a setext underline or HTML
// (not an autolink such as <https://…>, which is text).
func isBlockStart(trim string) bool {
	switch {
	case heading.MatchString(trim), strings.HasPrefix(trim, ">"), htmlTag.MatchString(trim):
		return true
	case len(trim) >= 3 && strings.Trim(trim, "-*_ ") == "":
		return true // a thematic break, or a setext heading's underline
	}
	return strings.Trim(trim, "=") == ""
}

var (
	heading = regexp.MustCompile(`^#{1,6}(?:\s|$)`)
	htmlTag = regexp.MustCompile(`^</?[A-Za-z][A-Za-z0-9-]*(?:\s|/?>|$)`)
)

// hardBreak reports whether a line ends with a hard line break.
func hardBreak(line string) bool {
	return strings.HasSuffix(line, "  ") || strings.HasSuffix(line, "\\")
}

// splitCode breaks a code line (lead, its block's indentation, then
// line) wider than w cells at spaces; each rest is indented two cells
// more than the line.
func splitCode(line, lead string, w int) []string {
	w = max(w, 8)
	var out []string
	more := strings.Repeat(" ", len(line)-len(strings.TrimLeft(line, " "))+2)
	for ansi.StringWidth(line) > w {
		cut := strings.LastIndexByte(ansi.Truncate(line, w, ""), ' ')
		if cut <= len(more) {
			break // one long word: better too wide than broken inside
		}
		out = append(out, lead+strings.TrimRight(line[:cut], " "))
		line = more + strings.TrimLeft(line[cut:], " ")
	}
	return append(out, lead+line)
}

// table reads a Markdown table's rows (head first, with non-breaking
// hyphens) and reports whether it can be drawn as a table w cells wide:
// each column as wide as its longest word at least, a space and a bar
// between two columns. A row with too many cells loses the rest; one
// with too few gets empty ones.
func table(rows []string, w int, ticks bool) ([][]string, bool) {
	if len(rows) < 2 || !delimiter.MatchString(strings.TrimSpace(rows[1])) {
		return nil, false
	}
	head := cells(rows[0])
	out := [][]string{head}
	for _, r := range rows[2:] {
		c := cells(r)
		c = append(c, make([]string, max(len(head)-len(c), 0))...)
		out = append(out, c[:len(head)])
	}
	need := -3
	for c := range head {
		cw := 0
		for _, r := range out {
			for _, word := range strings.Fields(r[c]) {
				cw = max(cw, shown(word, ticks))
			}
		}
		need += cw + 3
	}
	for _, r := range out {
		for c := range r {
			r[c] = keepWords(r[c])
		}
	}
	return out, need <= w
}

// records turns a table too wide for the pane into a list: a row an
// item, named by its first cell, its other cells nested items named by
// their column ("gives up: at the first failure").
func records(rows []string) []string {
	if len(rows) < 2 || !delimiter.MatchString(strings.TrimSpace(rows[1])) {
		return rows
	}
	head := cells(rows[0])
	out := []string{""}
	for _, row := range rows[2:] {
		r := cells(row)
		out = append(out, "- "+r[0])
		for c := 1; c < len(r) && c < len(head); c++ {
			name := head[c]
			if name != "" {
				name += ": "
			}
			out = append(out, "  - "+name+r[c])
		}
	}
	return append(out, "")
}

// delimiter matches a table's delimiter row.
var delimiter = regexp.MustCompile(`^\|? *:?-+:? *(?:\| *:?-+:? *)*\|?$`)

// cells splits a table row at the pipes that are not escaped or inside
// a code span.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		row = row[:len(row)-1]
	}
	var out []string
	var cur strings.Builder
	inCode := false
	for i := 0; i < len(row); i++ {
		switch c := row[i]; {
		case c == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case c == '`':
			inCode = !inCode
			cur.WriteByte(c)
		case c == '|' && !inCode:
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// shown is how wide a cell's text is once its markup is gone.
func shown(cell string, ticks bool) int {
	r := strings.NewReplacer("`", "", "**", "", `\|`, "|")
	if ticks {
		r = strings.NewReplacer("**", "*", `\|`, "|")
	}
	return ansi.StringWidth(r.Replace(cell))
}
