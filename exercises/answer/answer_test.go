package answer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/pack"
)

const prediction = `id: p
title: t
kind: prediction
answer: answers.yaml
scenario: run 100
checks:
  - name: lost
    answer: lost
    field: sink.lost
  - name: correct
    answer: correct
    field: sink.correct
  - name: state
    answer: state
    field: job.state
  - name: mode
    answer: mode
    correct: append
`

// load loads a one-exercise pack.
func load(t *testing.T, id, yaml string, files ...string) *pack.Exercise {
	t.Helper()
	fsys := fstest.MapFS{id + "/exercise.yaml": {Data: []byte(yaml)}, id + "/README.md": {Data: []byte("task")}}
	for _, f := range files {
		fsys[id+"/"+f] = &fstest.MapFile{Data: []byte("")}
	}
	p, err := pack.Load(fsys, "pack")
	if err != nil {
		t.Fatal(err)
	}
	return p.Exercises[0]
}

func TestPredictions(t *testing.T) {
	ex := load(t, "p", prediction, "answers.yaml")
	a, err := answer.Parse(ex, "answers.yaml", []byte("# mine\nlost: 12\ncorrect: false\nstate: failed\nmode:\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v := a.Values["lost"]; v.Type != pack.TypeNumber || v.Num != 12 || v.Line != 2 || v.Col != 7 {
		t.Errorf("lost = %+v", v)
	}
	if v := a.Values["correct"]; v.Type != pack.TypeBool || v.Text != "false" {
		t.Errorf("correct = %+v", v)
	}
	if v := a.Values["state"]; v.Type != pack.TypeString || v.Text != "failed" {
		t.Errorf("state = %+v", v)
	}
	if _, ok := a.Values["mode"]; ok {
		t.Error("an empty key is no answer")
	}
	if a, err := answer.Parse(ex, "answers.yaml", nil); err != nil || len(a.Values) != 0 {
		t.Errorf("empty file: %v, %v", a, err)
	}
	if a, err := answer.Parse(ex, "answers.yaml", []byte("lost: 1.5e2\n")); err != nil || a.Values["lost"].Num != 150 {
		t.Errorf("1.5e2: %v, %v", a, err)
	}
}

func TestBrokenPredictions(t *testing.T) {
	ex := load(t, "p", prediction, "answers.yaml")
	tests := []struct{ data, want string }{
		{"lost: [1\n", "answers.yaml:1:"},
		{"lost: 1\nlots: 2\n", `answers.yaml:2:1: unknown key "lots" in the answers; known keys: lost, correct, state, mode`},
		{"lost: 1\nlost: 2\n", `answers.yaml:2:1: duplicate key "lost"`},
		{"- 1\n", "expected a mapping"},
		{"a: 1\n---\nb: 2\n", "a second YAML document"},
	}
	for _, tt := range tests {
		_, err := answer.Parse(ex, "answers.yaml", []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.data, err, tt.want)
		}
	}
}

const configuration = `id: c
title: t
kind: configuration
answer: settings.lab
allow: [restart, semantics]
scenario: run 100
checks:
  - name: ok
    expect: job.state == running
`

func TestConfiguration(t *testing.T) {
	ex := load(t, "c", configuration, "settings.lab")
	a, err := answer.Parse(ex, "settings.lab", []byte("# comment\nset restart none\nset semantics exactly-once\n"))
	if err != nil || len(a.Commands) != 2 || a.Commands[0].Line != 2 {
		t.Fatalf("Parse: %+v, %v", a, err)
	}
	tests := []struct{ data, want string }{
		{"run 100\n", "settings.lab:1:1: only set lines belong in this answer"},
		{"set mode append\n", "settings.lab:1:5: this exercise lets you set restart, semantics, not mode"},
		{"set restart\n", "settings.lab:1:"},
		{"sett restart none\n", `settings.lab:1:1: unknown verb "sett"`},
	}
	for _, tt := range tests {
		_, err := answer.Parse(ex, "settings.lab", []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.data, err, tt.want)
		}
	}
	any := load(t, "c", strings.Replace(configuration, "allow: [restart, semantics]\n", "", 1), "settings.lab")
	if _, err := answer.Parse(any, "settings.lab", []byte("set seed 4\n")); err == nil || !strings.Contains(err.Error(), "grader sets the seed") {
		t.Errorf("set seed: %v", err)
	}
}

func TestJobFileAnswer(t *testing.T) {
	ex := load(t, "j", strings.NewReplacer("id: c", "id: j", "settings.lab", "job.yaml", "allow: [restart, semantics]\n", "").Replace(configuration), "job.yaml")
	a, err := answer.Parse(ex, "job.yaml", []byte("name: mine\noperators:\n  - name: p\n    kind: parse\n"))
	if err != nil || a.Job == nil || a.Job.Name != "mine" {
		t.Fatalf("Parse: %+v, %v", a, err)
	}
	_, err = answer.Parse(ex, "job.yaml", []byte("name: mine\noperators:\n  - name: p\n    kind: pasre\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "job.yaml:4:11:") {
		t.Errorf("bad kind: %v", err)
	}
}

const scriptEx = `id: s
title: t
kind: KIND
job: passthrough
answer: a.lab
checks:
  - name: ok
    expect: job.state == running
`

func TestScript(t *testing.T) {
	ex := load(t, "s", strings.Replace(scriptEx, "KIND", "script", 1), "a.lab")
	a, err := answer.Parse(ex, "a.lab", []byte("job passthrough\nset semantics at-least-once\nrun 100\n"))
	if err != nil || len(a.Commands) != 2 {
		t.Fatalf("Parse: %+v, %v", a, err)
	}
	for data, want := range map[string]string{
		"job clicks\n":                 "a.lab:1:5: this exercise runs job passthrough",
		"set executor concurrent\n":    "a.lab:1:5: grading always runs the deterministic executor",
		"run 10\nset seed 4\n":         "a.lab:2:5: the grader sets the seed",
		"run 100\nkill\n":              "a.lab:2:",
		"run 100 \"unterminated\n":     "a.lab:1:",
		strings.Repeat("x", 5000):      "a.lab:1:",
		"run 100\r\nexpect lost ~ 0\n": "a.lab:2:13",
	} {
		if _, err := answer.Parse(ex, "a.lab", []byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.40q: got %v, want %q", data, err, want)
		}
	}
	// Pause and resume pace the terminal lab: a recording drops them, a
	// script keeps them (and the engine rejects them).
	rec := load(t, "s", strings.Replace(scriptEx, "KIND", "recording", 1), "a.lab")
	a, err = answer.Parse(rec, "a.lab", []byte("job passthrough\nset seed 7\nrun 100\npause\nresume\nrun 100\n"))
	if err != nil || len(a.Commands) != 2 {
		t.Errorf("recording: %+v, %v", a, err)
	}
	a, err = answer.Parse(ex, "a.lab", []byte("run 100\npause\n"))
	if err != nil || len(a.Commands) != 2 {
		t.Errorf("script: %+v, %v", a, err)
	}
}

func TestLocateAndLoad(t *testing.T) {
	ex := load(t, "c", configuration, "settings.lab")
	dir := t.TempDir()
	if got := answer.Locate(ex, dir); got != filepath.Join(dir, "settings.lab") {
		t.Errorf("Locate without a directory per exercise = %q", got)
	}
	_, err := answer.Load(ex, dir)
	if err == nil || !strings.Contains(err.Error(), "missing: the answer to c goes in") {
		t.Errorf("missing: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "c"), 0o755)
	p := filepath.Join(dir, "c", "settings.lab")
	os.WriteFile(p, []byte("set restart none\n"), 0o644)
	if got := answer.Locate(ex, dir); got != p {
		t.Errorf("Locate = %q, want %q", got, p)
	}
	a, err := answer.Load(ex, dir)
	if err != nil || a.Path != p || a.File != p {
		t.Errorf("Load: %+v, %v", a, err)
	}
	os.WriteFile(p, make([]byte, answer.MaxSize+1), 0o644)
	if _, err := answer.Load(ex, dir); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge answer: %v", err)
	}
	os.WriteFile(p, []byte("set restart none\nrun 5\n"), 0o644)
	if _, err := answer.Load(ex, dir); err == nil || !strings.HasPrefix(err.Error(), p+":2:1:") {
		t.Errorf("Load names the file and line: %v", err)
	}
}

// TestScriptCannotChangeWhatTheScenarioFixes: a set line for a key the
// scenario sets is an error at the answer's line.
func TestScriptCannotChangeWhatTheScenarioFixes(t *testing.T) {
	ex := load(t, "s", strings.NewReplacer("KIND", "script", "answer: a.lab\n", "answer: a.lab\nscenario: |\n  set semantics at-least-once\n  set mode append\n").Replace(scriptEx), "a.lab")
	_, err := answer.Parse(ex, "a.lab", []byte("run 100\nset mode update\n"))
	if err == nil || !strings.Contains(err.Error(), "a.lab:2:5: the exercise's scenario fixes mode (pack/s/exercise.yaml:") {
		t.Errorf("set mode: %v", err)
	}
	if _, err := answer.Parse(ex, "a.lab", []byte("set sink table\nrun 100\n")); err != nil {
		t.Errorf("a key the scenario leaves alone: %v", err)
	}
}

// TestJobFileAllow: a job file answer may change only the parts allow
// names; anything else is an error at its line.
func TestJobFileAllow(t *testing.T) {
	starter := "name: mine\nsource:\n  watermark: 5s\noperators:\n  - name: p\n    kind: parse\n  - name: count\n    kind: window-count\n    window: 10s\n"
	fsys := fstest.MapFS{
		"j/exercise.yaml": {Data: []byte("id: j\ntitle: t\nkind: configuration\nanswer: job.yaml\nallow: [source.watermark]\nscenario: run 100\nchecks:\n  - name: ok\n    expect: job.state == running\n")},
		"j/README.md":     {Data: []byte("task")},
		"j/job.yaml":      {Data: []byte(starter)},
	}
	p, err := pack.Load(fsys, "pack")
	if err != nil {
		t.Fatal(err)
	}
	ex := p.Exercises[0]
	if _, err := answer.Parse(ex, "job.yaml", []byte(strings.Replace(starter, "5s", "30s", 1))); err != nil {
		t.Errorf("the watermark changed: %v", err)
	}
	for data, want := range map[string]string{
		strings.Replace(starter, "window: 10s", "window: 1m", 1):                                                              "job.yaml:9:5: the answer changes operators.count.window; this exercise lets you change only source.watermark",
		strings.Replace(starter, "  - name: count", "  - name: none\n    kind: filter\n    drop: [view]\n  - name: count", 1): "the answer changes operators.",
		strings.Replace(starter, "name: mine", "name: other", 1):                                                              "job.yaml:1:1: the answer changes name",
	} {
		if _, err := answer.Parse(ex, "job.yaml", []byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", data, err, want)
		}
	}
}

// TestForgivingPredictions: a number may be quoted, a fraction a
// percentage, a boolean any of YAML's forms in any case; a value that still
// cannot be read fails only its own key, with its file, line and key.
func TestForgivingPredictions(t *testing.T) {
	ex := load(t, "p", prediction+`  - name: fill
    answer: fill
    field: filter.fill_ratio
`, "answers.yaml")
	a, err := answer.Parse(ex, "answers.yaml", []byte("lost: \"340\"\ncorrect: False\nfill: 69%\nstate: RUNNING\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v := a.Values["lost"]; v.Err != "" || v.Type != pack.TypeNumber || v.Num != 340 {
		t.Errorf("quoted number: %+v", v)
	}
	if v := a.Values["correct"]; v.Err != "" || v.Type != pack.TypeBool || v.Text != "false" {
		t.Errorf("False: %+v", v)
	}
	if v := a.Values["fill"]; v.Err != "" || v.Type != pack.TypeNumber || v.Num != 0.69 {
		t.Errorf("69%%: %+v", v)
	}
	for _, form := range []string{"yes", "YES", "On", "y", "no", "OFF", "'false'", "TRUE"} {
		a, err := answer.Parse(ex, "answers.yaml", []byte("correct: "+form+"\n"))
		if v := a.Values["correct"]; err != nil || v.Err != "" || v.Type != pack.TypeBool {
			t.Errorf("correct: %s: %+v, %v", form, v, err)
		}
	}
	for data, want := range map[string]string{
		"lost: many\nstate: failed\n":     `answers.yaml:1:7: lost: expected a number, got string "many"`,
		"lost: 34%\nstate: failed\n":      `answers.yaml:1:7: lost: expected a number, got the percentage "34%"; this answer is a count`,
		"lost: {a: 1}\nstate: failed\n":   "answers.yaml:1:7: lost: expected a number, a word or true/false",
		"correct: maybe\nstate: failed\n": `answers.yaml:1:10: correct: expected true or false, got string "maybe"`,
	} {
		a, err := answer.Parse(ex, "answers.yaml", []byte(data))
		if err != nil {
			t.Errorf("%q: a bad value fails the whole answer: %v", data, err)
			continue
		}
		key := strings.SplitN(data, ":", 2)[0]
		if v := a.Values[key]; !strings.HasPrefix(v.Err, want) {
			t.Errorf("%q: Err = %q, want %q", data, v.Err, want)
		}
		if v := a.Values["state"]; v.Err != "" || v.Text != "failed" {
			t.Errorf("%q: the other key suffers: %+v", data, v)
		}
	}
}

// TestEventsFileStaysInsideTheAnswer: the events a job-file answer replays
// are read only from inside the answer's directory. A folder on the way
// that links elsewhere is refused before the engine opens anything, so an
// answer cannot make the grader read (and quote) a file of the machine.
func TestEventsFileStaysInsideTheAnswer(t *testing.T) {
	ex := load(t, "j", strings.NewReplacer("id: c", "id: j", "settings.lab", "job.yaml", "allow: [restart, semantics]\n", "").Replace(configuration), "job.yaml")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "events.jsonl"), []byte(`{"id":1,"time":"2026-01-01T12:00:00Z","action":"open"}`+"\n"), 0o644)
	job := func(file string) string {
		return "name: mine\nsource:\n  file: " + file + "\noperators:\n  - name: p\n    kind: parse\n"
	}
	for _, tt := range []struct {
		name, file string
		link       bool // the answer's folder "data" links to outside
		ok         bool
	}{
		{"beside the answer", "data/events.jsonl", false, true},
		{"through a linked folder", "data/events.jsonl", true, false},
		{"missing", "data/none.jsonl", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.link {
				if err := os.Symlink(outside, filepath.Join(dir, "data")); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Mkdir(filepath.Join(dir, "data"), 0o755)
				os.WriteFile(filepath.Join(dir, "data", "events.jsonl"), []byte(`{"id":1,"time":"2026-01-01T12:00:00Z","action":"open"}`+"\n"), 0o644)
			}
			os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(job(tt.file)), 0o644)
			a, err := answer.Load(ex, dir)
			if tt.ok {
				if err != nil || a.Job == nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "must be a regular file inside the answer's directory") {
				t.Fatalf("Load = %v, want a refusal", err)
			}
			if strings.Contains(err.Error(), outside) {
				t.Errorf("the refusal names the place the link leads: %v", err)
			}
		})
	}
}

// TestLinkedExerciseFolderTellsNothing: an exercise's folder that links out
// of the answers is refused the same way whether its target exists or not,
// so the grader's message is no way to ask which directories the machine
// has.
func TestLinkedExerciseFolderTellsNothing(t *testing.T) {
	ex := load(t, "c", configuration, "settings.lab")
	message := func(target string) string {
		dir := t.TempDir()
		if err := os.Symlink(target, filepath.Join(dir, "c")); err != nil {
			t.Fatal(err)
		}
		_, err := answer.Load(ex, dir)
		if err == nil {
			t.Fatalf("a link to %s was followed", target)
		}
		return strings.ReplaceAll(err.Error(), dir, "DIR")
	}
	exists, missing := message(t.TempDir()), message(filepath.Join(t.TempDir(), "nosuch"))
	if exists != missing || !strings.Contains(exists, "outside the directory") {
		t.Errorf("a link to a directory that exists: %s\na link to none: %s", exists, missing)
	}
}
