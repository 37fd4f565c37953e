package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The package documentation is the engine's map: it names every source
// file, so a file added without a place on the map fails here.
func TestDocNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		named++
		if !strings.Contains(string(doc), f) {
			t.Errorf("doc.go does not say where %s belongs", f)
		}
	}
	if named < 20 {
		t.Fatalf("only %d source files found", named)
	}
}
