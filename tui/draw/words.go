package draw

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Words wraps plain text (no styling) to lines of at most w cells, the
// lines after the first indented by indent spaces. It breaks only at
// spaces: a word, hyphenated or not, moves to the next line whole, and is
// cut only when it is longer than a line (a Java class name in a narrow
// pane), where the cut cannot be helped.
func Words(text string, w, indent int) []string {
	if w <= indent {
		return []string{ansi.Truncate(text, max(w, 0), "")}
	}
	var out []string
	line, room := "", w
	flush := func() {
		out = append(out, line)
		line, room = strings.Repeat(" ", indent), w-indent
	}
	for _, word := range strings.Fields(text) {
		n := ansi.StringWidth(word)
		empty := strings.TrimSpace(line) == ""
		switch {
		case !empty && n+1 <= room:
			line, room = line+" "+word, room-n-1
			continue
		case !empty:
			flush()
		}
		for n > room { // longer than a whole line: cut it
			line += ansi.Truncate(word, room, "")
			word = ansi.TruncateLeft(word, room, "")
			n = ansi.StringWidth(word)
			flush()
		}
		line, room = line+word, room-n
	}
	if strings.TrimSpace(line) != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}
