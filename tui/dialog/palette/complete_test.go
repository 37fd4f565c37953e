package palette

import (
	"flag"
	"strings"
	"testing"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func TestComplete(t *testing.T) {
	nodes := []string{"source", "parse", "count[0]", "count[1]", "sink"}
	for _, tt := range []struct {
		line, want, matches string
	}{
		{"", "", "run step kill fail restart set job expect report pause resume why"},
		{"r", "r", "run restart report resume"},
		{"ru", "run ", "run"},
		{"kill s", "kill s", "source sink"},
		{"kill so", "kill source ", "source"},
		{"restart count", "restart count[", "count[0] count[1]"},
		{"set checkp", "set checkpoint.interval ", "checkpoint.interval"},
		{"set mode c", "set mode complete ", "complete"},
		{"set ha p", "set ha passive-standby ", "passive-standby"},
		{"job p", "job pass", "passthrough passwords"},
		{"job passt", "job passthrough ", "passthrough"},
		{"expect lo", "expect lost ", "lost"},
		{"run 5", "run 5", ""},
	} {
		got, matches := complete(tt.line, nodes)
		if got != tt.want || strings.Join(matches, " ") != tt.matches {
			t.Errorf("complete(%q) = %q %v, want %q [%s]", tt.line, got, matches, tt.want, tt.matches)
		}
	}
	if got := cycle("kill count[0]", []string{"count[0]", "count[1]"}); got != "kill count[1]" {
		t.Errorf("cycle %q", got)
	}
}
