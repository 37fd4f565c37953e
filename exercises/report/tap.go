package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
)

// TAP writes the result as TAP version 13: a test point per check, and
// under a failed one a YAML block with its details, which prove and other
// TAP consumers show.
func TAP(w io.Writer, res *grade.Result) error {
	total, _ := counts(res)
	var b strings.Builder
	fmt.Fprintf(&b, "TAP version 13\n1..%d\n", total)
	n := 0
	for _, e := range res.Exercises {
		for _, c := range e.Checks {
			n++
			status := "ok"
			if !c.Passed {
				status = "not ok"
			}
			fmt.Fprintf(&b, "%s %d - %s\n", status, n, tapEscape(testName(e, c)))
			if c.Passed {
				continue
			}
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  message: %s\n", strconv.Quote(detail(c)))
			fmt.Fprintf(&b, "  severity: fail\n")
			fmt.Fprintf(&b, "  points: %s\n", num(c.Points))
			if e.Seed != nil {
				fmt.Fprintf(&b, "  seed: %d\n", *e.Seed)
			}
			fmt.Fprintf(&b, "  answer: %s\n", strconv.Quote(e.Answer))
			b.WriteString("  ...\n")
		}
	}
	fmt.Fprintf(&b, "# score %s/%s\n", num(res.Score), num(res.MaxScore))
	_, err := io.WriteString(w, b.String())
	return err
}

// tapEscape keeps a description on one line and its # from starting a
// directive.
func tapEscape(s string) string {
	s = strings.NewReplacer("\\", "\\\\", "#", "\\#", "\n", " ", "\r", " ").Replace(s)
	return s
}
