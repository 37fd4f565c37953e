package script

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/streamlab/streamlab/internal/poserr"
)

// checkText rejects what cannot be part of a line of text: overlong lines,
// invalid UTF-8, NUL and other control characters (a tab is fine). Doing it
// up front means the lexer below only ever sees clean text.
func checkText(s string) *poserr.Error {
	if len(s) > MaxLineBytes {
		return errAt(MaxLineBytes+1, "line is %d bytes long; at most %d are allowed", len(s), MaxLineBytes)
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return errAt(i+1, "invalid UTF-8 (byte 0x%02x); lab scripts are UTF-8 text", s[i])
		case r == 0:
			return errAt(i+1, "NUL byte; lab scripts are text (is this a binary file?)")
		case r == '\n' || r == '\r':
			return errAt(i+1, "line break inside a command; give one command a line")
		case r != '\t' && unicode.IsControl(r):
			return errAt(i+1, "control character %U; lab scripts are plain text", r)
		}
		i += size
	}
	return nil
}

// errAt makes a *poserr.Error at a column; ParseLine fills in the file and line.
func errAt(col int, format string, args ...any) *poserr.Error {
	return &poserr.Error{Col: col, Msg: fmt.Sprintf(format, args...), Kind: ErrSyntax}
}

// token is one lexed argument.
type token struct {
	text   string // quotes and escapes removed
	col    int    // 1-based byte column of its first byte
	end    int    // byte offset just past it
	quoted bool
}

// lexer walks one checked line. All offsets are bytes; a column is offset+1.
type lexer struct {
	s string
	i int
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' }

func (lx *lexer) skipSpace() {
	for lx.i < len(lx.s) && isSpace(lx.s[lx.i]) {
		lx.i++
	}
}

// done skips spaces and reports whether the command ends here: at the end
// of the line or at a comment.
func (lx *lexer) done() bool {
	lx.skipSpace()
	return lx.i >= len(lx.s) || lx.s[lx.i] == '#'
}

// while consumes bytes while ok holds and returns them.
func (lx *lexer) while(ok func(byte) bool) string {
	start := lx.i
	for lx.i < len(lx.s) && ok(lx.s[lx.i]) {
		lx.i++
	}
	return lx.s[start:lx.i]
}

// peekWord returns the text up to the next space or comment, for quoting an
// unexpected token in an error message.
func (lx *lexer) peekWord() string {
	j := lx.i
	for j < len(lx.s) && !isSpace(lx.s[j]) && lx.s[j] != '#' {
		j++
	}
	return lx.s[lx.i:j]
}

// next returns the next token, or ok == false at the end of the command.
// A bare token runs to a space, a tab or '#'; a quote inside one is an
// error rather than the start of a string, so that `a"b c"` cannot mean two
// different things to two readers.
func (lx *lexer) next() (tok token, ok bool, err *poserr.Error) {
	if lx.done() {
		return token{}, false, nil
	}
	start := lx.i
	if lx.s[start] == '"' {
		text, err := lx.quoted()
		if err != nil {
			return token{}, false, err
		}
		if lx.i < len(lx.s) && !isSpace(lx.s[lx.i]) && lx.s[lx.i] != '#' {
			return token{}, false, errAt(lx.i+1, "expected a space after the closing quote, got %q", lx.peekWord())
		}
		return token{text: text, col: start + 1, end: lx.i, quoted: true}, true, nil
	}
	text := lx.while(func(b byte) bool { return !isSpace(b) && b != '#' && b != '"' })
	if lx.i < len(lx.s) && lx.s[lx.i] == '"' {
		return token{}, false, errAt(lx.i+1, "unexpected quote inside %q; quote the whole argument instead", text+lx.peekWord())
	}
	return token{text: text, col: start + 1, end: lx.i}, true, nil
}

// quoted reads a double-quoted string starting at the opening quote. Only
// \" and \\ are escapes: a Windows path has backslashes, and `\t` that
// silently became a tab would be a surprise.
func (lx *lexer) quoted() (string, *poserr.Error) {
	open := lx.i
	lx.i++
	var b strings.Builder
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		switch c {
		case '"':
			lx.i++
			return b.String(), nil
		case '\\':
			if lx.i+1 < len(lx.s) && (lx.s[lx.i+1] == '"' || lx.s[lx.i+1] == '\\') {
				b.WriteByte(lx.s[lx.i+1])
				lx.i += 2
				continue
			}
			return "", errAt(lx.i+1, `unknown escape in a quoted string; only \" and \\ are allowed`)
		}
		b.WriteByte(c)
		lx.i++
	}
	return "", errAt(open+1, `unterminated quoted string; add a closing "`)
}

// quote writes s as a quoted string that lexer.quoted reads back as s.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
