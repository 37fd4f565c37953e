package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMEListsEveryMakeTarget holds the README's "Make targets" table to
// the Makefile: each target `make help` lists (a "##" comment after its
// name) has a row, and each row names a real target.
func TestREADMEListsEveryMakeTarget(t *testing.T) {
	makefile, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z-]*):[^\n]*## `).FindAllSubmatch(makefile, -1) {
		targets = append(targets, string(m[1]))
	}
	_, section, ok := strings.Cut(string(readme), "\n## Make targets\n")
	if !ok {
		t.Fatal(`README.md has no "## Make targets" section`)
	}
	section, _, _ = strings.Cut(section, "\n#")
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `make ([a-z-]+)").FindAllStringSubmatch(section, -1) {
		rows = append(rows, m[1])
	}
	if len(targets) < 10 || len(rows) < 10 {
		t.Fatalf("found %d targets in the Makefile and %d rows in the README; the patterns no longer match", len(targets), len(rows))
	}
	for _, target := range targets {
		if !slices.Contains(rows, target) {
			t.Errorf("make %s is in `make help` but not in the README's Make targets table", target)
		}
	}
	for _, row := range rows {
		if !slices.Contains(targets, row) {
			t.Errorf("the README's Make targets table lists make %s, which the Makefile has no help line for", row)
		}
	}
}
