package lessonpane

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/styles"
)

// Markdown shows Markdown as plain wrapped text: paragraphs joined and
// wrapped to w, headings in bold, list items hanging, and indented or
// fenced code kept line for line (cut at w) in the accent color, since
// those are the lines to type.
func Markdown(st *styles.Styles, md string, w int) []string {
	var out, para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, Wrap(strings.Join(para, " "), w)...)
			para = nil
		}
	}
	fenced := false
	md = strings.ReplaceAll(md, "**", "")
	for _, line := range strings.Split(strings.TrimSpace(md), "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "```"):
			flush()
			fenced = !fenced
		case fenced || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t"):
			flush()
			out = append(out, st.Accent.Render(ansi.Truncate("  "+strings.TrimSpace(line), w, "…")))
		case trim == "":
			flush()
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
		case strings.HasPrefix(trim, "#"):
			flush()
			out = append(out, paint(st.Bold, Wrap(strings.TrimSpace(strings.TrimLeft(trim, "#")), w))...)
		case strings.HasPrefix(trim, "- ") || strings.HasPrefix(trim, "* "):
			flush()
			para = []string{"•" + trim[1:]}
		default:
			para = append(para, trim)
		}
	}
	flush()
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
