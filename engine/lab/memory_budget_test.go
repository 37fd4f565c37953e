package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
)

// windowsNeverClosed opens a thousand windows a record and never closes
// one: with no watermark, every window stays open.
const windowsNeverClosed = `job clicks
set window 1s
set window.slide 1ms
set source.watermark none
set source.rate 10
run 1000
`

// TestMemoryBudgetStopsTheRunAndSaysWhy: a script whose windows pile up
// ends with the job failed and a report that says the budget was passed,
// by what and which settings help.
func TestMemoryBudgetStopsTheRunAndSaysWhy(t *testing.T) {
	res, err := lab.RunScript(context.Background(), "w.lab", []byte(windowsNeverClosed), lab.Options{MemoryBudget: 20_000_000})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Job.State != "failed" {
		t.Fatalf("the job is %s, want failed over the budget", rep.Job.State)
	}
	for _, want := range []string{"memory budget", "of the 20.0 MB it may hold", "most of it is", "set window.slide"} {
		if !strings.Contains(rep.Job.Error, want) {
			t.Errorf("the report's error %q does not say %q", rep.Job.Error, want)
		}
	}
}

// TestSetFilterPastTheBudgetIsRefused: a Bloom filter bigger than the
// budget is refused at its set line, naming the line and the sizes.
func TestSetFilterPastTheBudgetIsRefused(t *testing.T) {
	src := "job passthrough\nset filter bloom m=1000000000 k=3\nrun 10\n"
	_, err := lab.RunScript(context.Background(), "f.lab", []byte(src), lab.Options{MemoryBudget: 64_000_000})
	if err == nil || !strings.Contains(err.Error(), "f.lab:2:") || !strings.Contains(err.Error(), "125.0 MB of bits before a record comes, of the 64.0 MB") {
		t.Errorf("a 125 MB filter under a 64 MB budget: %v", err)
	}
	if _, err := lab.RunScript(context.Background(), "f.lab", []byte(src), lab.Options{}); err != nil {
		t.Errorf("a 125 MB filter under the default budget: %v", err)
	}
}

// TestSlideFanOutIsRefusedAtItsLine: a slide that would put every record
// in more windows than a record may fan out to is refused at the line
// that asks for it, saying how many and the most.
func TestSlideFanOutIsRefusedAtItsLine(t *testing.T) {
	src := "job clicks\nset window 1h\nset window.slide 1ms\nrun 10\n"
	_, err := lab.RunScript(context.Background(), "s.lab", []byte(src), lab.Options{})
	if err == nil || !strings.Contains(err.Error(), "s.lab:3:") || !strings.Contains(err.Error(), "3600000 windows; at most 1000") {
		t.Errorf("a 1h window sliding by 1ms: %v", err)
	}
}
