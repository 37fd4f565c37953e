package lab_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/streamlab/streamlab/engine/internal/refmodel"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
)

// cellCounts are the counts a reader of a results table sees, per window
// and key (update mode: one row each).
func cellCounts(rows []refmodel.Row) map[refmodel.Row]int64 {
	out := map[refmodel.Row]int64{}
	for _, r := range rows {
		out[refmodel.Row{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Key: r.Key}] = r.Value
	}
	return out
}

// A Bloom filter after an aggregation drops result rows by mistake, each a
// window's count. While count[0] is down, lost is what those mistakes
// cost in counts and pending the rest of what the table lacks; recovery
// then delivers at least what was pending. Judged against the table read
// back with SQL and the reference model's failure-free table, once while
// count[0] is down and once after its restart, when nothing is pending and
// lost is all the table lacks.
func TestBloomFalseDropsOnAnAggregationAreLostInCounts(t *testing.T) {
	const prefix = "job clicks\nset semantics at-least-once\nset deployment standalone\nset sink table\n" +
		"set filter bloom m=256 k=3\nrun 2000\nkill count[0]\nrun 500\n"
	seed := int64(3)
	dir := t.TempDir()
	downDB, endDB, dump := filepath.Join(dir, "down.db"), filepath.Join(dir, "end.db"), filepath.Join(dir, "source.jsonl")
	down := runIn(t, dir, prefix, lab.Options{Seed: &seed, DBPath: downDB})
	end := runIn(t, dir, prefix+"restart count[0]\nrun 500\n", lab.Options{Seed: &seed, DBPath: endDB, DumpSource: dump})

	f, err := os.Open(dump)
	if err != nil {
		t.Fatal(err)
	}
	events, err := refmodel.ReadDump(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := jobspec.Builtin("clicks")
	model := func(records ...int64) map[refmodel.Row]int64 {
		adm := refmodel.NewAdmissions(spec.Source.Rate)
		for _, n := range records {
			adm.Records(n)
		}
		out, err := refmodel.Run(spec, "update", events, adm.Bounds)
		if err != nil {
			t.Fatal(err)
		}
		return cellCounts(out.Rows)
	}
	expDown, expEnd := model(2000, 500), model(2000, 500, 500)
	gotDown, gotEnd := cellCounts(resultRows(t, downDB)), cellCounts(resultRows(t, endDB))

	// The keys count[1] counts are those with rows in windows that begin
	// after count[0] was killed: the first 2000 records arrived before
	// then, and an event's time never runs ahead of its arrival. Nothing
	// of theirs waits for a recovery, so what their cells lack is what the
	// filter dropped.
	killedAt := spec.Source.Start.UnixMilli() + 2000*1000/int64(spec.Source.Rate)
	alive := map[string]bool{}
	for c := range gotDown {
		if c.WindowStart >= killedAt {
			alive[c.Key] = true
		}
	}
	var lacksDown, lacksAlive, recovered, lacksEnd int64
	for c, exp := range expDown {
		lack := max(exp-gotDown[c], 0)
		lacksDown += lack
		if alive[c.Key] {
			lacksAlive += lack
		}
		recovered += max(min(gotEnd[c], exp)-gotDown[c], 0)
	}
	for c, exp := range expEnd {
		lacksEnd += max(exp-gotEnd[c], 0)
	}

	d := down.Sink
	t.Logf("down: lost %d, pending %d, false drops %d; the table lacks %d (%d on count[1]'s keys), recovery delivered %d of it; end: lost %d, pending %d, the table lacks %d",
		d.Lost, d.Pending, down.Filter.FalseDrops, lacksDown, lacksAlive, recovered, end.Sink.Lost, end.Sink.Pending, lacksEnd)
	if down.Filter.FalseDrops == 0 || d.Pending == 0 {
		t.Fatalf("the scenario shows nothing: %d false drops, %d pending", down.Filter.FalseDrops, d.Pending)
	}
	if d.Lost+d.Pending != lacksDown {
		t.Errorf("down: lost %d + pending %d, but the table lacks %d counts against the model", d.Lost, d.Pending, lacksDown)
	}
	if len(alive) == 0 || len(alive) == len(spec.Source.Actions) {
		t.Fatalf("count[1] counts %d of %d keys: the scenario tells nothing apart", len(alive), len(spec.Source.Actions))
	}
	if d.Lost < lacksAlive {
		t.Errorf("down: lost %d, but the cells of count[1], which is up, lack %d counts the filter dropped", d.Lost, lacksAlive)
	}
	if d.Pending > recovered {
		t.Errorf("down: %d pending, but recovery delivered only %d of what the table lacked: the rest was lost", d.Pending, recovered)
	}
	if end.Sink.Pending != 0 || end.Sink.Lost != lacksEnd {
		t.Errorf("after the restart: lost %d, pending %d; the table lacks %d counts against the model", end.Sink.Lost, end.Sink.Pending, lacksEnd)
	}
}
