// Package report writes grading results in the formats that people and CI
// systems read: a text table, the full result as JSON, JUnit XML, TAP
// version 13, Gradescope's results.json and GitHub Classroom's autograding
// result. Every format is deterministic: the same result gives the same
// bytes.
package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

// Formats lists the formats Write knows.
var Formats = []string{"text", "json", "junit", "tap", "gradescope", "classroom"}

// Write writes res to w in format.
func Write(w io.Writer, format string, res *grade.Result) error {
	switch format {
	case "text":
		return Text(w, res)
	case "json":
		return JSON(w, res)
	case "junit":
		return JUnit(w, res)
	case "tap":
		return TAP(w, res)
	case "gradescope":
		return Gradescope(w, res)
	case "classroom":
		return Classroom(w, res)
	}
	return fmt.Errorf("unknown report format %q; expected one of %s", format, strings.Join(Formats, ", "))
}

// IsFormat reports whether Write knows format.
func IsFormat(format string) bool { return slices.Contains(Formats, format) }

// num formats points without a needless fraction.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// hidden reports whether a check's details are kept from the student.
func hidden(c grade.CheckResult) bool { return c.Visibility == pack.Hidden }

// detail is what a student reads about a check: its message and hint. A
// hidden check's message is only its number and result (the grader keeps
// nothing else of it unless told to reveal).
func detail(c grade.CheckResult) string {
	if hidden(c) {
		return c.Message
	}
	if c.Hint != "" {
		return c.Message + "\nhint: " + c.Hint
	}
	return c.Message
}

// testName names a check across exercises.
func testName(e grade.ExerciseResult, c grade.CheckResult) string {
	return e.ID + ": " + c.Name
}

// counts returns how many checks there are and how many failed.
func counts(res *grade.Result) (total, failed int) {
	for _, e := range res.Exercises {
		for _, c := range e.Checks {
			total++
			if !c.Passed {
				failed++
			}
		}
	}
	return total, failed
}
