package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/report"
)

// result is a grading result with a pass, a failure, a hidden failure and a
// broken answer, and names that need escaping in every format.
func result() *grade.Result {
	return &grade.Result{
		Score: 3, MaxScore: 8, Passed: false,
		Exercises: []grade.ExerciseResult{
			{ID: "ex-a", Title: "A & B", Kind: "configuration", Seed: ptr(7), Answer: "ex-a/settings.lab", Score: 3, MaxScore: 5,
				Checks: []grade.CheckResult{
					{Name: "no loss", Points: 2, Score: 2, Passed: true, Visibility: "visible", Expected: "sink.lost == 0", Actual: "0", Message: "sink.lost == 0 holds (actual 0)"},
					{Name: "no <dup> # 1", Points: 2, Visibility: "visible", Expected: "sink.duplicates == 0", Actual: "12",
						Message: "expected sink.duplicates == 0, but sink.duplicates is 12", Hint: "use a \"filter\""},
					{Name: "hidden check 1", Points: 1, Score: 1, Passed: true, Visibility: "hidden", Message: "hidden check 1: pass"},
				}},
			{ID: "ex-b", Title: "B", Kind: "prediction", Seed: ptr(7), Answer: "ex-b/answers.yaml", MaxScore: 3,
				Error: "ex-b/answers.yaml:2:1: unknown key \"lots\"",
				Checks: []grade.CheckResult{
					{Name: "lost", Points: 2, Visibility: "visible", Message: "not graded: ex-b/answers.yaml:2:1: unknown key \"lots\""},
					{Name: "hidden check 1", Points: 1, Visibility: "hidden", Message: "hidden check 1: fail"},
				}},
		},
	}
}

func passing() *grade.Result {
	return &grade.Result{Score: 2, MaxScore: 2, Passed: true, Exercises: []grade.ExerciseResult{
		{ID: "ex-a", Kind: "script", Seed: ptr(1), Score: 2, MaxScore: 2, Passed: true, Checks: []grade.CheckResult{
			{Name: "one", Points: 1, Score: 1, Passed: true, Visibility: "visible"},
			{Name: "two", Points: 1, Score: 1, Passed: true, Visibility: "hidden"},
		}},
	}}
}

func write(t *testing.T, format string, res *grade.Result) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.Write(&b, format, res); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	report.Write(&again, format, res)
	if !bytes.Equal(b.Bytes(), again.Bytes()) {
		t.Errorf("%s is not deterministic", format)
	}
	return b.Bytes()
}

func TestUnknownFormat(t *testing.T) {
	if err := report.Write(&bytes.Buffer{}, "xml", result()); err == nil || !strings.Contains(err.Error(), "junit") {
		t.Errorf("Write(xml) = %v", err)
	}
	if !report.IsFormat("tap") || report.IsFormat("xml") {
		t.Error("IsFormat")
	}
}

func TestText(t *testing.T) {
	out := string(write(t, "text", result()))
	for _, want := range []string{
		"exercise  kind           score    result\n",
		"ex-a      configuration  3/5      FAIL\n",
		"  FAIL no <dup> # 1 (0/2): expected sink.duplicates == 0, but sink.duplicates is 12\n    hint: use a \"filter\"\n",
		"ex-b      prediction     0/3      FAIL\n  error: ex-b/answers.yaml:2:1: unknown key \"lots\"\n",
		"total                    3/8      0 of 2 exercises passed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "secret") {
		t.Errorf("text shows a hidden check's details:\n%s", out)
	}
}

func TestJSON(t *testing.T) {
	var back grade.Result
	if err := json.Unmarshal(write(t, "json", result()), &back); err != nil {
		t.Fatal(err)
	}
	if back.Score != 3 || len(back.Exercises) != 2 || back.Exercises[1].Error == "" || len(back.Exercises[0].Checks) != 3 {
		t.Errorf("round trip: %+v", back)
	}
}

// The JUnit structure CI tools read.
type junit struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	out := write(t, "junit", result())
	if !bytes.HasPrefix(out, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)) {
		t.Errorf("no XML header:\n%s", out)
	}
	var doc junit
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	if doc.Tests != 5 || doc.Failures != 3 || len(doc.Suites) != 2 {
		t.Fatalf("testsuites: %+v", doc)
	}
	a := doc.Suites[0]
	if a.Name != "ex-a" || a.Tests != 3 || a.Failures != 1 || len(a.Cases) != 3 || len(a.Props) == 0 {
		t.Fatalf("testsuite: %+v", a)
	}
	if a.Cases[0].Failure != nil || a.Cases[0].Classname != "streamlab.ex-a" {
		t.Errorf("passing case: %+v", a.Cases[0])
	}
	f := a.Cases[1].Failure
	if a.Cases[1].Name != "no <dup> # 1" || f == nil || f.Type != "check" || !strings.Contains(f.Body, "sink.duplicates is 12") ||
		!strings.Contains(f.Body, "hint: use a \"filter\"") || !strings.Contains(f.Message, "sink.duplicates is 12") {
		t.Errorf("failing case: %+v", a.Cases[1])
	}
	b := doc.Suites[1]
	if f := b.Cases[0].Failure; f == nil || f.Type != "broken-answer" || !strings.Contains(f.Body, "unknown key") {
		t.Errorf("broken answer case: %+v", b.Cases[0])
	}
	if f := b.Cases[1].Failure; f == nil || strings.Contains(f.Body, "secret details") {
		t.Errorf("hidden case shows its details: %+v", b.Cases[1])
	}
}

func TestTAP(t *testing.T) {
	out := string(write(t, "tap", result()))
	for _, want := range []string{
		"TAP version 13\n1..5\n",
		"ok 1 - ex-a: no loss\n",
		"not ok 2 - ex-a: no <dup> \\# 1\n  ---\n  message: \"expected sink.duplicates == 0, but sink.duplicates is 12\\nhint: use a \\\"filter\\\"\"\n",
		"ok 3 - ex-a: hidden check 1\n",
		"not ok 5 - ex-b: hidden check 1\n",
		"  ...\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("TAP lacks %q:\n%s", want, out)
		}
	}
}

// TestTAPPassesProve runs the TAP output through prove, Perl's TAP
// harness, as CI does: it must parse, pass when every check passes, and
// report the failed tests otherwise.
func TestTAPPassesProve(t *testing.T) {
	prove, err := exec.LookPath("prove")
	if err != nil {
		t.Skip("prove (perl) is not installed; CI installs it")
	}
	dir := t.TempDir()
	run := func(name string, res *grade.Result) (string, error) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, write(t, "tap", res), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(prove, "--exec", "cat", p).CombinedOutput()
		return string(out), err
	}
	out, err := run("pass.tap", passing())
	if err != nil || !strings.Contains(out, "All tests successful") || !strings.Contains(out, "Result: PASS") {
		t.Errorf("prove on a passing result: %v\n%s", err, out)
	}
	out, err = run("fail.tap", result())
	if err == nil || !strings.Contains(out, "Failed 3/5 subtests") || strings.Contains(out, "Parse errors") {
		t.Errorf("prove on a failing result: %v\n%s", err, out)
	}
}

func TestGradescope(t *testing.T) {
	var doc struct {
		Score  *float64 `json:"score"`
		Output string   `json:"output"`
		Tests  []struct {
			Name       string   `json:"name"`
			Score      *float64 `json:"score"`
			MaxScore   *float64 `json:"max_score"`
			Status     string   `json:"status"`
			Output     string   `json:"output"`
			Visibility string   `json:"visibility"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(write(t, "gradescope", result()), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Score == nil || *doc.Score != 3 || len(doc.Tests) != 5 {
		t.Fatalf("results.json: %+v", doc)
	}
	for i, want := range []struct {
		name, status, vis string
		score, max        float64
	}{
		{"ex-a: no loss", "passed", "visible", 2, 2},
		{"ex-a: no <dup> # 1", "failed", "visible", 0, 2},
		{"ex-a: hidden check 1", "passed", "after_due_date", 1, 1},
		{"ex-b: lost", "failed", "visible", 0, 2},
		{"ex-b: hidden check 1", "failed", "after_due_date", 0, 1},
	} {
		got := doc.Tests[i]
		if got.Name != want.name || got.Status != want.status || got.Visibility != want.vis ||
			got.Score == nil || *got.Score != want.score || got.MaxScore == nil || *got.MaxScore != want.max {
			t.Errorf("tests[%d] = %+v, want %+v", i, got, want)
		}
	}
	// The output, shown at once, counts only the checks shown at once
	// (2 of 6 points): the hidden check passed is not in it.
	if want := "2/6 points in the checks shown now. Checks worth 2 more points are shown after the due date."; !strings.HasSuffix(doc.Output, want) {
		t.Errorf("output %q, want it to end %q", doc.Output, want)
	}
	if !strings.Contains(doc.Tests[1].Output, "sink.duplicates is 12") || strings.Contains(doc.Tests[4].Output, "secret") {
		t.Errorf("outputs: %q, %q", doc.Tests[1].Output, doc.Tests[4].Output)
	}
}

func TestClassroom(t *testing.T) {
	var doc struct {
		Version  *int     `json:"version"`
		Status   string   `json:"status"`
		MaxScore *float64 `json:"max_score"`
		Tests    []struct {
			Name     string   `json:"name"`
			Status   string   `json:"status"`
			Score    *float64 `json:"score"`
			Message  *string  `json:"message"`
			TestCode *string  `json:"test_code"`
			Filename *string  `json:"filename"`
			LineNo   *int     `json:"line_no"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(write(t, "classroom", result()), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version == nil || *doc.Version != 1 || doc.Status != "fail" || doc.MaxScore == nil || *doc.MaxScore != 8 || len(doc.Tests) != 5 {
		t.Fatalf("result: %+v", doc)
	}
	sum := 0.0
	for _, tc := range doc.Tests {
		if tc.Score == nil || tc.Message == nil || tc.TestCode == nil || tc.Filename == nil || tc.LineNo == nil {
			t.Errorf("test lacks a field: %+v", tc)
			continue
		}
		if tc.Status != "pass" && tc.Status != "fail" {
			t.Errorf("status %q", tc.Status)
		}
		sum += *tc.Score
	}
	// The reporter adds up the tests' scores: they must make the total.
	if sum != 3 {
		t.Errorf("scores add up to %g, want 3", sum)
	}
	if *doc.Tests[1].TestCode != "sink.duplicates == 0" || *doc.Tests[2].TestCode != "" {
		t.Errorf("test_code: %q, %q", *doc.Tests[1].TestCode, *doc.Tests[2].TestCode)
	}
	var pass struct{ Status string }
	json.Unmarshal(write(t, "classroom", passing()), &pass)
	if pass.Status != "pass" {
		t.Errorf("passing status %q", pass.Status)
	}
}
func ptr(n int64) *int64 { return &n }

// TestClassOutputSanitisesStudentNames: a student's folder name with an
// escape sequence or NUL, as the header or in a message that quotes the
// answer's path, does not reach the instructor's terminal or
// spreadsheet as control characters.
func TestClassOutputSanitisesStudentNames(t *testing.T) {
	evil := "eve\x1b]0;pwned\x07\x00"
	failed := grade.ExerciseResult{ID: "x", Kind: "prediction", MaxScore: 1, Answer: evil + "/x/answers.yaml",
		Checks: []grade.CheckResult{{Name: "n", Points: 1, Message: "n: " + evil + "/x/answers.yaml:1:4 answered 2: wrong\nsecond line"}}}
	class := []report.Student{{ID: evil, Result: &grade.Result{Exercises: []grade.ExerciseResult{failed}}}}
	var text, csv strings.Builder
	if err := report.ClassText(&text, class); err != nil {
		t.Fatal(err)
	}
	if err := report.Gradebook(&csv, class); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "csv": csv.String()} {
		if strings.ContainsAny(out, "\x1b\x07\x00") || !strings.Contains(out, "eve") || name == "text" && !strings.Contains(out, "    second line") {
			t.Errorf("%s: %q", name, out)
		}
	}
}
