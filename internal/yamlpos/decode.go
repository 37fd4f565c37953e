package yamlpos

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/internal/poserr"
)

// Entry is one value of a mapping or a list, with the name it goes by in
// messages (its key, or "key[i]" for a list item) and its path from the
// root ("operators[1].window"), for callers that place later errors.
type Entry struct {
	Key     string
	Path    string
	KeyNode *yaml.Node // nil for a list item
	Value   *yaml.Node
}

// Root is the entry of a document's body; key names it in messages.
func Root(key string, body *yaml.Node) Entry { return Entry{Key: key, Value: body} }

// Pos returns where the entry's value is, or its key when the value is
// empty.
func (e Entry) Pos() (line, col int) {
	if l, c := Pos(e.Value); l > 0 && (!IsNull(e.Value) || e.KeyNode == nil) {
		return l, c
	}
	return Pos(e.KeyNode)
}

// Pos returns where node n starts (zeros when n is nil): for a block
// mapping its first key, for a block scalar its | or >.
func Pos(n *yaml.Node) (line, col int) {
	if n == nil {
		return 0, 0
	}
	return n.Line, n.Column
}

// Decoder walks a tree and collects problems.
type Decoder struct {
	File string
	Kind error // the Kind of every problem
	Errs []*poserr.Error
}

// Err returns the problem that comes first in the file, or nil.
func (d *Decoder) Err() error {
	if len(d.Errs) == 0 {
		return nil
	}
	first := d.Errs[0]
	for _, e := range d.Errs[1:] {
		if e.Line < first.Line || e.Line == first.Line && e.Col < first.Col {
			first = e
		}
	}
	return first
}

// Failf records a problem at node n.
func (d *Decoder) Failf(n *yaml.Node, format string, args ...any) {
	l, c := Pos(n)
	d.Errs = append(d.Errs, poserr.New(d.Kind, d.File, l, c, fmt.Sprintf(format, args...)))
}

// FailAt records a problem at an entry.
func (d *Decoder) FailAt(e Entry, format string, args ...any) {
	l, c := e.Pos()
	d.Errs = append(d.Errs, poserr.New(d.Kind, d.File, l, c, fmt.Sprintf(format, args...)))
}

// Expected records "key: expected want, got what the value is".
func (d *Decoder) Expected(e Entry, want string) {
	d.FailAt(e, "%s: expected %s, got %s", e.Key, want, Describe(e.Value))
}

// Mapping returns the entries of the mapping e in order, after checking each
// key is one of known (any key when known is nil) and appears once; what
// names the mapping in messages. Entries whose value is empty (key:) are
// left out; MappingAll keeps them.
func (d *Decoder) Mapping(e Entry, what string, known []string) []Entry {
	all := d.MappingAll(e, what, known)
	out := all[:0]
	for _, f := range all {
		if !IsNull(f.Value) {
			out = append(out, f)
		}
	}
	return out
}

// MappingAll is Mapping with the entries whose value is empty.
func (d *Decoder) MappingAll(e Entry, what string, known []string) []Entry {
	if e.Value == nil || e.Value.Kind != yaml.MappingNode {
		d.Expected(e, "a mapping")
		return nil
	}
	var out []Entry
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(e.Value.Content); i += 2 {
		k, v := e.Value.Content[i], e.Value.Content[i+1]
		key := keyText(k)
		if known != nil && !slices.Contains(known, key) {
			d.Failf(k, "unknown key %s in %s; known keys: %s", Quote(key), what, strings.Join(known, ", "))
			continue
		}
		if first, dup := seen[key]; dup {
			d.Failf(k, "duplicate key %s in %s (first at line %d, column %d)", Quote(key), what, first.Line, first.Column)
			continue
		}
		seen[key] = k
		path := key
		if e.Path != "" {
			path = e.Path + "." + key
		}
		out = append(out, Entry{Key: key, Path: path, KeyNode: k, Value: v})
	}
	return out
}

// List returns the items of the list e.
func (d *Decoder) List(e Entry) []Entry {
	if e.Value == nil || e.Value.Kind != yaml.SequenceNode {
		d.Expected(e, "a list")
		return nil
	}
	items := make([]Entry, len(e.Value.Content))
	for i, v := range e.Value.Content {
		index := "[" + strconv.Itoa(i) + "]"
		items[i] = Entry{Key: e.Key + index, Path: e.Path + index, Value: v}
	}
	return items
}

// Strings returns a list of strings.
func (d *Decoder) Strings(e Entry) []string {
	items := d.List(e)
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, d.String(item))
	}
	return out
}

// String returns a string value. A plain scalar YAML would read as another
// type (a number, true) is not one: quoting it says it is meant as text.
func (d *Decoder) String(e Entry) string {
	if s, ok := String(e.Value); ok {
		return s
	}
	if isScalar(e.Value) && !IsNull(e.Value) {
		d.Expected(e, "a string (put the value in quotes)")
		return ""
	}
	d.Expected(e, "a string")
	return ""
}

// String returns the text of a string scalar. A date or time YAML would
// read as a timestamp is a string here.
func String(n *yaml.Node) (string, bool) {
	if n != nil && n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!timestamp") {
		return n.Value, true
	}
	return "", false
}

// Int returns an integer value.
func (d *Decoder) Int(e Entry) int64 {
	n := e.Value
	if isScalar(n) && n.Tag == "!!int" {
		var v int64
		if err := n.Decode(&v); err == nil {
			return v
		}
		d.FailAt(e, "%s: %s is out of range", e.Key, n.Value)
		return 0
	}
	if isScalar(n) && n.Tag == "!!float" && isDigits(n.Value) {
		// Too large for an integer, YAML reads it as a float.
		d.FailAt(e, "%s: %s is out of range", e.Key, n.Value)
		return 0
	}
	d.Expected(e, "an integer")
	return 0
}

// Float returns a number, integer or not; .inf and .nan are numbers too.
func (d *Decoder) Float(e Entry) float64 {
	n := e.Value
	if isScalar(n) && (n.Tag == "!!int" || n.Tag == "!!float") {
		var v float64
		if err := n.Decode(&v); err == nil {
			return v
		}
	}
	d.Expected(e, "a number")
	return 0
}

// Number returns a finite number, integer or not.
func (d *Decoder) Number(e Entry) float64 {
	f, ok := Number(e.Value)
	if !ok {
		d.Expected(e, "a number")
	}
	return f
}

// Number returns the finite number a scalar node holds.
func Number(n *yaml.Node) (float64, bool) {
	if !isScalar(n) || (n.Tag != "!!int" && n.Tag != "!!float") {
		return 0, false
	}
	var v float64
	if err := n.Decode(&v); err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// Duration returns a Go duration written as a string such as 10s (or 0).
func (d *Decoder) Duration(e Entry) time.Duration {
	const want = "a duration such as 2s, 500ms or 1m30s"
	n := e.Value
	if !isScalar(n) || (n.Tag != "!!str" && n.Tag != "!!int") {
		d.Expected(e, want)
		return 0
	}
	t, err := time.ParseDuration(n.Value)
	if err != nil {
		d.Expected(e, want)
	}
	return t
}

// Time returns an RFC 3339 time.
func (d *Decoder) Time(e Entry) time.Time {
	const want = "an RFC 3339 time such as 2026-01-01T12:00:00Z"
	s, ok := String(e.Value)
	if !ok {
		d.Expected(e, want)
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		d.Expected(e, want)
	}
	return t
}

// Bool returns a boolean value.
func (d *Decoder) Bool(e Entry) bool {
	n := e.Value
	if isScalar(n) && n.Tag == "!!bool" {
		var v bool
		if err := n.Decode(&v); err == nil {
			return v
		}
	}
	d.Expected(e, "true or false")
	return false
}

// IsNull reports whether n is missing, empty or null.
func IsNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func isScalar(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode }

// isDigits reports whether s is an optionally signed run of decimal digits.
func isDigits(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func keyText(k *yaml.Node) string {
	if isScalar(k) {
		return k.Value
	}
	return Describe(k)
}

// Text is the text of a scalar node as written ("" for other nodes).
func Text(n *yaml.Node) string {
	if isScalar(n) {
		return n.Value
	}
	return ""
}

// IsBlock reports whether n is a block scalar (| or >), whose lines start
// on the line after n's position.
func IsBlock(n *yaml.Node) bool {
	return isScalar(n) && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
}

// Describe says what a node is, for "expected X, got Y" messages.
func Describe(n *yaml.Node) string {
	switch {
	case IsNull(n):
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind != yaml.ScalarNode:
		return "an unsupported YAML node"
	case IsBlock(n):
		return "a block string"
	}
	switch n.Tag {
	case "!!int":
		return "integer " + shorten(n.Value)
	case "!!float":
		return "number " + shorten(n.Value)
	case "!!bool":
		return "boolean " + n.Value
	}
	return "string " + Quote(n.Value)
}

// Quote quotes s for a message, shortened so that a huge value cannot flood
// the terminal.
func Quote(s string) string { return strconv.Quote(shorten(s)) }

// shorten cuts s to 40 characters.
func shorten(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// IsQuoted reports whether n is a quoted string ('...' or "..."), whose
// text starts one column after n's position.
func IsQuoted(n *yaml.Node) bool {
	return isScalar(n) && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
}
