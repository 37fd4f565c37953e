package cli

import (
	"strings"
	"testing"
)

// `run --explain KEY` prints, after the report, the same explanation as
// `why KEY` in the script; a key that does not parse, or that names no
// row of the run, is bad input (exit 2) that says what a row is.
func TestRunExplain(t *testing.T) {
	isolate(t)
	const lesson4 = "job passthrough\nset mode append\nset semantics at-least-once\nkill filter at 1200\nrun 3000\nrun 30s\n"
	why := streamlab(t, lesson4+"why offset=1001\n", "run")
	flag := streamlab(t, lesson4, "run", "--explain", "offset=1001")
	if why.code != 0 || flag.code != 0 {
		t.Fatalf("exit %d and %d: %s %s", why.code, flag.code, why.stderr, flag.stderr)
	}
	report, explanation, ok := strings.Cut(flag.stdout, "\nwhy offset=1001: ")
	if !ok || !strings.HasPrefix(report, "job ") || !strings.Contains(explanation, "filter attempt 2") {
		t.Fatalf("no explanation after the report:\n%s", flag.stdout)
	}
	if !strings.Contains(why.stdout, "why offset=1001: "+explanation) {
		t.Fatalf("why in the script says\n%s\n--explain says\n%s", why.stdout, explanation)
	}
	json := streamlab(t, lesson4, "run", "--format", "json", "--explain", "#1001")
	if json.code != 0 || !strings.HasPrefix(json.stdout, "{") || !strings.Contains(json.stderr, "why offset=1001: "+explanation) {
		t.Fatalf("--format json: exit %d, the explanation goes to standard error:\n%s", json.code, json.stderr)
	}
	for key, want := range map[string]string{
		"click@12:00:00": "writes events, not window counts",
		"offset=999999":  "the source has admitted offsets 0–5999 only",
		"12:00":          "not a record id",
		"click":          "names no row",
	} {
		r := streamlab(t, lesson4, "run", "--explain", key)
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("--explain %s: exit %d, %q; want 2 and %q", key, r.code, r.stderr, want)
		}
	}
}
