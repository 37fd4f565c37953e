package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/streamlab/streamlab"

// layer is one row of ARCHITECTURE.md's table: a top-level package and the
// top-level packages it says it imports.
type layer struct {
	name    string
	imports []string
}

// readArchitecture returns the table's rows in order and every package path
// the document names in backquotes.
func readArchitecture(t *testing.T) ([]layer, []string) {
	t.Helper()
	data, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []layer
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("ARCHITECTURE.md: row %q has %d cells, want 3", line, len(cells))
		}
		l := layer{name: strings.Trim(strings.TrimSpace(cells[0]), "`")}
		for _, imp := range strings.Split(cells[2], ",") {
			if imp = strings.TrimSpace(imp); imp != "" && imp != "—" {
				l.imports = append(l.imports, imp)
			}
		}
		rows = append(rows, l)
	}
	if len(rows) == 0 {
		t.Fatal("ARCHITECTURE.md has no package table")
	}
	var named []string
	for _, m := range regexp.MustCompile("`([a-z0-9]+(?:/[a-z0-9]+)+)`").FindAllStringSubmatch(string(data), -1) {
		named = append(named, m[1])
	}
	return rows, named
}

// packages returns every package directory of the module (slash paths,
// "." for the root) and the packages of this module each one's non-test
// files import.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		imports := pkgs[dir]
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			if rest, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(imports, rest) {
				imports = append(imports, rest)
			}
		}
		pkgs[dir] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// top is the top-level package a package path belongs to.
func top(pkg string) string {
	name, _, _ := strings.Cut(pkg, "/")
	return name
}

// TestArchitectureNamesEveryPackage: ARCHITECTURE.md has a row for every
// top-level package and names only packages that exist.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	rows, named := readArchitecture(t)
	pkgs := packages(t)
	tops := map[string]bool{}
	for dir := range pkgs {
		tops[top(dir)] = true
	}
	listed := map[string]bool{}
	for _, r := range rows {
		listed[r.name] = true
		if !tops[r.name] {
			t.Errorf("ARCHITECTURE.md has a row for %s, which holds no package", r.name)
		}
	}
	for name := range tops {
		if !listed[name] {
			t.Errorf("top-level package %s has no row in ARCHITECTURE.md", name)
		}
	}
	for _, p := range named {
		if _, ok := pkgs[p]; !ok && listed[top(p)] {
			t.Errorf("ARCHITECTURE.md names %s, which is not a package", p)
		}
	}
}

// TestArchitectureImportDirection: each top-level package imports only the
// packages its row lists, every listed import is real, and they all sit in
// rows below it.
func TestArchitectureImportDirection(t *testing.T) {
	rows, _ := readArchitecture(t)
	pkgs := packages(t)
	row := map[string]int{}
	for i, r := range rows {
		row[r.name] = i
	}
	used := map[string]map[string]bool{}
	for dir, imports := range pkgs {
		from := top(dir)
		for _, imp := range imports {
			to := top(imp)
			if to == from {
				continue
			}
			if used[from] == nil {
				used[from] = map[string]bool{}
			}
			used[from][to] = true
			if i, ok := row[from]; ok && !slices.Contains(rows[i].imports, to) {
				t.Errorf("%s imports %s, which its row in ARCHITECTURE.md does not list", dir, imp)
			}
		}
	}
	for i, r := range rows {
		for _, imp := range r.imports {
			if j, ok := row[imp]; !ok || j <= i {
				t.Errorf("ARCHITECTURE.md: %s lists %s, which is not a row below it", r.name, imp)
			}
			if !used[r.name][imp] {
				t.Errorf("ARCHITECTURE.md: %s lists %s, which nothing in %s imports", r.name, imp, r.name)
			}
		}
	}
}
