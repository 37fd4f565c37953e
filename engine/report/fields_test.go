package report_test

import (
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/report"
)

func TestLookupReadsTheJSONNames(t *testing.T) {
	rep := &report.Report{Job: report.JobReport{State: "finished"}, Sink: report.SinkReport{Lost: 7, Correct: true}}
	for name, want := range map[string]any{"sink.lost": 7.0, "sink.correct": true, "job.state": "finished"} {
		got, err := report.Lookup(rep, name)
		if err != nil || got != want {
			t.Errorf("Lookup(%s) = %v, %v; want %v", name, got, err, want)
		}
	}
	for name, msg := range map[string]string{
		"sink.lots":      `unknown report field "sink.lots"; expected one of `,
		"sink.lost.more": `unknown report field "sink.lost.more"`,
		"sink":           `report field "sink" is not a number, a boolean or a text`,
		"expectations":   `report field "expectations" is not a number, a boolean or a text`,
	} {
		if _, err := report.Lookup(rep, name); err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("Lookup(%s): error %v, want it to start %q", name, err, msg)
		}
	}
}

func TestTypesFollowTheValues(t *testing.T) {
	types := report.Types(&report.Report{})
	for name, want := range map[string]string{"sink.lost": report.TypeNumber, "sink.correct": report.TypeBool, "job.state": report.TypeString} {
		if types[name] != want {
			t.Errorf("%s is %q, want %q", name, types[name], want)
		}
	}
	if _, ok := types["job.error"]; ok {
		t.Error("job.error is left out of the JSON when unset, so it is not a field of this report")
	}
	if got := report.Fields(&report.Report{}); len(got) != len(types) || !strings.HasPrefix(strings.Join(got, " "), "checkpoints.") {
		t.Errorf("Fields = %v: want the %d typed names, sorted", got, len(types))
	}
}

func TestFormatWritesValuesAsTheReportDoes(t *testing.T) {
	for v, want := range map[any]string{0.1: "0.1", 1e21: "1e+21", 3.0: "3", true: "true", "finished": "finished"} {
		if got := report.Format(v); got != want {
			t.Errorf("Format(%v) = %q, want %q", v, got, want)
		}
	}
}
