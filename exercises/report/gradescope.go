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
	var shown, shownMax, later float64
	for i, e := range res.Exercises {
		for j, c := range e.Checks {
			if hidden(c) {
				later += c.Points
			} else {
				shown, shownMax = shown+c.Score, shownMax+c.Points
			}
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
	// The output is shown at once, so it counts only the checks shown at
	// once: a total with the hidden checks in it would tell their result.
	doc.Output = fmt.Sprintf("streamlab grade: %s/%s points in the checks shown now.", num(shown), num(shownMax))
	if later > 0 {
		doc.Output += fmt.Sprintf(" Checks worth %s more points are shown after the due date.", num(later))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
