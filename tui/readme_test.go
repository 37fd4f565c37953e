package tui

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEIsCurrent checks the README's key map and screenshot against the
// program: the key map generated from the bindings, the screenshot the
// 80×24 lab golden. `make golden` (-update) rewrites both sections.
func TestREADMEIsCurrent(t *testing.T) {
	const path = "../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	shot, err := os.ReadFile("testdata/lab_80x24.golden")
	if err != nil {
		t.Fatal(err)
	}
	charts, err := os.ReadFile("testdata/ledger_80x24.golden")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	want := map[string]string{
		"keymap":     KeyMapMarkdown(),
		"screenshot": "```\n" + string(shot) + "```\n",
		"chartshot":  "```\n" + string(charts) + "```\n",
	}
	for name, body := range want {
		start, end := "<!-- "+name+":start -->\n", "<!-- "+name+":end -->"
		i, j := strings.Index(readme, start), strings.Index(readme, end)
		if i < 0 || j < i {
			t.Fatalf("README.md has no %q … %q section", start, end)
		}
		got := readme[i+len(start) : j]
		if got == body {
			continue
		}
		if *update {
			readme = readme[:i+len(start)] + body + readme[j:]
			continue
		}
		t.Errorf("README.md's %s section is out of date (make golden rewrites it):\n%s", name, body)
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
