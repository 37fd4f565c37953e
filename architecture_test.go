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

// readArchitecture returns ARCHITECTURE.md's tables, each a list of rows
// in order, and every package path the document names in backquotes. The
// first table has a row for each top-level package; a later one has a row
// for each package under one top-level package (Inside engine).
func readArchitecture(t *testing.T) ([][]layer, []string) {
	t.Helper()
	data, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	var tables [][]layer
	var rows []layer
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			if rows != nil {
				tables, rows = append(tables, rows), nil
			}
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
	if rows != nil {
		tables = append(tables, rows)
	}
	if len(tables) == 0 {
		t.Fatal("ARCHITECTURE.md has no package table")
	}
	var named []string
	for _, m := range regexp.MustCompile("`([a-z0-9]+(?:/[a-z0-9]+)+)`").FindAllStringSubmatch(string(data), -1) {
		named = append(named, m[1])
	}
	return tables, named
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

// rowOf returns the row of table i that package pkg belongs to: in the
// first table its top-level package, in a later one the package itself.
// ok is false for a package outside the table's scope.
func rowOf(tables [][]layer, i int, pkg string) (row string, ok bool) {
	if i == 0 {
		return top(pkg), true
	}
	return pkg, top(pkg) == top(tables[i][0].name)
}

// TestArchitectureNamesEveryPackage: ARCHITECTURE.md has a row for every
// top-level package and, in a later table, for every package under its
// top-level package; it names only packages that exist.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	tables, named := readArchitecture(t)
	pkgs := packages(t)
	for i, rows := range tables {
		exists := map[string]bool{}
		for dir := range pkgs {
			if row, ok := rowOf(tables, i, dir); ok {
				exists[row] = true
			}
		}
		listed := map[string]bool{}
		for _, r := range rows {
			listed[r.name] = true
			if !exists[r.name] {
				t.Errorf("ARCHITECTURE.md has a row for %s, which holds no package", r.name)
			}
		}
		table := "top-level table"
		if i > 0 {
			table = "table of the packages under " + top(rows[0].name)
		}
		for name := range exists {
			if !listed[name] {
				t.Errorf("package %s has no row in ARCHITECTURE.md's %s", name, table)
			}
		}
	}
	for _, p := range named {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("ARCHITECTURE.md names %s, which is not a package", p)
		}
	}
}

// TestArchitectureImportDirection: in each table, a row's packages import
// only the rows it lists, every listed import is real, and they all sit in
// rows below it.
func TestArchitectureImportDirection(t *testing.T) {
	tables, _ := readArchitecture(t)
	pkgs := packages(t)
	for i, rows := range tables {
		index := map[string]int{}
		for j, r := range rows {
			index[r.name] = j
		}
		used := map[string]map[string]bool{}
		for dir, imports := range pkgs {
			from, ok := rowOf(tables, i, dir)
			if !ok {
				continue
			}
			for _, imp := range imports {
				to, ok := rowOf(tables, i, imp)
				if !ok || to == from {
					continue
				}
				if used[from] == nil {
					used[from] = map[string]bool{}
				}
				used[from][to] = true
				if j, ok := index[from]; ok && !slices.Contains(rows[j].imports, to) {
					t.Errorf("%s imports %s, which its row in ARCHITECTURE.md does not list", dir, imp)
				}
			}
		}
		for j, r := range rows {
			for _, imp := range r.imports {
				if k, ok := index[imp]; !ok || k <= j {
					t.Errorf("ARCHITECTURE.md: %s lists %s, which is not a row below it", r.name, imp)
				}
				if !used[r.name][imp] {
					t.Errorf("ARCHITECTURE.md: %s lists %s, which nothing in %s imports", r.name, imp, r.name)
				}
			}
		}
	}
}
