package cli

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
)

// referenceAnswers returns a directory with a right answer to every
// built-in exercise: the reference solutions, and the prediction
// exercises' keys under their own seeds.
func referenceAnswers(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("exercises/testdata/reference")); err != nil {
		t.Fatal(err)
	}
	for _, e := range exercises.List() {
		if e.Kind != pack.KindPrediction {
			continue
		}
		key, err := grade.Key(context.Background(), e, grade.Options{})
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, e.ID), 0o755)
		if err := os.WriteFile(filepath.Join(dir, e.ID, e.Answer), key, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestGradeAllPass(t *testing.T) {
	isolate(t)
	dir := referenceAnswers(t)
	r := streamlab(t, "", "grade", "--answers", dir)
	n := len(exercises.List())
	if r.code != 0 || !strings.Contains(r.stdout, "10 of 10 exercises passed") && n == 10 || r.stderr != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "report.xml")
	r = streamlab(t, "", "grade", "--answers", dir, "--format", "junit", "--out", out, "upstream-backup", "late-data")
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("--out: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Suites) != 2 || doc.Suites[0].Name != "upstream-backup" {
		t.Errorf("junit report: %v %+v", err, doc)
	}
}

func TestGradeSomeFail(t *testing.T) {
	isolate(t)
	r := streamlab(t, "", "grade", "--answers", "exercises/testdata/wrong", "--format", "json")
	if r.code != 1 || !strings.Contains(r.stderr, "exercises did not pass") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	var res grade.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Passed || len(res.Exercises) != len(exercises.List()) {
		t.Errorf("json: %v %+v", err, res)
	}
}

// TestGradeBrokenAnswer: a malformed answer scores zero on its exercise,
// names its file and line, and the others are still graded.
func TestGradeBrokenAnswer(t *testing.T) {
	isolate(t)
	dir := referenceAnswers(t)
	bad := filepath.Join(dir, "gap-recovery", "answers.yaml")
	os.WriteFile(bad, []byte("lost: 3\nlots: 4\n"), 0o644)
	r := streamlab(t, "", "grade", "--answers", dir, "gap-recovery", "upstream-backup")
	if r.code != 1 || !strings.Contains(r.stdout, bad+`:2:1: unknown key "lots"`) ||
		!strings.Contains(r.stdout, "gap-recovery     prediction  0/8      FAIL") || !strings.Contains(r.stdout, "upstream-backup  script      14/14    pass") {
		t.Errorf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestGradeSeed(t *testing.T) {
	isolate(t)
	dir := referenceAnswers(t)
	if r := streamlab(t, "", "grade", "--answers", dir, "gap-recovery"); r.code != 0 {
		t.Fatalf("own seed: exit %d\n%s", r.code, r.stdout)
	}
	r := streamlab(t, "", "grade", "--answers", dir, "--seed", "99", "gap-recovery", "--format", "json")
	var res grade.Result
	json.Unmarshal([]byte(r.stdout), &res)
	if r.code != 1 || res.Seed == nil || *res.Seed != 99 || *res.Exercises[0].Seed != 99 {
		t.Errorf("--seed 99: exit %d, %+v", r.code, res)
	}
	t.Setenv("STREAMLAB_SEED", "99")
	if r := streamlab(t, "", "grade", "--answers", dir, "gap-recovery"); r.code != 1 {
		t.Errorf("STREAMLAB_SEED=99: exit %d", r.code)
	}
}

func TestGradeMisuse(t *testing.T) {
	isolate(t)
	broken := t.TempDir()
	os.MkdirAll(filepath.Join(broken, "ex"), 0o755)
	os.WriteFile(filepath.Join(broken, "ex", "exercise.yaml"), []byte("id: ex\nkind: essay\n"), 0o644)
	runtime := writePack(t, "pred", `id: pred
title: t
kind: prediction
answer: answers.yaml
scenario: |
  kill nosuch at 3
  run 100
checks:
  - name: lost
    answer: lost
    field: sink.lost
`, "answers.yaml", "lost: 1\n")
	tests := []struct {
		name   string
		args   []string
		stderr []string
	}{
		{"unknown exercise", []string{"grade", "nosuch"}, []string{`no such exercise "nosuch"`, "upstream-backup"}},
		{"unknown directory", []string{"grade", "some/where"}, []string{"some/where: no such exercise directory"}},
		{"bad format", []string{"grade", "--format", "xml"}, []string{`"xml"`}},
		{"missing answers", []string{"grade", "--answers", filepath.Join(broken, "none")}, []string{"--answers", "no such directory"}},
		{"broken pack", []string{"grade", "--pack", broken}, []string{"exercise.yaml:2:7: kind: unknown kind", "missing key"}},
		{"pack broken at run time", []string{"grade", "--pack", runtime, "--answers", runtime}, []string{"exercise pred cannot be graded", `exercise.yaml:6:8: no such node "nosuch"`}},
		{"negative attempt", []string{"grade", "gap-recovery", "--attempt", "-1"}, []string{"--attempt -1: expected a submission number from 1"}},
		{"bad out", []string{"grade", "upstream-backup", "--answers", "exercises/testdata/reference", "--out", filepath.Join(broken, "no", "such", "x.xml")}, []string{"--out"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := streamlab(t, "", tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q lacks %q", r.stderr, s)
				}
			}
		})
	}
}

// writePack writes a pack with one exercise id (exercise.yaml, a README
// and the starter files given as name, content pairs) and returns its
// directory.
func writePack(t *testing.T, id, yaml string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	ex := filepath.Join(dir, id)
	os.MkdirAll(ex, 0o755)
	os.WriteFile(filepath.Join(ex, "exercise.yaml"), []byte(yaml), 0o644)
	os.WriteFile(filepath.Join(ex, "README.md"), []byte("task\n"), 0o644)
	for i := 0; i+1 < len(files); i += 2 {
		os.MkdirAll(filepath.Dir(filepath.Join(ex, files[i])), 0o755)
		os.WriteFile(filepath.Join(ex, files[i]), []byte(files[i+1]), 0o644)
	}
	return dir
}

func TestGradeInstructorPack(t *testing.T) {
	isolate(t)
	dir := writePack(t, "nodup", `id: nodup
title: t
kind: configuration
job: passthrough
answer: settings.lab
scenario: |
  set mode append
  kill map at 300
  run 1000
checks:
  - name: nothing lost
    expect: sink.lost == 0
`, "settings.lab", "set semantics at-least-once\n")
	// By --pack and ID, and by the exercise's directory.
	for _, args := range [][]string{
		{"grade", "--pack", dir, "--answers", dir, "nodup"},
		{"grade", "--answers", filepath.Join(dir, "nodup"), filepath.Join(dir, "nodup")},
		{"grade", "--answers", dir, dir},
	} {
		r := streamlab(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "nodup") {
			t.Errorf("%v: exit %d\n%s\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestGradeStudentSeeds: with the secret, a student's own seeds; another
// student's answers fail, the seed is not shown, and --student without a
// secret is misuse.
func TestGradeStudentSeeds(t *testing.T) {
	isolate(t)
	t.Setenv("GITHUB_REPOSITORY", "")
	ex, _ := exercises.Lookup("gap-recovery")
	dir := t.TempDir()
	key, err := grade.Key(context.Background(), ex, grade.Options{Student: "alice", Secret: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "answers.yaml"), key, 0o644)
	if r := streamlab(t, "", "grade", "--answers", dir, "--student", "alice", "--secret", "k1", "gap-recovery"); r.code != 0 {
		t.Errorf("alice's own answers: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := streamlab(t, "", "grade", "--answers", dir, "--student", "bob", "--secret", "k1", "gap-recovery", "--format", "json")
	var res grade.Result
	json.Unmarshal([]byte(r.stdout), &res)
	if r.code != 1 || res.Exercises[0].Seed != nil || res.Seed != nil || regexp.MustCompile(`"seed": *[0-9]`).MatchString(r.stdout) || !strings.Contains(r.stdout, `"seed": null`) {
		t.Errorf("bob with alice's answers: exit %d\n%s", r.code, r.stdout)
	}
	t.Setenv("STREAMLAB_GRADE_SECRET", "k1")
	t.Setenv("GITHUB_REPOSITORY", "alice")
	if r := streamlab(t, "", "grade", "--answers", dir, "gap-recovery"); r.code != 0 {
		t.Errorf("from the environment: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Setenv("STREAMLAB_GRADE_SECRET", "")
	if r := streamlab(t, "", "grade", "--answers", dir, "--student", "alice", "gap-recovery"); r.code != 2 || !strings.Contains(r.stderr, "--student needs the pack's secret") {
		t.Errorf("--student without a secret: exit %d %s", r.code, r.stderr)
	}
}

// TestGradeHiddenOverlay: the overlay adds hidden checks that the output
// names only by number, and its secret seeds the students.
func TestGradeHiddenOverlay(t *testing.T) {
	isolate(t)
	t.Setenv("GITHUB_REPOSITORY", "")
	dir := referenceAnswers(t)
	os.WriteFile(filepath.Join(dir, "restart-strategy", "settings.lab"), []byte("set restart fixed-delay attempts=9 delay=10s\n"), 0o644)
	plain := streamlab(t, "", "grade", "--answers", dir, "restart-strategy")
	if plain.code != 0 {
		t.Errorf("without the overlay: exit %d\n%s", plain.code, plain.stdout)
	}
	for _, format := range []string{"text", "json", "junit", "tap", "gradescope", "classroom"} {
		r := streamlab(t, "", "grade", "--answers", dir, "--hidden", "exercises/testdata/hidden", "restart-strategy", "--format", format)
		if r.code != 1 || !strings.Contains(r.stdout, "hidden check 1") || strings.Contains(r.stdout, "attempts=4") || strings.Contains(r.stdout, "fewest") {
			t.Errorf("%s with the overlay: exit %d\n%s%s", format, r.code, r.stdout, r.stderr)
		}
	}
	r := streamlab(t, "", "grade", "--answers", dir, "--hidden", "exercises/testdata/hidden", "--reveal", "restart-strategy")
	if !strings.Contains(r.stdout, "attempts=4") {
		t.Errorf("--reveal with the overlay:\n%s", r.stdout)
	}
	bad := t.TempDir()
	os.MkdirAll(filepath.Join(bad, "nosuch"), 0o755)
	os.WriteFile(filepath.Join(bad, "nosuch", "checks.yaml"), []byte("checks: []\n"), 0o644)
	if r := streamlab(t, "", "grade", "--answers", dir, "--hidden", bad); r.code != 2 || !strings.Contains(r.stderr, "nosuch") {
		t.Errorf("an overlay for no exercise: exit %d %s", r.code, r.stderr)
	}
}

// TestGradeClass grades a class directory: a gradebook row per student,
// each under the student's own seeds, so a copied answer does not pass.
func TestGradeClass(t *testing.T) {
	isolate(t)
	t.Setenv("GITHUB_REPOSITORY", "")
	ex, _ := exercises.Lookup("gap-recovery")
	class := t.TempDir()
	key, err := grade.Key(context.Background(), ex, grade.Options{Student: "alice", Secret: "k2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"alice", "=bob"} {
		os.MkdirAll(filepath.Join(class, s), 0o755)
		os.WriteFile(filepath.Join(class, s, "answers.yaml"), key, 0o644)
	}
	os.MkdirAll(filepath.Join(class, ".git"), 0o755)
	r := streamlab(t, "", "grade", "--class", class, "--secret", "k2", "--format", "csv", "gap-recovery")
	want := "student,gap-recovery,score,max_score,passed\n'=bob,"
	if r.code != 1 || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, "\nalice,8,8,8,yes\n") || strings.Contains(r.stdout, "=bob,8") {
		t.Errorf("gradebook: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Students are graded in parallel; the gradebook is the same byte for
	// byte as grading one after another.
	prev := runtime.GOMAXPROCS(1)
	one := streamlab(t, "", "grade", "--class", class, "--secret", "k2", "--format", "csv", "gap-recovery")
	runtime.GOMAXPROCS(prev)
	if one.stdout != r.stdout {
		t.Errorf("gradebook graded one at a time:\n%s\nin parallel:\n%s", one.stdout, r.stdout)
	}
	r = streamlab(t, "", "grade", "--class", class, "--secret", "k2", "--format", "json", "gap-recovery")
	var back []struct {
		Student string       `json:"student"`
		Result  grade.Result `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &back); err != nil || len(back) != 2 || back[1].Student != "alice" || !back[1].Result.Passed {
		t.Errorf("json: %v\n%s", err, r.stdout)
	}
	// GitHub Classroom's CI grades each student under GITHUB_REPOSITORY,
	// "org/hw-alice"; a class cloned into folders named "hw-alice" is
	// graded under the same seeds with --student-prefix org/.
	key, err = grade.Key(context.Background(), ex, grade.Options{Student: "org/hw-alice", Secret: "k2"})
	if err != nil {
		t.Fatal(err)
	}
	gh := t.TempDir()
	os.MkdirAll(filepath.Join(gh, "hw-alice"), 0o755)
	os.WriteFile(filepath.Join(gh, "hw-alice", "answers.yaml"), key, 0o644)
	if r := streamlab(t, "", "grade", "--class", gh, "--secret", "k2", "--format", "csv", "gap-recovery"); r.code != 1 || strings.Contains(r.stdout, "\nhw-alice,8,") {
		t.Errorf("without the prefix, the folder's name is the student: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := streamlab(t, "", "grade", "--class", gh, "--student-prefix", "org/", "--secret", "k2", "--format", "csv", "gap-recovery"); r.code != 0 || !strings.Contains(r.stdout, "\nhw-alice,8,8,8,yes\n") {
		t.Errorf("--student-prefix org/: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{
		{"grade", "--format", "csv", "gap-recovery"},
		{"grade", "--student-prefix", "org/", "gap-recovery"},
		{"grade", "--class", class, "--format", "junit"},
		{"grade", "--class", class, "--student", "x", "--secret", "k"},
		{"grade", "--class", filepath.Join(class, "nosuch")},
	} {
		if r := streamlab(t, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d %s", args, r.code, r.stderr)
		}
	}
}

// TestGradeClassOneHostileStudent is the cheating suite's case of a student
// who would stop the class's grading: a window sliding by 1 ms over 100 000
// records scores 0 with the budget's reason, and the others are graded; an
// answer that breaks grading itself (the wall-time guard) has its cell
// marked "error" in a gradebook that is still written, with exit status 2.
func TestGradeClassOneHostileStudent(t *testing.T) {
	isolate(t)
	t.Setenv("GITHUB_REPOSITORY", "")
	class := t.TempDir()
	ref, err := os.ReadFile("exercises/testdata/reference/failover-recording/session.lab")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"ada":     string(ref),
		"mallory": "set window 1s\nset window.slide 1ms\nrun 100000\n",
	} {
		os.MkdirAll(filepath.Join(class, name), 0o755)
		os.WriteFile(filepath.Join(class, name, "session.lab"), []byte(data), 0o644)
	}
	r := streamlab(t, "", "grade", "--class", class, "--format", "csv", "failover-recording")
	want := "student,failover-recording,score,max_score,passed\nada,10,10,10,yes\nmallory,0,0,10,no\n"
	if r.code != 1 || r.stdout != want {
		t.Errorf("exit %d\n%s%s\nwant\n%s", r.code, r.stdout, r.stderr, want)
	}
	r = streamlab(t, "", "grade", "--class", class, "--format", "text", "failover-recording")
	if !strings.Contains(r.stdout, "your answer does 100000000 window updates, the budget is 2000000") {
		t.Errorf("the reason is not in the report:\n%s", r.stdout)
	}

	// A pack whose wall-time guard an answer can outrun: its budget is
	// out of the way, so that only the guard stops the run.
	packDir := t.TempDir()
	os.MkdirAll(filepath.Join(packDir, "long"), 0o755)
	os.WriteFile(filepath.Join(packDir, "long", "exercise.yaml"), []byte("id: long\ntitle: Long\nkind: script\njob: passthrough\nseeds: 1\ntime_limit: 1s\nanswer: a.lab\n"+
		"budget:\n  records: 1000000000\n  steps: 1000000000\n  rows: 1000000000\nchecks:\n  - name: ran\n    expect: source.records >= 100\n"), 0o644)
	os.WriteFile(filepath.Join(packDir, "long", "README.md"), []byte("task"), 0o644)
	os.WriteFile(filepath.Join(packDir, "long", "a.lab"), []byte("run 1\n"), 0o644)
	class = t.TempDir()
	for name, data := range map[string]string{"ada": "run 100\n", "mallory": "run 1000000\nrun 1000000\nrun 1000000\n"} {
		os.MkdirAll(filepath.Join(class, name), 0o755)
		os.WriteFile(filepath.Join(class, name, "a.lab"), []byte(data), 0o644)
	}
	out := filepath.Join(t.TempDir(), "gradebook.csv")
	r = streamlab(t, "", "grade", "--pack", packDir, "--class", class, "--format", "csv", "--out", out, "long")
	book, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no gradebook: %v (exit %d, %s)", err, r.code, r.stderr)
	}
	want = "student,long,score,max_score,passed\nada,1,1,1,yes\nmallory,error,0,1,no\n"
	if r.code != 2 || string(book) != want || !strings.Contains(r.stderr, "grading broke for mallory (long)") {
		t.Errorf("exit %d, stderr %s\n%s\nwant\n%s", r.code, r.stderr, book, want)
	}
}

// TestGradeOutKeepsPermissions: --out replacing a report the user made
// private keeps it private (it was made 0644).
func TestGradeOutKeepsPermissions(t *testing.T) {
	isolate(t)
	out := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(out, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := streamlab(t, "", "grade", "--answers", referenceAnswers(t), "--format", "json", "--out", out, "gap-recovery")
	st, err := os.Stat(out)
	if r.code != 0 || err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("exit %d %s: %v %v", r.code, r.stderr, st.Mode(), err)
	}
}

// TestGradeAttempt: the built-in gap-recovery prediction allows one
// attempt; its reference answer passes as submission 1 and is not graded
// as submission 2, saying why, in the report the student sees.
func TestGradeAttempt(t *testing.T) {
	isolate(t)
	first := streamlab(t, "", "grade", "gap-recovery", "--answers", referenceAnswers(t), "--attempt", "1")
	second := streamlab(t, "", "grade", "gap-recovery", "--answers", referenceAnswers(t), "--attempt", "2")
	if first.code != 0 || second.code != 1 || !strings.Contains(second.stdout, "this is attempt 2, and gap-recovery grades a prediction on its first 1 only") {
		t.Errorf("attempt 1: exit %d %s\nattempt 2: exit %d %s %s", first.code, first.stderr, second.code, second.stdout, second.stderr)
	}
}
