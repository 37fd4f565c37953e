package reportview

import (
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/report"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func field(t *testing.T, rep *report.Report, name string) (string, bool) {
	t.Helper()
	secs, err := Sections(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		for _, f := range s.Fields {
			if f.Name(s) == name {
				return f.Value, true
			}
		}
	}
	return "", false
}

// The overlay reads as the text report does: the watermark is a time
// (with the number expect compares), fractions are rounded, and a full
// Bloom filter's size is unknown, never -1; the JSON keeps every digit.
func TestReportReadsAsATextReport(t *testing.T) {
	approx := 183.64218811204796
	rep := &report.Report{
		Window: report.WindowReport{Watermark: 1767268812000},
		Filter: report.FilterReport{Kind: "bloom", FillRatio: 0.5200320512820513, EstimatedFP: 0.07767380822212577,
			ExpectedFalseDrops: 12.792593997716992, BitsPerElement: 12, ApproxSize: &approx},
	}
	for name, want := range map[string]string{
		"window.watermark":              "2026-01-01 12:00:12.000 (1767268812000)",
		"filter.fill_ratio":             "0.52",
		"filter.estimated_fp":           "0.07767",
		"filter.expected_false_drops":   "12.79",
		"filter.approx_size":            "183.6",
		"filter.bits_per_element":       "12",
		"filter.exact_bits_per_element": "0",
	} {
		if got, _ := field(t, rep, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	raw, _ := json.Marshal(rep)
	if !strings.Contains(string(raw), `"fill_ratio":0.5200320512820513`) || !strings.Contains(string(raw), `"watermark":1767268812000`) {
		t.Errorf("the JSON report lost digits: %s", raw)
	}

	rep.Filter.ApproxSize = nil // every bit set
	rep.Window.Watermark = 0
	if got, _ := field(t, rep, "filter.approx_size"); !strings.HasPrefix(got, "unknown") {
		t.Errorf("a full filter's approx_size = %q, want unknown", got)
	}
	if got, _ := field(t, rep, "window.watermark"); got != "none yet (0)" {
		t.Errorf("no watermark shows %q", got)
	}
	raw, _ = json.Marshal(rep)
	if strings.Contains(string(raw), "approx_size") {
		t.Errorf("the JSON report gives an unknown size: %s", raw)
	}
	rep.Filter.Kind = "none"
	if _, ok := field(t, rep, "filter.approx_size"); ok {
		t.Error("a job without a filter shows approx_size")
	}
}
