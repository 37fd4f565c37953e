package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/internal/untrusted"
)

// Text writes a table with one line per exercise, and under each exercise
// that did not pass, its failed checks.
func Text(w io.Writer, res *grade.Result) error {
	var b strings.Builder
	idw, kindw := len("exercise"), len("kind")
	for _, e := range res.Exercises {
		idw, kindw = max(idw, len(e.ID)), max(kindw, len(e.Kind))
	}
	row := func(id, kind, score, result string) {
		fmt.Fprintf(&b, "%-*s  %-*s  %-7s  %s\n", idw, id, kindw, kind, score, result)
	}
	row("exercise", "kind", "score", "result")
	passed := 0
	for _, e := range res.Exercises {
		result := "FAIL"
		if e.Passed {
			result, passed = "pass", passed+1
		}
		row(e.ID, e.Kind, num(e.Score)+"/"+num(e.MaxScore), result)
		if e.Passed {
			continue
		}
		if e.Error != "" {
			indent(&b, "error: "+e.Error)
			continue
		}
		for _, c := range e.Checks {
			if c.Passed {
				continue
			}
			indent(&b, fmt.Sprintf("FAIL %s (0/%s): %s", c.Name, num(c.Points), detail(c)))
		}
	}
	row("total", "", num(res.Score)+"/"+num(res.MaxScore), fmt.Sprintf("%d of %d exercises passed", passed, len(res.Exercises)))
	_, err := io.WriteString(w, b.String())
	return err
}

// indent writes text indented by two spaces, continuation lines by four,
// with no control characters: a message quotes the answer's path, and a
// student's folder named with an escape sequence would otherwise reach the
// instructor's terminal as one.
func indent(b *strings.Builder, text string) {
	for i, l := range strings.Split(text, "\n") {
		l = untrusted.Quote(l, len(l))
		if i == 0 {
			fmt.Fprintf(b, "  %s\n", l)
		} else {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}

// JSON writes the full result as one indented object.
func JSON(w io.Writer, res *grade.Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
