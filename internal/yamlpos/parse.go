// Package yamlpos reads the project's small YAML files (job files, exercise
// packs, answers, lesson metadata) as a tree of nodes that keep their line
// and column, so that every problem is reported at the place it is about.
// It is the one YAML reader of the project, built on go.yaml.in/yaml/v3.
//
// Parse checks the input's shape before the YAML parser sees it (size, line
// length, runs of blank lines, control characters) and the tree after
// (one document, no anchors, aliases or tags, a bounded number of keys and
// list items). A Decoder then walks the tree: it catches unknown and
// duplicate keys, checks each value's type, and collects every problem
// instead of stopping at the first, so that a linter can list them all and
// a loader can report the first. Every problem is a *poserr.Error of the
// Kind the caller names.
package yamlpos

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/internal/poserr"
)

// Limits bound a file. They are checked before the YAML parser runs, except
// MaxNodes, which is checked on the tree. Zero means no limit.
type Limits struct {
	MaxBytes      int // bytes in the file
	MaxLine       int // characters in a line
	MaxBlankLines int // whitespace-only lines in a row
	MaxNodes      int // mapping entries and list items
}

// Parse parses data as one YAML document and returns its body; file names
// it in errors, each a *poserr.Error of kind. An empty document (nothing,
// only comments, or a lone null) gives a nil body and no error.
func Parse(kind error, file string, data []byte, lim Limits) (body *yaml.Node, err error) {
	fail := func(line, col int, format string, args ...any) (*yaml.Node, error) {
		return nil, poserr.New(kind, file, line, col, fmt.Sprintf(format, args...))
	}
	if e := checkShape(data, lim); e != nil {
		return fail(e.line, e.col, "%s", e.msg)
	}
	defer func() {
		// A bug in the YAML library must not take the program down.
		if r := recover(); r != nil {
			body, err = fail(1, 0, "the YAML parser failed: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		line, msg := syntaxError(err)
		// At the end of the input the library is past the last line:
		// an unclosed bracket or quote is reported on the last line.
		line = min(line, lastLine(data))
		if rest, ok := strings.CutPrefix(msg, "unknown anchor '"); ok && strings.HasSuffix(rest, "' referenced") {
			// An alias of an anchor that is not there; the library does
			// not say where it is.
			alias := "*" + strings.TrimSuffix(rest, "' referenced")
			line, col := find(data, alias)
			return fail(line, col, "alias %s: anchors, aliases and tags are not supported; write the value out", shorten(alias))
		}
		return fail(line, 0, "invalid YAML: %s", msg)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return fail(next.Line, next.Column, "a second YAML document: the file holds one (remove the ---)")
	case !errors.Is(err, io.EOF):
		line, msg := syntaxError(err)
		return fail(line, 0, "invalid YAML: %s", msg)
	}
	if len(doc.Content) != 1 {
		return nil, nil
	}
	body = doc.Content[0]
	if e := checkTree(body, lim.MaxNodes); e != nil {
		return fail(e.line, e.col, "%s", e.msg)
	}
	if IsNull(body) {
		return nil, nil
	}
	return body, nil
}

// syntaxError splits the library's "yaml: line 3: did not find ..." into
// the line and the message. The library counts a scanner error's line from
// 1 and a parser error's from 0, and leaves out a line 0 (the first line),
// so this puts each on the line it means. The line is the start of the
// construct being read when the problem was found: an unclosed [ is
// reported where it opens.
//
// Reading the text is the only way: go.yaml.in/yaml/v3 reports a syntax
// error as a plain fmt error (its failf), with no type or field to carry
// the line; only unmarshalling into Go values has a TypeError.
func syntaxError(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		n, after, found := strings.Cut(rest, ": ")
		if l, err := strconv.Atoi(n); err == nil && found && l > 0 {
			line, msg = l, after
		}
	}
	if line == 0 {
		return 1, msg
	}
	if slices.Contains(parserProblems, msg) {
		line++
	}
	return line, msg
}

// parserProblems are the messages of the library's parser (parserc.go), as
// opposed to its scanner.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
}

// lastLine is the number of the last line of data that has any text.
func lastLine(data []byte) int {
	data = bytes.TrimRight(data, "\r\n")
	n := 1
	for i := 0; i < len(data); i++ {
		if data[i] == '\n' || data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			n++
		}
	}
	return n
}

// find returns the line and column of the first s in data, or 1, 0.
func find(data []byte, s string) (line, col int) {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 1, 0
	}
	before := data[:i]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
}

// problem is a limit broken at a 1-based line and column.
type problem struct {
	line, col int
	msg       string
}

// checkShape reports where data first goes past a limit or holds what is not
// text. Like YAML, it takes \n, \r\n and a lone \r as line breaks.
func checkShape(data []byte, lim Limits) *problem {
	line, col, blanks, blank := 1, 0, 0, true
	at := func(col int, format string, args ...any) *problem {
		return &problem{line, col, fmt.Sprintf(format, args...)}
	}
	for i := 0; i < len(data); {
		if lim.MaxBytes > 0 && i >= lim.MaxBytes {
			return at(col+1, "the file is longer than %d bytes", lim.MaxBytes)
		}
		c := data[i]
		if c == '\r' || c == '\n' {
			if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			i++
			if !blank {
				blanks = 0
			} else if blanks++; lim.MaxBlankLines > 0 && blanks > lim.MaxBlankLines {
				return at(1, "more than %d blank lines in a row", lim.MaxBlankLines)
			}
			line, col, blank = line+1, 0, true
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		col++
		switch {
		case r == utf8.RuneError && size == 1:
			return at(col, "invalid UTF-8 (byte 0x%02x); the file must be UTF-8 text", c)
		case r == '\uFEFF' && i == 0: // a byte order mark
			col--
		case r < 0x20 && r != '\t', r == 0x7F, r >= 0x80 && r < 0xA0 && r != 0x85:
			return at(col, "control character %U; the file must be plain text", r)
		case r != ' ' && r != '\t':
			blank = false
		}
		if lim.MaxLine > 0 && col > lim.MaxLine {
			return at(col, "a line longer than %d characters", lim.MaxLine)
		}
		i += size
	}
	return nil
}

// checkTree rejects what the decoders do not read (anchors, aliases, tags)
// and counts mapping entries and list items, in document order.
func checkTree(root *yaml.Node, maxNodes int) *problem {
	count := 0
	var walk func(n *yaml.Node) *problem
	walk = func(n *yaml.Node) *problem {
		switch {
		case n.Kind == yaml.AliasNode:
			return &problem{n.Line, n.Column, fmt.Sprintf("alias *%s: anchors, aliases and tags are not supported; write the value out", shorten(n.Value))}
		case n.Anchor != "":
			return &problem{n.Line, n.Column, fmt.Sprintf("anchor &%s: anchors, aliases and tags are not supported; write the value out", shorten(n.Anchor))}
		case n.Style&yaml.TaggedStyle != 0:
			return &problem{n.Line, n.Column, fmt.Sprintf("tag %s: anchors, aliases and tags are not supported; write the value out", shorten(n.Tag))}
		}
		step := 1
		if n.Kind == yaml.MappingNode {
			step = 2
		}
		for i := 0; i < len(n.Content); i++ {
			c := n.Content[i]
			if i%step == 0 {
				if count++; maxNodes > 0 && count > maxNodes {
					return &problem{c.Line, c.Column, fmt.Sprintf("more than %d keys and list items", maxNodes)}
				}
			}
			if n.Kind == yaml.SequenceNode && isEmpty(c) && c.Column > 1 {
				// An empty item (a lone -) is placed after the dash;
				// point at the dash.
				c.Column--
			}
			if p := walk(c); p != nil {
				return p
			}
		}
		return nil
	}
	return walk(root)
}

// isEmpty reports whether n is a null written as nothing at all.
func isEmpty(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" && n.Style == 0
}
