package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// allowedSkips lists every place a test may skip itself, as "file
// function", with the reason the skip is a real precondition. A skip that
// is not here fails TestEverySkipIsAllowed, so a test cannot go quiet
// without review; an entry whose skip is gone fails it too, so the list
// stays true. CI (.ci/run) installs the tools these skips wait for and
// fails when it cannot.
var allowedSkips = map[string]string{
	"cli/grade_ci_test.go TestStreamlabProcess":               "not a test: the test binary acting as the streamlab command of TestCIFiles",
	"cli/grade_ci_test.go TestCIFiles":                        "the CI files are bash scripts; .ci/run runs under bash",
	"cli/cli_test.go TestLoadConfigDefaultLocation":           "os.UserConfigDir has no answer without HOME/XDG_CONFIG_HOME",
	"exercises/report/report_test.go TestTAPPassesProve":      "needs prove (perl); .ci/run installs it or fails",
	"cli/hostile_test.go waitReading":                         "needs /proc to see when the child process blocks reading its input (Linux)",
	"tui/e2e/predict_tmux_test.go TestPredictionInTmux":       "needs tmux (.ci/run installs it or fails), and builds the binary, which -short leaves out",
	"tui/terminal_linux_test.go openPTY":                      "needs pseudo-terminals (/dev/ptmx), which some containers lack",
	"tui/e2e/lessons_tmux_test.go binary":                     "needs tmux (.ci/run installs it or fails), and builds the binary, which -short leaves out",
	"tui/e2e/tmux_test.go TestBinaryInTmux":                   "needs tmux (.ci/run installs it or fails), and builds the binary, which -short leaves out",
	"engine/export/syntax_test.go TestExportedPythonCompiles": "needs python3 for its own parser; TestExportedProgramsAreWellFormed checks the same programs' structure everywhere",
	"engine/filter/spec_test.go TestSpecStringRoundTrip":      "rapid's Skip: discards a drawn filter spec that Validate rejects, not a skipped test",
	"classroom/bench_test.go TestClassroomBench":              "builds the binary and serves it a class of five over SSH, which -short leaves out",
}

// skipMethods are the testing (and rapid) methods that skip.
var skipMethods = []string{"Skip", "Skipf", "SkipNow"}

// TestEverySkipIsAllowed finds every call of Skip, Skipf or SkipNow in the
// repository's tests and checks it against allowedSkips.
func TestEverySkipIsAllowed(t *testing.T) {
	found := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && slices.Contains(skipMethods, sel.Sel.Name) {
					key := filepath.ToSlash(path) + " " + fn.Name.Name
					found[key] = true
					if _, ok := allowedSkips[key]; !ok {
						t.Errorf("%s: %s skips (%s); remove the skip, or add it to allowedSkips with the precondition it waits for",
							fset.Position(call.Pos()), fn.Name.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range allowedSkips {
		if !found[key] {
			t.Errorf("allowedSkips lists %q, which no longer skips: remove the entry", key)
		}
	}
}
