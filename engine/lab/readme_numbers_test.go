package lab_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
)

// thousands writes 14980 as "14 980", as the README does.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// The numbers in the README's tables are what the engine produces for the
// scripts printed beside them.
func TestREADMENumbers(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	run := func(src string) map[string]any {
		t.Helper()
		res, err := lab.RunScript(context.Background(), "readme.lab", []byte(src), lab.Options{})
		rep := res.Report
		if err != nil {
			t.Fatal(err)
		}
		fields := map[string]any{}
		for _, f := range report.Fields(rep) {
			v, _ := lab.Field(rep, f)
			fields[f] = v
		}
		return fields
	}
	num := func(v any) string { return thousands(int64(v.(float64))) }
	for _, ha := range []string{"upstream-backup", "passive-standby", "active-standby"} {
		semantics := "exactly-once"
		if ha == "upstream-backup" {
			semantics = "at-least-once"
		}
		f := run(fmt.Sprintf("job passthrough\nset semantics %s\nset ha %s\nset sink table\nset filter exact\nkill map at 1500\nrun 3000\nrun 30s\n", semantics, ha))
		row := fmt.Sprintf("| %s | %s | %s | %s | %s |", ha, num(f["recovery.time_ms"]), num(f["recovery.overhead_bytes"]),
			num(f["recovery.backup_bytes"]), num(f["recovery.replayed"]))
		if !strings.Contains(readme, row+"\n") {
			t.Errorf("README.md lacks the row\n%s", row)
		}
	}
	for spec, label := range map[string]string{"": "none", "bloom m=512 k=3": "`bloom m=512 k=3`", "bloom n=10000 p=0.01": "`bloom n=10000 p=0.01`", "exact": "`exact`"} {
		set := ""
		if spec != "" {
			set = "set filter " + spec + "\n"
		}
		f := run("job passthrough\nset semantics at-least-once\nset mode append\n" + set + "run 1000\nkill map at 1500\nrun 2000\nrun 10s\n")
		prefix := fmt.Sprintf("| %s | %s | %s |", label, num(f["sink.duplicates"]), num(f["sink.lost"]))
		if !strings.Contains(readme, prefix) {
			t.Errorf("README.md lacks a row starting\n%s", prefix)
		}
		if spec == "" {
			continue
		}
		if b := num(f["filter.bytes"]); !strings.Contains(readme, prefix) || !strings.Contains(readme[strings.Index(readme, prefix):], " "+b+" |") {
			t.Errorf("README.md's %s row should end with %s bytes", label, b)
		}
	}
}
