package report

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/exercises/grade"
)

// JUnit XML: testsuites, a testsuite per exercise, a testcase per check,
// a failure element holding the details in its body. This is the shape
// GitHub Actions test reporters, GitLab and Jenkins read.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
)

// JUnit writes the result as JUnit XML.
func JUnit(w io.Writer, res *grade.Result) error {
	total, failed := counts(res)
	doc := junitSuites{Name: "streamlab grade", Tests: total, Failures: failed}
	for _, e := range res.Exercises {
		s := junitSuite{Name: e.ID, Properties: []junitProperty{{"title", e.Title}, {"kind", e.Kind}}}
		if e.Seed != nil {
			s.Properties = append(s.Properties, junitProperty{"seed", strconv.FormatInt(*e.Seed, 10)})
		}
		s.Properties = append(s.Properties, junitProperty{"answer", e.Answer}, junitProperty{"score", num(e.Score)},
			junitProperty{"max_score", num(e.MaxScore)})
		for _, c := range e.Checks {
			tc := junitCase{Name: c.Name, Classname: "streamlab." + e.ID}
			s.Tests++
			if !c.Passed {
				s.Failures++
				typ := "check"
				if e.Error != "" {
					typ = "broken-answer"
				}
				body := detail(c) + "\npoints: 0/" + num(c.Points)
				tc.Failure = &junitFailure{Message: firstLine(detail(c)), Type: typ, Body: body}
			}
			s.Cases = append(s.Cases, tc)
		}
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
