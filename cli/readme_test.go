package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestReadmeCommandsMatchTheCommands: every command and subcommand the
// program defines has its row in the README's Commands table (a group's
// subcommands listed as `streamlab exercise list|show|…`), and every row
// names commands that exist.
func TestReadmeCommandsMatchTheCommands(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Commands\n")
	if start < 0 {
		t.Fatal("no Commands section in the README")
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	// Each row's first cell: `streamlab NAME[ SUB\|SUB…] [ARGS]`.
	row := regexp.MustCompile("(?m)^\\| `streamlab([^`]*)`")
	documented := map[string]bool{"": false}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		words := strings.Fields(m[1])
		if len(words) == 0 {
			documented[""] = true
			continue
		}
		name := words[0]
		documented[name] = true
		if len(words) > 1 && !strings.HasPrefix(words[1], "[") && !strings.HasPrefix(words[1], "-") && strings.ToUpper(words[1]) != words[1] {
			for _, sub := range strings.Split(strings.ReplaceAll(words[1], `\|`, "|"), "|") {
				documented[name+" "+sub] = true
			}
		}
	}
	c, err := newCLI(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	var walk func(prefix string, cmd *cobra.Command)
	walk = func(prefix string, cmd *cobra.Command) {
		for _, sub := range cmd.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			name := strings.TrimSpace(prefix + " " + sub.Name())
			defined[name] = true
			if prefix == "" {
				walk(sub.Name(), sub)
			}
		}
	}
	walk("", c.rootCmd())
	for name := range defined {
		parent, _, isSub := strings.Cut(name, " ")
		if documented[name] {
			continue
		}
		// A group documented by its own row (`streamlab lessons verify`)
		// or by a row that lists its subcommands; a subcommand with its
		// own row is fine too.
		if isSub && documented[parent] && !hasListRow(documented, parent) {
			continue
		}
		t.Errorf("streamlab %s is not in the README's Commands table", name)
	}
	for name := range documented {
		if name != "" && !defined[name] {
			t.Errorf("the README's Commands table names streamlab %s, which is not a command", name)
		}
	}
}

// hasListRow reports whether the table lists parent's subcommands in its
// row (documented has "parent sub" entries), so that each must be listed.
func hasListRow(documented map[string]bool, parent string) bool {
	for k := range documented {
		if strings.HasPrefix(k, parent+" ") {
			return true
		}
	}
	return false
}
