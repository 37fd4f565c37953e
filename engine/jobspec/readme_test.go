package jobspec_test

import (
	"os"
	"strings"
	"testing"
)

// The README documents the job schema with SCHEMA.md, word for word.
func TestREADMESchema(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile("SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	start, end := "<!-- schema:start -->\n", "<!-- schema:end -->"
	s := string(readme)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i || s[i+len(start):j] != string(schema) {
		t.Fatal("README.md's job spec schema section differs from engine/jobspec/SCHEMA.md; copy it over")
	}
}
