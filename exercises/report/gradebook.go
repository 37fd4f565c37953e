package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/internal/untrusted"
)

// Student is one student's grade in a class.
type Student struct {
	ID     string        `json:"student"`
	Result *grade.Result `json:"result"`
}

// Gradebook writes a class's grades as CSV, a row per student: the
// student, each exercise's score (in the first student's order), the
// total, the most and whether every exercise passed. Spreadsheets read it;
// a cell that would start a formula is prefixed with a quote. An exercise
// whose grading broke (grade.ExerciseResult.Internal) reads "error", not
// a score: it is no grade, and must not pass for one.
func Gradebook(w io.Writer, class []Student) error {
	cw := csv.NewWriter(w)
	var ids []string
	if len(class) > 0 {
		for _, e := range class[0].Result.Exercises {
			ids = append(ids, e.ID)
		}
	}
	header := append(append([]string{"student"}, ids...), "score", "max_score", "passed")
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, s := range class {
		scores := map[string]string{}
		for _, e := range s.Result.Exercises {
			scores[e.ID] = num(e.Score)
			if e.Internal {
				scores[e.ID] = "error"
			}
		}
		row := []string{cell(shownID(s.ID))}
		for _, id := range ids {
			row = append(row, scores[id])
		}
		passed := "no"
		if s.Result.Passed {
			passed = "yes"
		}
		row = append(row, num(s.Result.Score), num(s.Result.MaxScore), passed)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// shownID is a student's ID as text output shows it: the ID is a folder's
// name, which may hold escape sequences or NUL, and must not rewrite the
// instructor's terminal or spreadsheet.
func shownID(id string) string { return untrusted.Quote(id, 200) }

// cell keeps a text from being read as a spreadsheet formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// ClassText writes each student's text report under the student's name.
func ClassText(w io.Writer, class []Student) error {
	for i, s := range class {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, "student "+shownID(s.ID)+"\n"); err != nil {
			return err
		}
		if err := Text(w, s.Result); err != nil {
			return err
		}
	}
	return nil
}

// ClassJSON writes the class as one JSON array of {student, result}.
func ClassJSON(w io.Writer, class []Student) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if class == nil {
		class = []Student{}
	}
	return enc.Encode(class)
}
