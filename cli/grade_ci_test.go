package cli

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestStreamlabProcess is not a test: it is streamlab itself when the
// test binary is run by the wrapper streamlabCommand writes.
func TestStreamlabProcess(t *testing.T) {
	if os.Getenv("STREAMLAB_TEST_PROCESS") != "1" {
		t.Skip("runs only as the streamlab command of TestCIFiles")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
}

// streamlabCommand writes an executable named streamlab into a new
// directory and returns the directory: it runs this test binary as
// streamlab, so scripts can call the command line without a build.
func streamlabCommand(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\nSTREAMLAB_TEST_PROCESS=1 exec '" + self + "' -test.run='^TestStreamlabProcess$' -- \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "streamlab"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCIFiles runs the files the README's "Grading in CI" tells instructors to copy, with
// this tree's streamlab: the grading step of the GitHub Classroom workflow,
// and Gradescope's run_autograder.
func TestCIFiles(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	isolate(t)
	bin := streamlabCommand(t)
	answers := referenceAnswers(t)
	os.WriteFile(filepath.Join(answers, "upstream-backup", "duplicates.lab"), []byte("run 2000\n"), 0o644)

	t.Run("classroom", func(t *testing.T) {
		data, err := os.ReadFile("exercises/ci/classroom/classroom.yml")
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Jobs map[string]struct {
				Env   map[string]string `yaml:"env"`
				Steps []struct {
					ID   string            `yaml:"id"`
					Uses string            `yaml:"uses"`
					Run  string            `yaml:"run"`
					Env  map[string]string `yaml:"env"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Fatalf("the workflow is not YAML: %v", err)
		}
		job, ok := wf.Jobs["run-autograding-tests"]
		if !ok {
			t.Fatalf("no job run-autograding-tests: %+v", wf)
		}
		var gradeStep, reporter int = -1, -1
		for i, s := range job.Steps {
			if s.ID == "streamlab" {
				gradeStep = i
			}
			if strings.HasPrefix(s.Uses, "classroom-resources/autograding-grading-reporter@") {
				reporter = i
			}
		}
		if gradeStep < 0 || reporter < gradeStep {
			t.Fatalf("steps: grade %d, reporter %d", gradeStep, reporter)
		}
		// The reporter reads <RUNNER>_RESULTS for each runner it is given.
		r := job.Steps[reporter]
		runner := r.With["runners"]
		if v := r.Env[strings.ToUpper(runner)+"_RESULTS"]; !strings.Contains(v, "steps.streamlab.outputs.result") {
			t.Errorf("the reporter's %s_RESULTS is %q", strings.ToUpper(runner), v)
		}
		steps := map[string]string{}
		for _, s := range job.Steps {
			if s.ID != "" {
				steps[s.ID] = s.Run
			}
			if strings.HasPrefix(s.Uses, "./") || strings.Contains(s.Run, "answers/") {
				t.Errorf("a step runs something from the student's repository: %+v", s)
			}
		}
		// The install step downloads the pinned release and checks its
		// SHA-256: a fake curl serves this tree's streamlab as the release.
		releases := t.TempDir()
		self, _ := os.ReadFile(filepath.Join(bin, "streamlab"))
		os.WriteFile(filepath.Join(releases, "streamlab-v9.9.9-linux-amd64"), self, 0o755)
		fake := t.TempDir()
		os.WriteFile(filepath.Join(fake, "curl"), []byte("#!/bin/sh\nout=\nwhile [ $# -gt 0 ]; do case \"$1\" in -o) out=\"$2\"; shift;; -*) ;; *) url=\"$1\";; esac; shift; done\ncp \""+releases+"/$(basename \"$url\")\" \"$out\"\n"), 0o755)
		sum := sha256.Sum256(self)
		install := func(sha string) (string, error) {
			tmp := t.TempDir()
			cmd := exec.Command(bash, "-e", "-c", steps["install"])
			cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "RUNNER_TEMP="+tmp,
				"GITHUB_PATH="+filepath.Join(tmp, "path"), "GITHUB_OUTPUT="+filepath.Join(tmp, "out"),
				"LAB_VERSION=v9.9.9", "LAB_SHA256="+sha, "LAB_RELEASES=https://example.invalid/releases")
			out, err := cmd.CombinedOutput()
			path, _ := os.ReadFile(filepath.Join(tmp, "path"))
			return strings.TrimSpace(string(path)), errorWith(err, out)
		}
		if _, err := install(strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "does not match LAB_SHA256") {
			t.Errorf("a binary that does not match the pinned SHA-256 was installed: %v", err)
		}
		installed, err := install(hex.EncodeToString(sum[:]))
		if err != nil || installed == "" {
			t.Fatalf("install: %v", err)
		}
		// Run the grading step as Actions would, in a workspace with the
		// student's answers in answers/.
		work := t.TempDir()
		if err := os.CopyFS(filepath.Join(work, "answers"), os.DirFS(answers)); err != nil {
			t.Fatal(err)
		}
		output := filepath.Join(t.TempDir(), "github_output")
		cmd := exec.Command(bash, "-e", "-c", job.Steps[gradeStep].Run)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PATH="+installed+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_OUTPUT="+output, "EXERCISES="+job.Env["EXERCISES"])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the grading step failed: %v\n%s", err, out)
		}
		got, _ := os.ReadFile(output)
		b64, ok := strings.CutPrefix(strings.TrimSpace(string(got)), "result=")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT = %q", got)
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Version  int     `json:"version"`
			Status   string  `json:"status"`
			MaxScore float64 `json:"max_score"`
			Tests    []struct {
				Name  string  `json:"name"`
				Score float64 `json:"score"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		// gap-recovery passes (8), upstream-backup's starter does not.
		if res.Version != 1 || res.Status != "fail" || res.MaxScore != 22 || len(res.Tests) != 10 {
			t.Errorf("result: %+v", res)
		}
	})

	t.Run("gradescope", func(t *testing.T) {
		root := t.TempDir()
		src := filepath.Join(root, "source")
		os.MkdirAll(src, 0o755)
		for _, f := range []string{"run_autograder", "setup.sh"} {
			data, err := os.ReadFile(filepath.Join("exercises/ci/gradescope", f))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(src, f), data, 0o755)
		}
		data, _ := os.ReadFile(filepath.Join(bin, "streamlab"))
		os.WriteFile(filepath.Join(src, "streamlab"), data, 0o755)
		os.WriteFile(filepath.Join(src, "exercises.txt"), []byte("# this assignment\ngap-recovery\nupstream-backup\n"), 0o644)
		if err := os.CopyFS(filepath.Join(root, "submission"), os.DirFS(answers)); err != nil {
			t.Fatal(err)
		}
		run := func() map[string]any {
			cmd := exec.Command(bash, filepath.Join(src, "run_autograder"))
			cmd.Env = append(os.Environ(), "AUTOGRADER_ROOT="+root)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("run_autograder: %v\n%s", err, out)
			}
			var res map[string]any
			data, err := os.ReadFile(filepath.Join(root, "results", "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatalf("results.json: %v\n%s", err, data)
			}
			return res
		}
		res := run()
		tests, _ := res["tests"].([]any)
		if res["score"] != 10.0 || len(tests) != 10 { // gap-recovery 8, the upstream-backup starter 2
			t.Errorf("results.json: score %v, %d tests", res["score"], len(tests))
		}
		// With the instructor's overlay: its hidden check, and the
		// submitter's own seeds (gap-recovery's answers were for the
		// exercise's seed, so they no longer pass).
		if err := os.CopyFS(filepath.Join(src, "hidden"), os.DirFS("exercises/testdata/hidden")); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, "submission_metadata.json"), []byte(`{"id": 1, "users": [{"email": "a@b.c", "id": 4242, "name": "A"}]}`), 0o644)
		res = run()
		tests, _ = res["tests"].([]any)
		raw, _ := json.Marshal(res)
		if len(tests) != 11 || !strings.Contains(string(raw), "hidden check 1") || res["score"].(float64) >= 11 {
			t.Errorf("with the overlay: score %v, %d tests\n%s", res["score"], len(tests), raw)
		}
		os.RemoveAll(filepath.Join(src, "hidden"))
		// A broken pack still leaves a results.json.
		os.WriteFile(filepath.Join(src, "exercises.txt"), []byte("nosuch\n"), 0o644)
		if res := run(); res["score"] != 0.0 || !strings.Contains(res["output"].(string), "exit status 2") {
			t.Errorf("misuse: %v", res)
		}
	})

	// make_autograder.sh checks every exercise ID against the pack before
	// it writes anything.
	t.Run("make_autograder", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "autograder.zip")
		cmd := exec.Command(bash, "exercises/ci/gradescope/make_autograder.sh", "-b", filepath.Join(bin, "streamlab"), "-o", out, "gap-recovery", "gap-recovry")
		msg, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(msg), `make_autograder.sh: exercise ID "gap-recovry" cannot be graded: no such exercise "gap-recovry" in exercises/builtin; it has`) {
			t.Errorf("a misspelt ID: %v\n%s", err, msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Error("an autograder was written for a misspelt ID")
		}
		if _, err := exec.LookPath("zip"); err != nil {
			return // the rest needs zip
		}
		cmd = exec.Command(bash, "exercises/ci/gradescope/make_autograder.sh", "-b", filepath.Join(bin, "streamlab"), "-o", out, "gap-recovery", "restart-storm")
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("make_autograder.sh: %v\n%s", err, msg)
		}
		if _, err := os.Stat(out); err != nil {
			t.Error(err)
		}
	})
}

// errorWith adds a command's output to its error.
func errorWith(err error, out []byte) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %s", err, out)
}
