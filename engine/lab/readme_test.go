package lab_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
)

// settingsMarkdown renders the settings table the README shows.
func settingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| key | values | what it sets |\n|---|---|---|\n")
	for _, s := range lab.Settings() {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", s.Key, strings.ReplaceAll(s.Values, "|", "\\|"), s.Doc)
	}
	return b.String()
}

// The README's table of settings is the interpreter's own.
func TestREADMESettings(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start, end := "<!-- settings:start -->\n", "<!-- settings:end -->"
	i, j := strings.Index(readme, start), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatal("README.md has no settings section")
	}
	if want := settingsMarkdown(); readme[i+len(start):j] != want {
		if os.Getenv("UPDATE_README") != "" {
			readme = readme[:i+len(start)] + want + readme[j:]
			if err := os.WriteFile("../../README.md", []byte(readme), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README.md's settings table is out of date (UPDATE_README=1 go test ./engine/lab rewrites it):\n%s", want)
	}
}
