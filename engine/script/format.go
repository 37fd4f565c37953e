package script

import (
	"slices"
	"strings"
)

// String returns the command in canonical form: single spaces, no comment,
// quotes only where needed, and for set the words before the parameters.
// It is built from Verb, Args and Params (Expr for expect), and for any
// parsed command ParseLine(c.String()) gives back an Equal command; that is
// how the terminal saves a session as a script. Arguments keep the text they
// were written with (`run 90s` stays `run 90s`), so that an error about a
// saved script quotes what the learner typed.
func (c Command) String() string {
	var b strings.Builder
	b.WriteString(c.Verb)
	if c.Verb == VerbExpect {
		e := c.Expr
		b.WriteString(" " + e.Field + " " + e.Op + " " + formatValue(e.Value))
		return b.String()
	}
	for _, a := range c.Args {
		b.WriteByte(' ')
		// In set, a word with '=' was quoted, or it would be a parameter.
		b.WriteString(quoteIfNeeded(a.Text, c.Verb == VerbSet && strings.Contains(a.Text, "=")))
	}
	for _, p := range c.Params {
		b.WriteString(" " + p.Name + "=" + p.Value)
	}
	return b.String()
}

// quoteIfNeeded quotes s when the lexer would not read it back as one bare
// token, or when force is set.
func quoteIfNeeded(s string, force bool) string {
	if force || s == "" || strings.ContainsAny(s, " \t#\"") {
		return quote(s)
	}
	return s
}

// formatValue writes an expect value so that it reads back with the same
// kind: a string that looks like a number or a boolean is quoted.
func formatValue(v Value) string {
	if v.Kind != String {
		return v.Text
	}
	s := v.Text
	if s == "" || s == "true" || s == "false" || startsLikeNumber(s) || strings.ContainsAny(s, " \t#\"=!<>") {
		return quote(s)
	}
	return s
}

// Equal reports whether c and d are the same command, ignoring where and
// how they were written: positions, Text and Expr.Text.
func (c Command) Equal(d Command) bool {
	return c.Verb == d.Verb && c.Count == d.Count && c.Duration == d.Duration &&
		c.Node == d.Node && c.At == d.At && c.HasAt == d.HasAt && c.AtCommit == d.AtCommit &&
		c.Expr.Field == d.Expr.Field && c.Expr.Op == d.Expr.Op && c.Expr.Value == d.Expr.Value &&
		slices.EqualFunc(c.Args, d.Args, func(a, b Arg) bool { return a.Text == b.Text }) &&
		slices.EqualFunc(c.Params, d.Params, func(a, b Param) bool { return a.Name == b.Name && a.Value == b.Value })
}
