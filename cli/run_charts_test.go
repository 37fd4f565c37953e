package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// run --charts prints the report, then the run's charts; with --format
// json standard output stays one JSON object and the charts go to standard
// error; on a plain terminal they are ASCII.
func TestRunCharts(t *testing.T) {
	isolate(t)
	const script = "job passthrough\nset semantics at-least-once\nset mode append\nset filter bloom m=20000 k=3\nkill map at 1500\nrun 6000\nrun 10s\n"
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("LANG", "C.UTF-8")
	r := streamlab(t, script, "run", "--charts")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	report, charts, ok := strings.Cut(r.stdout, "\nfalse positives against the ids offered (bloom m=20000 k=3)\n")
	if !ok || !strings.Contains(report, "false drops") {
		t.Fatalf("no report then filter chart:\n%s", r.stdout)
	}
	for _, want := range []string{"●", "ids", "fill", "false drops", "expected", "rate now", "delivered, duplicates and lost over virtual time", "✗", "▲"} {
		if !strings.Contains(charts, want) {
			t.Errorf("no %q in the charts:\n%s", want, charts)
		}
	}
	j := streamlab(t, script, "run", "--charts", "--format", "json")
	var v map[string]any
	if err := json.Unmarshal([]byte(j.stdout), &v); err != nil || j.code != 0 {
		t.Fatalf("exit %d, standard output is not one JSON object (%v):\n%s", j.code, err, j.stdout)
	}
	if !strings.Contains(j.stderr, "false positives against the ids offered") {
		t.Errorf("charts not on standard error:\n%s", j.stderr)
	}
	t.Setenv("TERM", "dumb")
	d := streamlab(t, script, "run", "--charts")
	_, ascii, _ := strings.Cut(d.stdout, "\nfalse positives")
	if ascii == "" || strings.ContainsFunc(ascii, func(r rune) bool { return r > 127 }) {
		t.Errorf("TERM=dumb, yet not ASCII:\n%s", ascii)
	}
	// Without a filter, only the ledger; without --charts, no charts.
	plain := streamlab(t, "job clicks\nrun 500\n", "run", "--charts")
	if strings.Contains(plain.stdout, "false positives") || !strings.Contains(plain.stdout, "delivered, duplicates and lost") {
		t.Errorf("clicks --charts:\n%s", plain.stdout)
	}
	if none := streamlab(t, script, "run"); strings.Contains(none.stdout, "over virtual time") {
		t.Error("charts without --charts")
	}
}
