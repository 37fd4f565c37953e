package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// The Result's timeline is the job's the report describes, read before
// the job closed: it ends where the report's sink does.
func TestResultTimelineEndsWithTheReport(t *testing.T) {
	src := []byte("job clicks\nset semantics at-least-once\nkill count[1] at 300\nrun 2000\nrun 10s\n")
	res, err := lab.RunScript(context.Background(), "t.lab", src, lab.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl, rep := res.Timeline, res.Report
	if len(tl.Samples) == 0 {
		t.Fatal("the result has no timeline")
	}
	if last := tl.Samples[len(tl.Samples)-1]; last.Delivered != rep.Sink.Delivered || last.Lost != rep.Sink.Lost {
		t.Errorf("timeline ends at %+v, the report's sink is %+v", last.LedgerTotals, rep.Sink)
	}
	if res.Filter != nil {
		t.Errorf("a job without a Bloom filter has a filter curve: %+v", res.Filter)
	}
}

// A Bloom filter's curve comes with the result, and the rows Explain names
// are explained in order until one the engine cannot explain.
func TestResultCarriesTheFilterAndTheExplanations(t *testing.T) {
	src := []byte("job passthrough\nset semantics at-least-once\nset mode append\nset filter bloom m=20000 k=3\nrun 3000\n")
	rows := []script.Row{}
	for _, text := range []string{"offset=10", "offset=11", "offset=99999999", "offset=12"} {
		r, err := script.ParseRow(text)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	res, err := lab.RunScript(context.Background(), "t.lab", src, lab.Options{Explain: rows})
	if err != nil {
		t.Fatal(err)
	}
	if res.Filter == nil || res.Filter.Kind == "" {
		t.Fatalf("no filter curve for a Bloom filter: %+v", res.Filter)
	}
	if len(res.Explained) != 2 || res.ExplainErr == nil {
		t.Fatalf("explained %d rows, error %v; want the two before the row no run has", len(res.Explained), res.ExplainErr)
	}
	if !strings.Contains(res.Explained[1].Text(), "offset=11") {
		t.Errorf("the second explanation is not offset=11's:\n%s", res.Explained[1].Text())
	}
}
