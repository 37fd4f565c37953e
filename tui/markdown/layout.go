package markdown

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tidy makes glamour's lines, wrapped to w, the pane's: nothing wider
// than w (a word longer than the line is broken), no blank lines at
// either end or two in a row, and each line's styles opened and closed on
// the line itself, since the pane draws its border between two lines.
func tidy(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			out = append(out, strings.Split(ansi.Hardwrap(l, w, true), "\n")...)
			continue
		}
		out = append(out, l)
	}
	out = closeStyles(out)
	for i, l := range out {
		out[i] = compact(l)
	}
	var kept []string
	for _, l := range out {
		if isBlank(l) {
			if len(kept) == 0 || isBlank(kept[len(kept)-1]) {
				continue
			}
			l = ""
		}
		kept = append(kept, l)
	}
	for len(kept) > 0 && isBlank(kept[len(kept)-1]) {
		kept = kept[:len(kept)-1]
	}
	return kept
}

func isBlank(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }

// trimRight drops the spaces glamour pads a line with, styled or not.
func trimRight(l string) string {
	plain := ansi.Strip(l)
	keep := ansi.StringWidth(strings.TrimRight(plain, " "))
	if keep == ansi.StringWidth(plain) {
		return l
	}
	cut := ansi.Truncate(l, keep, "")
	if strings.IndexByte(cut, 0x1b) >= 0 {
		cut += "\x1b[0m"
	}
	return cut
}

// lead matches what starts a line as glamour draws it: its indent
// (spaces, a quote's bars) and a list item's bullet, number or box.
var lead = regexp.MustCompile(`^((?: |│ )*)(• |\d{1,9}\. |\[[ ✓]\] )?`)

// wrap wraps each of glamour's lines (a paragraph, a list item, a
// heading or a code line each) to w cells: the lines after the first
// keep its indent, and a list item's start under its text, not its
// bullet.
func wrap(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		l = trimRight(l)
		if ansi.StringWidth(l) <= w {
			out = append(out, l)
			continue
		}
		m := lead.FindStringSubmatch(ansi.Strip(l))
		indent := ansi.StringWidth(m[0])
		if w-indent < 8 { // too narrow to hang: tidy breaks it
			out = append(out, l)
			continue
		}
		head := ansi.Truncate(l, indent, "")
		pad := m[1] + strings.Repeat(" ", ansi.StringWidth(m[2]))
		for k, b := range strings.Split(ansi.Wordwrap(cutCells(l, indent), w-indent, ""), "\n") {
			if k == 0 {
				out = append(out, head+b)
			} else {
				out = append(out, pad+b)
			}
		}
	}
	return out
}

// cutCells drops the first n cells of l, keeping the styles set in them.
func cutCells(l string, n int) string {
	var esc strings.Builder
	seen := 0
	for i := 0; i < len(l); {
		if l[i] == 0x1b {
			k := escapeLen(l[i:])
			esc.WriteString(l[i : i+k])
			i += k
			continue
		}
		if seen == n {
			return esc.String() + l[i:]
		}
		_, size := firstRune(l[i:])
		seen++
		i += size
	}
	return esc.String()
}

// firstRune is the first character of s and its length in bytes; the
// cells cut are spaces and bullets, one cell each.
func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}

// escapeLen is the length of the escape sequence at the start of s: CSI
// (ESC [ … final byte) or OSC (ESC ] … BEL or ESC \), else ESC and one
// byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
	case ']':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
	default:
		return 2
	}
	return len(s)
}

// closeStyles makes each line stand on its own: the styles still open at
// the end of a line are closed there and opened again at the start of
// the next.
func closeStyles(lines []string) []string {
	var open []string // SGR sequences since the last reset
	for i, l := range lines {
		prefix := strings.Join(open, "")
		for j := 0; j < len(l); {
			if l[j] != 0x1b {
				j++
				continue
			}
			k := escapeLen(l[j:])
			if seq := l[j : j+k]; strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m") {
				if seq == "\x1b[0m" || seq == "\x1b[m" {
					open = open[:0]
				} else {
					open = append(open, seq)
				}
			}
			j += k
		}
		if len(open) > 0 {
			l += "\x1b[0m"
		}
		lines[i] = prefix + l
	}
	return lines
}

var (
	deadSGR   = regexp.MustCompile(`(?:\x1b\[[0-9;]*m)+\x1b\[0m`)
	manyReset = regexp.MustCompile(`(?:\x1b\[0m)+`)
)

// compact drops the styles glamour sets on nothing (a style opened and
// closed with no text between, as around each padding space it drew).
func compact(l string) string {
	if strings.IndexByte(l, 0x1b) < 0 {
		return l
	}
	l = deadSGR.ReplaceAllString(l, "\x1b[0m")
	l = manyReset.ReplaceAllString(l, "\x1b[0m")
	return strings.TrimPrefix(l, "\x1b[0m")
}
