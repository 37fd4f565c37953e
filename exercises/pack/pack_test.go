package pack_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/streamlab/streamlab/exercises/pack"
)

// exercise is a valid configuration exercise, as a starting point.
const exercise = `id: ex1
title: An exercise
kind: configuration
seed: 7
time_limit: 3s
answer: settings.lab
allow: [restart]
scenario: |
  set semantics exactly-once
  kill count[1] at 300
  run 1000
checks:
  - name: running
    expect: job.state == running
    points: 2
  - name: correct
    expect: correct == true
    visibility: hidden
    hint: look at the report
`

// one returns a pack of one exercise directory ex1 with the given
// exercise.yaml.
func one(yaml string) fstest.MapFS {
	return fstest.MapFS{
		"ex1/exercise.yaml": {Data: []byte(yaml)},
		"ex1/README.md":     {Data: []byte("# Task\n")},
		"ex1/settings.lab":  {Data: []byte("set restart none\n")},
		"ex1/answers.yaml":  {Data: []byte("x:\n")},
		"ex1/job.yaml":      {Data: []byte("name: j\noperators:\n  - name: p\n    kind: parse\n")},
		"ex1/run.lab":       {Data: []byte("run 100\n")},
		"ex1/script.lab":    {Data: []byte("run 100\n")},
	}
}

func TestLoadExercise(t *testing.T) {
	p, err := pack.Load(one(exercise), "pack")
	if err != nil {
		t.Fatal(err)
	}
	e, err := p.Lookup("ex1")
	if err != nil {
		t.Fatal(err)
	}
	if e.Title != "An exercise" || e.Kind != pack.KindConfiguration || e.Job != "clicks" || e.Seed != 7 ||
		e.TimeLimit != 3*time.Second || e.Answer != "settings.lab" || len(e.Allow) != 1 || e.Task != "# Task\n" {
		t.Errorf("exercise = %+v", e)
	}
	if e.File != "pack/ex1/exercise.yaml" || e.MaxPoints() != 3 {
		t.Errorf("File %q, MaxPoints %g", e.File, e.MaxPoints())
	}
	// The scenario keeps exercise.yaml's positions: line 9, indented by 2.
	if len(e.Scenario) != 3 || e.Scenario[1].Line != 10 || e.Scenario[1].Col != 3 || e.Scenario[1].Args[0].Col != 8 {
		t.Errorf("scenario positions: %+v", e.Scenario)
	}
	c := e.Checks[1]
	if c.Name != "correct" || c.Visibility != pack.Hidden || c.Points != 1 || c.Expr.Field != "correct" || c.Hint == "" {
		t.Errorf("check = %+v", c)
	}
	if _, err := p.Lookup("nosuch"); !errors.Is(err, pack.ErrNoExercise) || !strings.Contains(err.Error(), "ex1") {
		t.Errorf("Lookup(nosuch) = %v", err)
	}
}

func TestLoadDefaultsAndScenarioFile(t *testing.T) {
	fsys := one(`id: ex1
title: t
kind: prediction
answer: answers.yaml
scenario: run.lab
checks:
  - name: a
    answer: x
    field: sink.lost
    tolerance: 5%
  - name: b
    answer: y
    correct: append
    choices: [append, update]
`)
	p, err := pack.Load(fsys, "pack")
	if err != nil {
		t.Fatal(err)
	}
	e := p.Exercises[0]
	if e.Seed != pack.DefaultSeed || e.TimeLimit != pack.DefaultTimeLimit || e.Job != pack.DefaultJob {
		t.Errorf("defaults: %+v", e)
	}
	if e.ScenarioFile != "pack/ex1/run.lab" || len(e.Scenario) != 1 || e.Scenario[0].Line != 1 {
		t.Errorf("scenario file: %q %+v", e.ScenarioFile, e.Scenario)
	}
	if c := e.Checks[0]; c.Tolerance != 0.05 || !c.Relative {
		t.Errorf("tolerance: %+v", c)
	}
	if keys := e.AnswerKeys(); strings.Join(keys, ",") != "x,y" {
		t.Errorf("AnswerKeys = %v", keys)
	}
}

func TestLoadSingleExerciseDirectory(t *testing.T) {
	fsys := fstest.MapFS{}
	for k, v := range one(exercise) {
		fsys[strings.TrimPrefix(k, "ex1/")] = v
	}
	p, err := pack.Load(fsys, "somewhere/ex1")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Exercises) != 1 || p.Exercises[0].File != "somewhere/ex1/exercise.yaml" {
		t.Fatalf("exercises: %+v", p.Exercises)
	}
}

// TestProblems feeds broken exercise files to the loader: each problem is
// reported at its file, line and column.
func TestProblems(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       string // "line:col: substring"
	}{
		{"invalid YAML", "id: [\n", "invalid YAML"},
		{"empty", "", "1:1: empty file"},
		{"not a mapping", "- a\n", "expected a mapping"},
		{"unknown key", strings.Replace(exercise, "seed: 7", "sed: 7", 1), `4:1: unknown key "sed" in exercise`},
		{"duplicate key", exercise + "seed: 8\n", `duplicate key "seed"`},
		{"missing title", strings.Replace(exercise, "title: An exercise\n", "", 1), `missing key "title"`},
		{"bad id", strings.Replace(exercise, "id: ex1", "id: Ex_1", 1), "1:5: id:"},
		{"id not directory", strings.Replace(exercise, "id: ex1", "id: ex2", 1), "must equal the exercise's directory name"},
		{"unknown kind", strings.Replace(exercise, "kind: configuration", "kind: essay", 1), `3:7: kind: unknown kind "essay"`},
		{"unknown job", exercise + "job: nosuch\n", `unknown job "nosuch"`},
		{"job file missing", exercise + "job: other.yaml\n", "pack/ex1/other.yaml: missing"},
		{"seed not integer", strings.Replace(exercise, "seed: 7", "seed: seven", 1), `4:7: seed: expected an integer, got string "seven"`},
		{"bad time limit", strings.Replace(exercise, "time_limit: 3s", "time_limit: 3 seconds", 1), "5:13: time_limit: expected a duration"},
		{"zero time limit", strings.Replace(exercise, "time_limit: 3s", "time_limit: 0s", 1), "5:13: time_limit: must be above 0"},
		{"answer with directory", strings.Replace(exercise, "answer: settings.lab", "answer: ../settings.lab", 1), "6:9: answer:"},
		{"answer wrong extension", strings.Replace(exercise, "answer: settings.lab", "answer: settings.txt", 1), "takes a .lab file"},
		{"starter missing", strings.Replace(strings.Replace(exercise, "answer: settings.lab", "answer: other.lab", 1), "allow: [restart]\n", "", 1), "pack/ex1/other.lab: missing"},
		{"allow unknown setting", strings.Replace(exercise, "allow: [restart]", "allow: [restart, colour]", 1), `7:18: allow: unknown setting "colour"`},
		{"allow seed", strings.Replace(exercise, "allow: [restart]", "allow: [seed]", 1), "grader sets the seed"},
		{"scenario syntax", strings.Replace(exercise, "  run 1000", "  ruin 1000", 1), `11:3: unknown verb "ruin"`},
		{"scenario names job", strings.Replace(exercise, "  run 1000", "  job passthrough\n  run 1000", 1), "11:3: the scenario cannot name the job"},
		{"scenario sets seed", strings.Replace(exercise, "  run 1000", "  set seed 3\n  run 1000", 1), "11:7: the scenario cannot set the seed"},
		{"scenario overrides answer", strings.Replace(exercise, "  run 1000", "  set restart none\n  run 1000", 1), "11:7: the scenario sets restart"},
		{"scenario never runs", strings.Replace(exercise, "  run 1000\n", "", 1), "the scenario never runs the job"},
		{"folded scenario", strings.Replace(exercise, "scenario: |", "scenario: >", 1), "folded block"},
		{"scenario file missing", strings.Replace(exercise, "scenario: |\n  set semantics exactly-once\n  kill count[1] at 300\n  run 1000\n", "scenario: nosuch.lab\n", 1), "cannot read nosuch.lab"},
		{"no checks", strings.Replace(exercise, exercise[strings.Index(exercise, "checks:"):], "checks: []\n", 1), "at least one check"},
		{"check without name", strings.Replace(exercise, "  - name: running\n    expect", "  - expect", 1), `missing key "name"`},
		{"duplicate check name", strings.Replace(exercise, "name: correct", "name: running", 1), "already used"},
		{"check bad points", strings.Replace(exercise, "points: 2", "points: -1", 1), "15:13: points: must be above 0"},
		{"check bad visibility", strings.Replace(exercise, "visibility: hidden", "visibility: secret", 1), `18:17: visibility: expected visible or hidden, got "secret"`},
		{"expect syntax", strings.Replace(exercise, "job.state == running", "job.state =! running", 1), "14:23: expect: unknown comparison"},
		{"expect unknown field", strings.Replace(exercise, "job.state == running", "job.mood == running", 1), `14:13: expect: unknown report field "job.mood"`},
		{"expect type", strings.Replace(exercise, "correct == true", "correct == 3", 1), "is true or false"},
		{"expect order on text", strings.Replace(exercise, "job.state == running", "job.state < running", 1), "only == and != compare it"},
		{"answer in configuration", strings.Replace(exercise, "expect: job.state == running", "answer: state\n    field: job.state", 1), "only a prediction exercise has answer checks"},
		{"expect and answer", strings.Replace(exercise, "expect: job.state == running", "expect: job.state == running\n    answer: x", 1), "has both expect and answer"},
		{"neither", strings.Replace(exercise, "    expect: job.state == running\n", "", 1), "needs expect"},
		{"field on expect", strings.Replace(exercise, "points: 2", "points: 2\n    field: sink.lost", 1), "only an answer check takes field"},
		{"valid", exercise, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pack.Load(one(tt.yaml), "pack")
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected problems: %v", err)
				}
				return
			}
			var probs pack.Problems
			if !errors.As(err, &probs) {
				t.Fatalf("Load: %v, want Problems", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("problems:\n%v\nwant one containing %q", err, tt.want)
			}
			for _, p := range probs {
				if p.File == "" {
					t.Errorf("problem without a file: %v", p)
				}
			}
		})
	}
}

func TestPredictionProblems(t *testing.T) {
	base := `id: ex1
title: t
kind: prediction
answer: answers.yaml
scenario: run 100
checks:
`
	tests := []struct{ checks, want string }{
		{"  - name: a\n    expect: lost == 0\n", "needs at least one check with answer"},
		{"  - name: a\n    answer: x\n", "needs either field"},
		{"  - name: a\n    answer: x\n    field: sink.lost\n    correct: 3\n", "needs either field"},
		{"  - name: a\n    answer: X-1\n    correct: a\n", "must be a key"},
		{"  - name: a\n    answer: x\n    field: job.state\n    tolerance: 3\n", "only numbers take a tolerance"},
		{"  - name: a\n    answer: x\n    field: sink.lost\n    tolerance: -3\n", "tolerance: expected a number"},
		{"  - name: a\n    answer: x\n    field: sink.lost\n    tolerance: 500%\n", "tolerance: expected a number"},
		{"  - name: a\n    answer: x\n    field: sink.lost\n    choices: [1, 2]\n", "choices are for texts"},
		{"  - name: a\n    answer: x\n    field: sink.correct\n    choices: [yes, no]\n", "the choices are too"},
		{"  - name: a\n    answer: x\n    correct: c\n    choices: [a, b]\n", `"c" is not one of the choices`},
		{"  - name: a\n    answer: x\n    correct: a\n    choices: [a, a]\n", "listed twice"},
		{"  - name: a\n    answer: x\n    field: sink.nothing\n", `unknown report field "sink.nothing"`},
	}
	for _, tt := range tests {
		_, err := pack.Load(one(base+tt.checks), "pack")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("checks\n%s: got %v, want %q", tt.checks, err, tt.want)
		}
	}
}

func TestLoadPackProblems(t *testing.T) {
	fsys := one(exercise)
	fsys["typo/README.md"] = &fstest.MapFile{Data: []byte("x")}
	fsys["_notes/x.txt"] = &fstest.MapFile{Data: []byte("x")}
	p, err := pack.Load(fsys, "pack")
	if err == nil || !strings.Contains(err.Error(), "pack/typo: the directory has a README.md but no exercise.yaml") {
		t.Fatalf("Load: %v", err)
	}
	if len(p.Exercises) != 1 {
		t.Errorf("the good exercise is still loaded: %d", len(p.Exercises))
	}
	if _, err := pack.Load(fstest.MapFS{"x.txt": {Data: []byte("x")}}, "empty"); err == nil || !strings.Contains(err.Error(), "no exercises") {
		t.Errorf("empty pack: %v", err)
	}
}

func TestLoadDir(t *testing.T) {
	if _, err := pack.LoadDir(t.TempDir() + "/missing"); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("missing dir: %v", err)
	}
}

func TestFieldType(t *testing.T) {
	for name, want := range map[string]string{
		"sink.lost": pack.TypeNumber, "lost": pack.TypeNumber, "sink.correct": pack.TypeBool,
		"job.state": pack.TypeString, "job.error": pack.TypeString, "config.note": pack.TypeString,
		"filter.fill_ratio": pack.TypeNumber,
	} {
		if got, err := pack.FieldType(name); got != want || err != nil {
			t.Errorf("FieldType(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := pack.FieldType("expectations"); err == nil {
		t.Error("FieldType(expectations) should fail")
	}
}

// TestAttemptsAndFeedback: a prediction's attempts and feedback, their
// defaults, and the errors of bad values or of another kind's use.
func TestAttemptsAndFeedback(t *testing.T) {
	pred := "id: ex1\ntitle: t\nkind: prediction\nanswer: answers.yaml\nscenario: run 100\n%schecks:\n  - name: a\n    answer: x\n    field: sink.lost\n"
	p, err := pack.Load(one(fmt.Sprintf(pred, "")), "pack")
	if err != nil {
		t.Fatal(err)
	}
	if e := p.Exercises[0]; e.Attempts != 1 || e.Feedback != pack.FeedbackRightWrong {
		t.Errorf("defaults: attempts %d, feedback %q", e.Attempts, e.Feedback)
	}
	p, err = pack.Load(one(fmt.Sprintf(pred, "attempts: 3\nfeedback: direction\n")), "pack")
	if err != nil {
		t.Fatal(err)
	}
	if e := p.Exercises[0]; e.Attempts != 3 || e.Feedback != pack.FeedbackDirection {
		t.Errorf("set: attempts %d, feedback %q", e.Attempts, e.Feedback)
	}
	for yaml, want := range map[string]string{
		fmt.Sprintf(pred, "attempts: 0\n"): "ex1/exercise.yaml:6:11: attempts: must be from 1 to 100, got 0",
		strings.Replace(fmt.Sprintf(pred, ""), "field: sink.lost\n", "correct: a\n    seed_free: true\n", 1): "seed_free: only an answer judged against the engine",
		fmt.Sprintf(pred, "feedback: higher\n"):                             `ex1/exercise.yaml:6:11: feedback: unknown feedback "higher"; expected right-wrong or direction`,
		strings.Replace(exercise, "seed: 7\n", "seed: 7\nattempts: 2\n", 1): "ex1/exercise.yaml:5:11: attempts: only a prediction exercise takes attempts, not a configuration exercise",
	} {
		if _, err := pack.Load(one(yaml), "pack"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

// TestBudgetWindowUpdatesFollowRecords: an exercise that raises records
// past the default window updates, without naming window_updates, gets as
// many updates as records (one each in a tumbling window); one that names
// it keeps its own.
func TestBudgetWindowUpdatesFollowRecords(t *testing.T) {
	for _, tc := range []struct {
		budget  string
		updates int64
	}{
		{"  records: 3000000\n", 3_000_000},
		{"  records: 1000\n", pack.DefaultBudgetWindowUpdates},
		{"  records: 3000000\n  window_updates: 10\n", 10},
	} {
		p, err := pack.Load(one("id: ex1\ntitle: t\nkind: configuration\nanswer: settings.lab\nscenario: run.lab\nbudget:\n"+tc.budget+"checks:\n  - name: c\n    expect: correct == true\n"), "pack")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Exercises[0].Budget.WindowUpdates; got != tc.updates {
			t.Errorf("budget %q: %d window updates, want %d", tc.budget, got, tc.updates)
		}
	}
}
