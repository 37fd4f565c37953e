package main

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEConformanceIsTheTable checks that README.md's Conformance
// section is conformance/TABLE.md, the table `make conformance` printed
// last: the README cannot claim a row the real engines did not give. It
// reads files only; running the real engines is `make conformance`'s job.
func TestREADMEConformanceIsTheTable(t *testing.T) {
	const start, end = "<!-- conformance:start -->\n", "<!-- conformance:end -->"
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile("conformance/TABLE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), start)
	if !ok {
		t.Fatalf("README.md has no %q line", strings.TrimSpace(start))
	}
	section, _, ok := strings.Cut(after, end)
	if !ok {
		t.Fatalf("README.md's Conformance section has no %q line", end)
	}
	if section != string(table) {
		t.Errorf("README.md's Conformance section differs from conformance/TABLE.md; `make conformance` writes both from one run")
	}
	if !strings.HasPrefix(string(table), "| engine | scenario | streamlab | real engine | agree |\n") {
		t.Errorf("conformance/TABLE.md does not start with the table's header")
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(table), "\n"), "\n")[2:] {
		if !strings.HasSuffix(line, "| yes |") && !strings.HasSuffix(line, "| no |") {
			t.Errorf("conformance/TABLE.md row %d does not end in | yes | or | no |: %s", i+1, line)
		}
	}
}
