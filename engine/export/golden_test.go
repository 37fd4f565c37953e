package export

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the exporter")

// scriptNames lists the test scripts in testdata/scripts.
func scriptNames(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "scripts", "*.lab"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no test scripts: %v", err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	return names
}

// loadScript loads testdata/scripts/name.
func loadScript(t *testing.T, name string) *Plan {
	t.Helper()
	path := filepath.Join("testdata", "scripts", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(context.Background(), path, src, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// TestGolden compares every target's files for every test script (the
// built-in jobs with their defaults among them) with testdata/golden/
// SCRIPT/, except the events, which TestEventsAreTheDumpedSource checks.
// go test -update (make golden) rewrites them; read the diff.
func TestGolden(t *testing.T) {
	for _, name := range scriptNames(t) {
		p := loadScript(t, name)
		dir := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".lab"))
		want := map[string]bool{}
		for _, target := range Targets {
			files, err := Files(p, target)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if f.Name == EventsFile {
					continue
				}
				want[f.Name] = true
				path := filepath.Join(dir, f.Name)
				if *update {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				golden, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s --to %s: %v (run make golden)", name, target, err)
					continue
				}
				if !bytes.Equal(golden, f.Data) {
					t.Errorf("%s --to %s: %s differs from its golden; run go test ./engine/export -update and read the diff", name, target, f.Name)
				}
			}
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !want[e.Name()] {
				if *update {
					os.Remove(filepath.Join(dir, e.Name()))
					continue
				}
				t.Errorf("%s: golden %s is exported by no target", dir, e.Name())
			}
		}
	}
}

// TestEventsAreTheDumpedSource: the events file is byte for byte what
// `streamlab run --dump-source` writes for the same script, so the real
// engine and the lab read the same input.
func TestEventsAreTheDumpedSource(t *testing.T) {
	for _, name := range []string{"exactly-once-table.lab", "at-least-once-log.lab", "sliding-device-bloom.lab"} {
		path := filepath.Join("testdata", "scripts", name)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dump := filepath.Join(t.TempDir(), "dump.jsonl")
		if _, err := lab.RunScript(context.Background(), path, src, lab.Options{DumpSource: dump}); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(dump)
		if err != nil {
			t.Fatal(err)
		}
		p := loadScript(t, name)
		if !bytes.Equal(p.Events, want) {
			t.Errorf("%s: the events differ from run --dump-source", name)
		}
		if n := int64(bytes.Count(want, []byte("\n"))); p.Records != n || n == 0 {
			t.Errorf("%s: Records = %d, the dump has %d lines", name, p.Records, n)
		}
		for _, target := range Targets {
			files, _ := Files(p, target)
			i := slices.IndexFunc(files, func(f File) bool { return f.Name == EventsFile })
			if i < 0 || !bytes.Equal(files[i].Data, want) {
				t.Errorf("%s --to %s: no %s with the dumped events", name, target, EventsFile)
			}
		}
	}
}
