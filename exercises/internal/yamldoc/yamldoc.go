// Package yamldoc reads the small YAML files of exercise packs and answers
// (exercise.yaml, answers.yaml) as a syntax tree, so that every problem can be
// reported at the file, line and column it is about, unknown keys are caught,
// and a loader knows which keys are present.
//
// A Decoder collects every problem it meets instead of stopping at the
// first: lint reports them all, loaders report the first.
package yamldoc

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/streamlab/streamlab/internal/poserr"
)

// Bounds on the input, checked before the YAML parser sees it: the parser's
// time grows with the square of the nesting depth and of runs of blank lines,
// and these files are a few dozen lines long.
const (
	MaxSize       = 64 << 10 // bytes
	maxNodes      = 2000     // mapping entries, list items and flow brackets
	maxBlankLines = 200      // in a row
)

// Parse parses data as one YAML document and returns its body; file names
// it in errors, each a *poserr.Error of kind. An empty document gives a nil
// body and no error.
func Parse(kind error, file string, data []byte) (body ast.Node, err error) {
	if len(data) > MaxSize {
		return nil, &poserr.Error{Kind: kind, File: file, Msg: fmt.Sprintf("the file is larger than %d bytes", MaxSize)}
	}
	defer func() {
		// A bug in the YAML library must not take the program down.
		if r := recover(); r != nil {
			body, err = nil, &poserr.Error{Kind: kind, File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("the YAML parser failed: %v", r)}
		}
	}()
	if line := blankRun(data); line > 0 {
		return nil, &poserr.Error{Kind: kind, File: file, Line: line, Col: 1, Msg: fmt.Sprintf("more than %d blank lines in a row", maxBlankLines)}
	}
	tokens := lexer.Tokenize(string(data))
	n := 0
	for _, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType, token.SequenceEntryType, token.MappingValueType, token.CollectEntryType:
			if n++; n > maxNodes {
				return nil, errorAt(kind, file, tk, fmt.Sprintf("more than %d keys and list items", maxNodes))
			}
		}
	}
	f, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		var located interface {
			GetToken() *token.Token
			GetMessage() string
		}
		if errors.As(err, &located) {
			return nil, errorAt(kind, file, located.GetToken(), "invalid YAML: "+located.GetMessage())
		}
		return nil, &poserr.Error{Kind: kind, File: file, Line: 1, Col: 1, Msg: "invalid YAML: " + err.Error()}
	}
	if len(f.Docs) > 1 {
		e := &poserr.Error{Kind: kind, File: file, Line: 1, Col: 1, Msg: "a second YAML document: the file holds one (remove the ---)"}
		if doc := f.Docs[1]; doc != nil && doc.Start != nil {
			e = errorAt(kind, file, doc.Start, e.Msg)
		}
		return nil, e
	}
	if len(f.Docs) == 0 || f.Docs[0] == nil || IsNull(f.Docs[0].Body) {
		return nil, nil
	}
	return f.Docs[0].Body, nil
}

// blankRun returns the line on which data has more than maxBlankLines
// whitespace-only lines in a row, or 0.
func blankRun(data []byte) int {
	line, run, blank := 1, 0, true
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case ' ', '\t':
		case '\r', '\n':
			if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			if !blank {
				run = 0
			} else if run++; run > maxBlankLines {
				return line
			}
			line, blank = line+1, true
		default:
			blank = false
		}
	}
	return 0
}

func errorAt(kind error, file string, tk *token.Token, msg string) *poserr.Error {
	e := poserr.New(kind, file, 1, 1, msg)
	if tk != nil && tk.Position != nil {
		e.Line, e.Col = tk.Position.Line, tk.Position.Column
	}
	return e
}

// Pos returns where node n starts (1-based line and column; zeros when
// unknown): for a block mapping, its first key.
func Pos(n ast.Node) (line, col int) {
	switch v := n.(type) {
	case nil:
		return 0, 0
	case *ast.MappingNode:
		if !v.IsFlowStyle && len(v.Values) > 0 && v.Values[0] != nil {
			return Pos(v.Values[0])
		}
	case *ast.MappingValueNode:
		if v.Key != nil {
			return Pos(v.Key)
		}
	case *ast.LiteralNode:
		if v.Start != nil && v.Start.Position != nil {
			return v.Start.Position.Line, v.Start.Position.Column
		}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// Entry is one value of a mapping or a list, with the name it goes by in
// messages: its key, or "key[i]" for a list item.
type Entry struct {
	Key     string
	KeyNode ast.Node // nil for a list item
	Value   ast.Node
}

// Line and Col give where the entry's value is, or its key when the value
// is empty.
func (e Entry) Line() int { l, _ := e.pos(); return l }

// Col is the column of Line.
func (e Entry) Col() int { _, c := e.pos(); return c }

func (e Entry) pos() (int, int) {
	if l, c := Pos(e.Value); l > 0 && !IsNull(e.Value) {
		return l, c
	}
	return Pos(e.KeyNode)
}

// Decoder walks a syntax tree and collects problems, each a *poserr.Error
// of kind Kind.
type Decoder struct {
	File string
	Kind error
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
func (d *Decoder) Failf(n ast.Node, format string, args ...any) {
	l, c := Pos(n)
	d.Errs = append(d.Errs, &poserr.Error{Kind: d.Kind, File: d.File, Line: l, Col: c, Msg: fmt.Sprintf(format, args...)})
}

// FailAt records a problem at an entry.
func (d *Decoder) FailAt(e Entry, format string, args ...any) {
	l, c := e.pos()
	d.Errs = append(d.Errs, &poserr.Error{Kind: d.Kind, File: d.File, Line: l, Col: c, Msg: fmt.Sprintf(format, args...)})
}

func (d *Decoder) expected(e Entry, want string) {
	d.FailAt(e, "%s: expected %s, got %s", e.Key, want, Describe(e.Value))
}

// Mapping returns the entries of the mapping e in order, after checking each
// key is one of known (any key when known is nil) and appears once; what
// names the mapping in messages. Entries whose value is empty (key:) are
// left out.
func (d *Decoder) Mapping(e Entry, what string, known []string) []Entry {
	var pairs []*ast.MappingValueNode
	switch m := e.Value.(type) {
	case *ast.MappingNode:
		pairs = m.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{m}
	default:
		d.expected(e, "a mapping")
		return nil
	}
	var out []Entry
	seen := map[string]ast.Node{}
	for _, p := range pairs {
		if p == nil || p.Key == nil {
			continue
		}
		k := keyText(p.Key)
		if known != nil && !slices.Contains(known, k) {
			d.Failf(p.Key, "unknown key %s in %s; known keys: %s", strconv.Quote(k), what, strings.Join(known, ", "))
			continue
		}
		if first, dup := seen[k]; dup {
			l, c := Pos(first)
			d.Failf(p.Key, "duplicate key %s in %s (first at line %d, column %d)", strconv.Quote(k), what, l, c)
			continue
		}
		seen[k] = p.Key
		if IsNull(p.Value) {
			continue
		}
		out = append(out, Entry{Key: k, KeyNode: p.Key, Value: p.Value})
	}
	return out
}

// List returns the items of the list e.
func (d *Decoder) List(e Entry) []Entry {
	seq, ok := e.Value.(*ast.SequenceNode)
	if !ok {
		d.expected(e, "a list")
		return nil
	}
	items := make([]Entry, len(seq.Values))
	for i, v := range seq.Values {
		if IsNull(v) && len(seq.Entries) == len(seq.Values) && seq.Entries[i] != nil && seq.Entries[i].Start != nil {
			v = ast.Null(seq.Entries[i].Start)
		}
		items[i] = Entry{Key: e.Key + "[" + strconv.Itoa(i) + "]", Value: v}
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

// String returns a string value.
func (d *Decoder) String(e Entry) string {
	switch v := e.Value.(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.LiteralNode:
		if v.Value != nil {
			return v.Value.Value
		}
		return ""
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		d.expected(e, "a string (put the value in quotes)")
		return ""
	}
	d.expected(e, "a string")
	return ""
}

// Int returns an integer value.
func (d *Decoder) Int(e Entry) int64 {
	if v, ok := e.Value.(*ast.IntegerNode); ok {
		switch n := v.Value.(type) {
		case int64:
			return n
		case uint64:
			if n <= math.MaxInt64 {
				return int64(n)
			}
		}
		d.FailAt(e, "%s: %s is out of range", e.Key, Text(e.Value))
		return 0
	}
	d.expected(e, "an integer")
	return 0
}

// Number returns a finite number, integer or not.
func (d *Decoder) Number(e Entry) float64 {
	f, ok := Number(e.Value)
	if !ok {
		d.expected(e, "a number")
	}
	return f
}

// Number returns the finite number a scalar node holds.
func Number(n ast.Node) (float64, bool) {
	switch v := n.(type) {
	case *ast.FloatNode:
		return v.Value, !math.IsInf(v.Value, 0) && !math.IsNaN(v.Value)
	case *ast.IntegerNode:
		switch x := v.Value.(type) {
		case int64:
			return float64(x), true
		case uint64:
			return float64(x), true
		}
	case *ast.StringNode:
		// The library reads 2e-2 as a string; an unquoted one is a number.
		if v.Token != nil && v.Token.Type == token.StringType {
			if f, err := strconv.ParseFloat(v.Value, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f, true
			}
		}
	}
	return 0, false
}

// Duration returns a Go duration string such as 10s.
func (d *Decoder) Duration(e Entry) time.Duration {
	const want = "a duration such as 10s, 500ms or 1m30s"
	var s string
	switch v := e.Value.(type) {
	case *ast.StringNode:
		s = v.Value
	case *ast.IntegerNode:
		s = Text(v)
	default:
		d.expected(e, want)
		return 0
	}
	t, err := time.ParseDuration(s)
	if err != nil {
		d.expected(e, want)
	}
	return t
}

// Bool returns a boolean value.
func (d *Decoder) Bool(e Entry) bool {
	if v, ok := e.Value.(*ast.BoolNode); ok {
		return v.Value
	}
	d.expected(e, "true or false")
	return false
}

func keyText(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return Text(k)
}

// IsNull reports whether n is empty or null.
func IsNull(n ast.Node) bool {
	_, null := n.(*ast.NullNode)
	return n == nil || null
}

// Text is the source text of a scalar node.
func Text(n ast.Node) string {
	if n == nil {
		return ""
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// Describe says what a node is, for "expected X, got Y" messages.
func Describe(n ast.Node) string {
	const unsupported = " (anchors, aliases and tags are not supported)"
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return "nothing"
	case *ast.StringNode:
		return "string " + strconv.Quote(v.Value)
	case *ast.LiteralNode:
		return "a block string"
	case *ast.IntegerNode:
		return "integer " + Text(n)
	case *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "number " + Text(n)
	case *ast.BoolNode:
		return "boolean " + Text(n)
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AnchorNode:
		return "an anchor" + unsupported
	case *ast.AliasNode:
		return "an alias" + unsupported
	case *ast.TagNode:
		return "a tag " + strconv.Quote(Text(n)) + unsupported
	}
	return n.Type().String()
}
