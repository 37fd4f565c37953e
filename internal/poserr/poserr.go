// Package poserr is the one error type of every parser of the project's
// input formats (lab scripts, job files, lesson and exercise YAML, answers):
// a problem at a place in a file. One type means one way to print it,
// "file:line:col: what was expected, what was found", the form editors and
// CI annotations understand, and one way for a caller to read the position.
//
// Which format an error is about is its Kind, a sentinel the format's package
// exports (lab.ErrBadInput, jobspec.ErrBadJob, ...): errors.Is(err, Kind)
// holds, so a caller tells bad input from other failures without knowing
// the type.
package poserr

import (
	"errors"
	"strconv"
)

// Error is a problem at a position in a file.
type Error struct {
	File      string // as the user named it; may be empty (a value built in Go)
	Line, Col int    // 1-based; 0 when unknown, and then left out of the text
	Msg       string // what was expected, and what was found
	Kind      error  // the format's sentinel; errors.Is(e, Kind) holds
}

// New returns an Error of kind at file:line:col.
func New(kind error, file string, line, col int, msg string) *Error {
	return &Error{File: file, Line: line, Col: col, Msg: msg, Kind: kind}
}

// Error formats as "file:line:col: msg". A zero line or column is left out
// ("file:line: msg", "file: msg"), as is an empty file ("line:col: msg").
func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		if loc != "" {
			loc += ":"
		}
		loc += strconv.Itoa(e.Line)
		if e.Col > 0 {
			loc += ":" + strconv.Itoa(e.Col)
		}
	}
	if loc == "" {
		return e.Msg
	}
	return loc + ": " + e.Msg
}

// Is reports whether target is the error's Kind.
func (e *Error) Is(target error) bool { return e.Kind != nil && target == e.Kind }

// As returns the first *Error in err's chain if its Kind is kind (any
// Kind when kind is nil), so that a caller turning one format's error into
// another's does not take up an error of a third format by mistake.
func As(err error, kind error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) && (kind == nil || e.Kind == kind) {
		return e, true
	}
	return nil, false
}
