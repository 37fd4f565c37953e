package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/streamlab/streamlab/exercises/grade"
)

// Gradescope's results.json (autograder specification): the total score,
// a test per check with its score, max_score, status, output and
// visibility. A hidden check becomes "after_due_date": Gradescope's own
// "hidden" is meant for tests that carry no points.
type (
	gsResults struct {
		Score            float64  `json:"score"`
		Output           string   `json:"output"`
		Visibility       string   `json:"visibility"`
		StdoutVisibility string   `json:"stdout_visibility"`
		Tests            []gsTest `json:"tests"`
	}
	gsTest struct {
		Name       string   `json:"name"`
		Number     string   `json:"number"`
		Score      float64  `json:"score"`
		MaxScore   float64  `json:"max_score"`
		Status     string   `json:"status"`
		Output     string   `json:"output"`
		Tags       []string `json:"tags"`
		Visibility string   `json:"visibility"`
	}
)

// Gradescope writes the result as Gradescope's results.json.
func Gradescope(w io.Writer, res *grade.Result) error {
	doc := gsResults{Score: res.Score, Visibility: "visible", StdoutVisibility: "hidden", Tests: []gsTest{}}
	passed := 0
	for i, e := range res.Exercises {
		if e.Passed {
			passed++
		}
		for j, c := range e.Checks {
			t := gsTest{Name: testName(e, c), Number: fmt.Sprintf("%d.%d", i+1, j+1),
				Score: c.Score, MaxScore: c.Points, Status: "passed", Output: detail(c),
				Tags: []string{e.ID, e.Kind}, Visibility: "visible"}
			if !c.Passed {
				t.Status = "failed"
			}
			if hidden(c) {
				t.Visibility = "after_due_date"
			}
			doc.Tests = append(doc.Tests, t)
		}
	}
	doc.Output = fmt.Sprintf("streamlab grade: %s/%s points; %d of %d exercises passed.",
		num(res.Score), num(res.MaxScore), passed, len(res.Exercises))
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
