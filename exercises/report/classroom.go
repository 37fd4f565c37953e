package report

import (
	"encoding/json"
	"io"

	"github.com/streamlab/streamlab/exercises/grade"
)

// GitHub Classroom's autograding result, version 1: what the
// autograding-command-grader and -io-grader actions put, base64-encoded,
// in their `result` output, and what autograding-grading-reporter reads
// from the <RUNNER>_RESULTS environment variables. The reporter adds up
// tests[].score for the points it sends to Classroom, and fails the
// workflow when status is "fail" or "error". The README's "Grading in CI" shows the
// workflow.
type (
	ghResult struct {
		Version  int      `json:"version"`
		Status   string   `json:"status"` // pass | fail | error
		MaxScore float64  `json:"max_score"`
		Tests    []ghTest `json:"tests"`
	}
	ghTest struct {
		Name     string  `json:"name"`
		Status   string  `json:"status"` // pass | fail | error
		Score    float64 `json:"score"`
		Message  string  `json:"message"`
		TestCode string  `json:"test_code"`
		Filename string  `json:"filename"`
		LineNo   int     `json:"line_no"`
	}
)

// Classroom writes the result as a GitHub Classroom autograding result.
func Classroom(w io.Writer, res *grade.Result) error {
	doc := ghResult{Version: 1, Status: "pass", MaxScore: res.MaxScore, Tests: []ghTest{}}
	if !res.Passed {
		doc.Status = "fail"
	}
	for _, e := range res.Exercises {
		for _, c := range e.Checks {
			t := ghTest{Name: testName(e, c), Status: "pass", Score: c.Score, Message: detail(c),
				Filename: e.Answer}
			if e.At != nil {
				t.Filename, t.LineNo = e.At.File, e.At.Line
			}
			if !hidden(c) {
				t.TestCode = c.Expected
			}
			if !c.Passed {
				t.Status = "fail"
			}
			doc.Tests = append(doc.Tests, t)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
