package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const exportScript = "job clicks\nset semantics exactly-once\nset sink table\nkill count[1] at 50\nrun 200\n"

// TestExportExitCodes: 0 for a written export; 2 for every kind of bad
// input, with the script's position where there is one.
func TestExportExitCodes(t *testing.T) {
	isolate(t)
	script := writeFile(t, "s.lab", exportScript)
	bad := writeFile(t, "bad.lab", "job clicks\nset semantics sometimes\n")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"to stdout", []string{"export", script, "--to", "pyspark"}, 0, "use --out DIR"},
		{"no --to", []string{"export", script}, 2, "export needs --to"},
		{"unknown target", []string{"export", script, "--to", "storm"}, 2, `unknown target "storm"`},
		{"no script", []string{"export", "--to", "pyflink"}, 2, "accepts 1 arg"},
		{"missing script", []string{"export", filepath.Join(t.TempDir(), "none.lab"), "--to", "pyflink"}, 2, "cannot read lab script"},
		{"invalid script", []string{"export", bad, "--to", "pyflink"}, 2, bad + ":2:15:"},
		{"bad seed", []string{"export", script, "--to", "pyflink", "--seed", "0x10"}, 2, "invalid argument"},
		{"out is a file", []string{"export", script, "--to", "pyflink", "--out", script}, 2, "must be a directory"},
	} {
		r := streamlab(t, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tc.name, r.code, r.stderr, tc.code, tc.stderr)
		}
	}
}

// TestExportWritesFiles: --out writes the program, the events and (Flink)
// the compose file, refuses before writing anything when one exists, and
// replaces them all with --force.
func TestExportWritesFiles(t *testing.T) {
	isolate(t)
	script := writeFile(t, "s.lab", exportScript)
	for target, want := range map[string][]string{
		"pyflink":   {"clicks_pyflink.py", "docker-compose.yaml", "events.jsonl"},
		"flink-sql": {"clicks_flink.sql", "docker-compose.yaml", "events.jsonl"},
		"pyspark":   {"clicks_pyspark.py", "events.jsonl"},
	} {
		dir := filepath.Join(t.TempDir(), "new", "dir")
		r := streamlab(t, "", "export", script, "--to", target, "--out", dir)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", target, r.code, r.stderr)
		}
		entries, _ := os.ReadDir(dir)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: wrote %v, want %v", target, got, want)
		}
		if lines := strings.Fields(r.stdout); len(lines) != len(want) {
			t.Errorf("%s: stdout %q should name the %d files written", target, r.stdout, len(want))
		}
		events, _ := os.ReadFile(filepath.Join(dir, "events.jsonl"))
		if n := strings.Count(string(events), "\n"); n != 200 {
			t.Errorf("%s: events.jsonl has %d lines, want the 200 the script ran", target, n)
		}

		// A file of the user's in the way: refused, nothing touched.
		mine := filepath.Join(dir, "events.jsonl")
		if err := os.WriteFile(mine, []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		prog := filepath.Join(dir, want[0])
		if err := os.WriteFile(prog, []byte("edited\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r = streamlab(t, "", "export", script, "--to", target, "--out", dir)
		if r.code != 2 || !strings.Contains(r.stderr, "--force") || !strings.Contains(r.stderr, "nothing was written") {
			t.Errorf("%s: over existing files: exit %d, stderr %q", target, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(prog); string(b) != "edited\n" {
			t.Errorf("%s: a refused export changed %s", target, prog)
		}
		r = streamlab(t, "", "export", script, "--to", target, "--out", dir, "--force")
		if r.code != 0 {
			t.Fatalf("%s --force: exit %d: %s", target, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(mine); string(b) == "mine\n" {
			t.Errorf("%s --force: events.jsonl not replaced", target)
		}
	}
}

// TestExportStdinAndSeed: - reads the script from standard input, and
// --seed changes the events as it does for run.
func TestExportStdinAndSeed(t *testing.T) {
	isolate(t)
	a := filepath.Join(t.TempDir(), "a")
	b := filepath.Join(t.TempDir(), "b")
	if r := streamlab(t, exportScript, "export", "-", "--to", "pyspark", "--out", a); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r := streamlab(t, exportScript, "export", "-", "--to", "pyspark", "--out", b, "--seed", "99"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	ea, _ := os.ReadFile(filepath.Join(a, "events.jsonl"))
	eb, _ := os.ReadFile(filepath.Join(b, "events.jsonl"))
	if len(ea) == 0 || string(ea) == string(eb) {
		t.Error("--seed 99 should change the events")
	}
}
