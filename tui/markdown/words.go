package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// nbHyphen stands in for a hyphen between two letters or digits while
// the text is wrapped: at-least-once and exactly-once are not places to
// break a line.
const nbHyphen = "\u2011"

// keepWords replaces each hyphen that joins two letters or digits with a
// non-breaking one; Markdown's own hyphens (list items, rules, table
// separators) stand next to spaces or other hyphens and stay.
func keepWords(md string) string {
	if !strings.Contains(md, "-") {
		return md
	}
	var b strings.Builder
	b.Grow(len(md) + 8)
	for i := 0; i < len(md); i++ {
		if md[i] == '-' && i > 0 && i+1 < len(md) {
			prev, _ := utf8.DecodeLastRuneInString(md[:i])
			next, _ := utf8.DecodeRuneInString(md[i+1:])
			if isWord(prev) && isWord(next) {
				b.WriteString(nbHyphen)
				continue
			}
		}
		b.WriteByte(md[i])
	}
	return b.String()
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
