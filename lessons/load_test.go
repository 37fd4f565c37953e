package lessons_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/lessons"
)

// goodMeta is a valid lesson.yaml; the bad cases below change one thing.
const goodMeta = `id: test
title: Test
summary: A lesson for tests.
steps:
  - title: Run
    instruction: Run it.
    goal:
      expect:
        - source.records >= 100
    hints:
      - Run.
    solution: |
      job passthrough
      run 100
check:
  kind: choice
  question: Which?
  options: [a, b]
  answer: 1
  explanation: Because.
`

func TestLoadReportsMistakesWhereTheyAre(t *testing.T) {
	cases := []struct{ name, old, new, want string }{
		{"unknown key", "title: Test", "titel: Test", "01-test/lesson.yaml:2:1: unknown key \"titel\" in lesson"},
		{"bad id", "id: test", "id: Test_1", "01-test/lesson.yaml:1:5: id \"Test_1\""},
		{"no steps", "steps:\n", "stepz:\n", "unknown key \"stepz\""},
		{"unknown field", "source.records >= 100", "source.recs >= 100", "01-test/lesson.yaml:9:11: step 1 goal: \"source.recs\" is not a report field"},
		{"bad expression", "source.records >= 100", "source.records = 100", "01-test/lesson.yaml:9:11: step 1 goal: \"=\" is not a comparison"},
		{"unknown event", "      expect:\n        - source.records >= 100", "      event: node-exploded", "01-test/lesson.yaml:8:14: step 1 goal: unknown event \"node-exploded\""},
		{"node without event", "      expect:\n", "      node: count[1]\n      expect:\n", "node names the node of an event"},
		{"empty goal", "      expect:\n        - source.records >= 100", "      expect: []", "expected a list of at least one text"},
		{"bad solution line", "      run 100\n", "      run fast\n", "01-test/lesson.yaml:14:11: step 1 solution: run needs a record count or a duration"},
		{"fresh step without job", "      job passthrough\n      run 100\n", "      run 100\n", "starts a new session, so its solution starts with a job line"},
		{"no hints", "    hints:\n      - Run.\n", "", "step 1: hints is required"},
		{"fresh not a bool", "    hints:", "    fresh: yes please\n    hints:", "step 1 fresh: expected true or false"},
		{"answer out of range", "answer: 1", "answer: 3", "01-test/lesson.yaml:19:11: check answer: expected the right option's number, 1 to 2"},
		{"one option", "options: [a, b]", "options: [a]", "a choice check needs options"},
		{"unknown kind", "kind: choice", "kind: essay", "check kind \"essay\": expected number or choice"},
		{"number without runs", "kind: choice\n  question: Which?\n  options: [a, b]\n  answer: 1", "kind: number\n  question: Which?", "01-test/lesson.yaml:16:9: a number check needs runs and an answer"},
		{"tolerance on a choice", "answer: 1", "answer: 1\n  tolerance: 3", "only a number check has a tolerance"},
		{"placeholder", "explanation: Because.", "explanation: Because {main.sink.lost}.", "placeholder {main.sink.lost} names no run"},
		{"alias", "title: Test", "title: &t Test", "01-test/lesson.yaml:2:8: anchor &t: anchors, aliases and tags are not supported; write the value out"},
		{"duplicate key", "title: Test", "title: Test\ntitle: Again", `01-test/lesson.yaml:3:1: duplicate key "title" in lesson (first at line 2, column 1)`},
		{"duplicate run", "kind: choice", "runs:\n    a: run 1\n    a: run 2\n  kind: choice", `01-test/lesson.yaml:18:5: duplicate key "a" in check runs (first at line 17, column 5)`},
		{"syntax", "title: Test", "title: [Test", "01-test/lesson.yaml:2: invalid YAML: did not find expected ',' or ']'"},
		{"mapping where text", "summary: A lesson for tests.", "summary: a: b", "01-test/lesson.yaml:3:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(goodMeta, tc.old) {
				t.Fatalf("goodMeta has no %q", tc.old)
			}
			meta := strings.Replace(goodMeta, tc.old, tc.new, 1)
			_, err := lessons.Load(lessonFS(meta))
			if err == nil || !errors.Is(err, lessons.ErrBadContent) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an ErrBadContent containing %q", err, tc.want)
			}
		})
	}
	if _, err := lessons.Load(lessonFS(goodMeta)); err != nil {
		t.Fatalf("goodMeta: %v", err)
	}
}

func TestLoadChecksTheDirectory(t *testing.T) {
	text := []byte("Text.\n\n## In the real world\n\nFlink.\n")
	cases := map[string]struct {
		fs   fstest.MapFS
		want string
	}{
		"empty":      {fstest.MapFS{}, "no lessons"},
		"no yaml":    {fstest.MapFS{"a/lesson.md": {Data: text}}, "a/lesson.yaml: missing"},
		"no md":      {fstest.MapFS{"a/lesson.yaml": {Data: []byte(goodMeta)}}, "a/lesson.md: missing"},
		"no section": {fstest.MapFS{"a/lesson.yaml": {Data: []byte(goodMeta)}, "a/lesson.md": {Data: []byte("Text.\n")}}, "no \"## In the real world\" section"},
		"empty section": {fstest.MapFS{"a/lesson.yaml": {Data: []byte(goodMeta)}, "a/lesson.md": {Data: []byte("Text.\n## In the real world\n\n## More\nx\n")}},
			"a/lesson.md:2:1: the real-world section is empty"},
		"only section": {fstest.MapFS{"a/lesson.yaml": {Data: []byte(goodMeta)}, "a/lesson.md": {Data: []byte("## In the real world\nFlink.\n")}}, "no text besides"},
		"duplicate id": {fstest.MapFS{
			"a/lesson.yaml": {Data: []byte(goodMeta)}, "a/lesson.md": {Data: text},
			"b/lesson.yaml": {Data: []byte(goodMeta)}, "b/lesson.md": {Data: text},
		}, "b/lesson.yaml: id \"test\" is already the id of a"},
		"subdirectory": {fstest.MapFS{"a/lesson.yaml": {Data: []byte(goodMeta)}, "a/lesson.md": {Data: text}, "a/sub/x": {Data: text}}, "a/sub: a lesson directory holds files only"},
	}
	for name, tc := range cases {
		if _, err := lessons.Load(tc.fs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

func TestLessonParts(t *testing.T) {
	fsys := lessonFS(goodMeta)
	fsys["01-test/lesson.md"] = &fstest.MapFile{Data: []byte("Intro.\r\n\r\n## In the real world\r\n\r\nFlink: `x`.\r\n\r\n## After\r\n\r\nMore.\r\n")}
	fsys["01-test/job.yaml"] = &fstest.MapFile{Data: []byte("name: j\n")}
	ls, err := lessons.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	l := ls[0]
	if l.Number != 1 || l.ID != "test" || l.Title != "Test" || l.Summary != "A lesson for tests." {
		t.Fatalf("%+v", l)
	}
	if l.Text != "Intro.\n\n## After\n\nMore.\n" || l.RealWorld != "Flink: `x`.\n" {
		t.Fatalf("text %q, real world %q", l.Text, l.RealWorld)
	}
	if got := l.Files(); len(got) != 1 || got[0] != "job.yaml" {
		t.Fatalf("files %v", got)
	}
	dir := filepath.Join(t.TempDir(), "work")
	if err := l.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "job.yaml")); err != nil || string(b) != "name: j\n" {
		t.Fatalf("%q %v", b, err)
	}
	if got := l.SolutionScripts(); len(got) != 1 || got[0] != "# step 1: Run\njob passthrough\nrun 100\n" {
		t.Fatalf("solution %q", got)
	}
}

func TestFind(t *testing.T) {
	ls, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		for _, id := range []string{l.ID, strconv.Itoa(l.Number)} {
			got, err := lessons.Find(id)
			if err != nil || got != l {
				t.Errorf("Find(%q) = %v, %v", id, got, err)
			}
		}
	}
	for _, id := range []string{"", "0", strconv.Itoa(len(ls) + 1), "streamz", "-1"} {
		if _, err := lessons.Find(id); !errors.Is(err, lessons.ErrUnknownLesson) || !strings.Contains(err.Error(), "1 streams") {
			t.Errorf("Find(%q) error = %v", id, err)
		}
	}
}

// FuzzLoad checks that no lesson.yaml or lesson.md makes the loader panic,
// and that every error is an ErrBadContent naming the file.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(goodMeta), []byte("Text.\n## In the real world\nFlink.\n"))
	f.Add([]byte(trackerMeta), []byte("## In the real world\n"))
	f.Add([]byte(numberCheckMeta), []byte("x\n## In the real world\ny\n## z\n"))
	f.Add([]byte(choiceCheckMeta), []byte("\r\n"))
	ls, _ := lessons.Catalog()
	for _, l := range ls {
		f.Add([]byte("id: "+l.ID), []byte(l.Text+"## In the real world\n"+l.RealWorld))
	}
	for _, s := range []string{"", "- a", "a: &x b\nc: *x", "check: {kind: number, answer: a.b - }", "\xff", "id: x\x00"} {
		f.Add([]byte(s), []byte(""))
	}
	f.Fuzz(func(t *testing.T, meta, text []byte) {
		fsys := fstest.MapFS{
			"01-x/lesson.yaml": {Data: meta},
			"01-x/lesson.md":   {Data: text},
		}
		ls, err := lessons.Load(fsys)
		if err != nil {
			var le *poserr.Error
			if !errors.Is(err, lessons.ErrBadContent) || !errors.As(err, &le) || !strings.HasPrefix(le.File, "01-x/") || le.Msg == "" || le.Line < 0 || le.Col < 0 {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		l := ls[0]
		if l.ID == "" || len(l.Steps) == 0 || l.Text == "" || l.RealWorld == "" {
			t.Fatalf("loaded an incomplete lesson %+v", l)
		}
		for _, st := range l.Steps {
			_ = st.Goal.String()
			_ = st.Goal.Met(lessons.Observation{})
		}
		_ = l.SolutionScripts()
	})
}
