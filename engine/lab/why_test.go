package lab_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
)

// theEvent finds the one event of kind at node.
func theEvent(t *testing.T, evs []bus.Event, kind bus.EventKind, node string) bus.Event {
	t.Helper()
	var found []bus.Event
	for _, e := range evs {
		if e.Kind == kind && e.Node == node {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s events of %s, want 1: %v", len(found), kind, node, found)
	}
	return found[0]
}

func explainRow(t *testing.T, s *lab.Session, row string) engine.Provenance {
	t.Helper()
	p, err := s.Explain(row, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// byAttempt finds the one copy of p that attempt a produced.
func byAttempt(t *testing.T, p engine.Provenance, a int64) engine.Copy {
	t.Helper()
	var found []engine.Copy
	for _, c := range p.Copies {
		if c.Attempt == a {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d copies by attempt %d, want 1: %+v", p.Row, len(found), a, p.Copies)
	}
	return found[0]
}

// A copy is never visible before it was produced.
func producedThenVisible(t *testing.T, p engine.Provenance) {
	t.Helper()
	for _, c := range p.Copies {
		if c.ProducedMS > c.AtMS {
			t.Fatalf("%s: a copy visible at %d ms was produced at %d ms", p.Row, c.AtMS, c.ProducedMS)
		}
	}
}

// Under at least once the sink holds what it receives until the trigger
// makes it a batch; the trigger that follows the kill of filter reaches
// it only after filter's restart, so the copies filter's first attempt
// produced before it died and the copies its second attempt replayed
// become visible in one batch. Each copy is put down to the attempt that
// produced it, when it produced it, not to the attempt running when the
// batch became visible: one duplicated row had both copies called "filter
// attempt 2", and the explanation blamed the replay for both.
func TestWhyTellsACopyHeldAcrossAKillFromItsReplay(t *testing.T) {
	s, evs := watch(t, "held.lab", "job passthrough\nset mode append\nset semantics at-least-once\nkill filter at 1200\nrun 3000\nrun 30s\n")
	kill := theEvent(t, evs, bus.EventNodeKilled, "filter")
	restart := theEvent(t, evs, bus.EventNodeRestarted, "filter")
	check := func(row string) (held bool) {
		p := explainRow(t, s, row)
		if p.Got != 2 || p.Expected != 1 || p.Written != 2 {
			t.Fatalf("%s: %d copies of %d, %d written", row, p.Got, p.Expected, p.Written)
		}
		producedThenVisible(t, p)
		first, again := byAttempt(t, p, 1), byAttempt(t, p, 2)
		if first.Node != "filter" || first.ProducedMS < 0 || first.ProducedMS > kill.TimeMS || first.Episode >= 0 {
			t.Fatalf("%s: the first copy %+v; want filter's first attempt, produced before the kill at %d ms, after no restart", row, first, kill.TimeMS)
		}
		if again.Node != "filter" || again.ProducedMS < restart.TimeMS || again.Episode < 0 || p.Episodes[again.Episode].Restart.Seq != restart.Seq {
			t.Fatalf("%s: the extra copy %+v; want filter's second attempt, produced by the replay at %d ms", row, again, restart.TimeMS)
		}
		text := p.Text()
		if !strings.Contains(text, "written again by filter attempt 2") {
			t.Fatalf("the explanation does not put the extra copy down to the replay:\n%s", text)
		}
		held = first.AtMS >= restart.TimeMS
		said := strings.Contains(text, fmt.Sprintf("filter attempt 1 produced a copy at %d.%03d s, before the failure; the sink held it until batch %d",
			first.ProducedMS/1000, first.ProducedMS%1000, first.Batch))
		if held != said {
			t.Fatalf("held across the failure: %v; the explanation says so: %v\n%s", held, said, text)
		}
		return held
	}
	if !check("offset=1190") {
		t.Fatal("offset=1190's first copy was not held across the failure")
	}
	extra, held := 0, 0
	for _, d := range s.Running().DifferingRows(1 << 20) {
		if d.Got > d.Expected {
			extra++
			if check(d.Row) {
				held++
			}
		}
	}
	if held == 0 || held == extra {
		t.Fatalf("%d of %d duplicated rows held across the failure; want some, not all", held, extra)
	}
}

// Killing the sink under at least once makes filter resend from its
// output queue what the sink had not acknowledged: the extra copy is the
// one filter's first attempt produced, resent (when, the queue does not
// keep), and it is put down to the sink's restart.
func TestWhySaysACopyWasResentFromAnOutputQueue(t *testing.T) {
	s, evs := watch(t, "resent.lab", "job passthrough\nset mode append\nset semantics at-least-once\nkill sink at 1200\nrun 3000\nrun 30s\n")
	kill := theEvent(t, evs, bus.EventNodeKilled, "sink")
	restart := theEvent(t, evs, bus.EventNodeRestarted, "sink")
	extra := 0
	for _, d := range s.Running().DifferingRows(1 << 20) {
		if d.Got <= d.Expected {
			continue
		}
		extra++
		p := explainRow(t, s, d.Row)
		if len(p.Copies) != 2 {
			t.Fatalf("%s: copies %+v", d.Row, p.Copies)
		}
		first, again := p.Copies[0], p.Copies[1]
		if first.Attempt != 1 || again.Attempt != 1 || first.ProducedMS < 0 || first.ProducedMS > kill.TimeMS {
			t.Fatalf("%s: copies %+v; want both by filter's first attempt, the first produced before the kill at %d ms", d.Row, p.Copies, kill.TimeMS)
		}
		if again.ProducedMS != -1 || again.AtMS < restart.TimeMS || again.Episode < 0 || p.Episodes[again.Episode].Restart.Seq != restart.Seq {
			t.Fatalf("%s: the extra copy %+v; want one resent after the sink's restart at %d ms", d.Row, again, restart.TimeMS)
		}
		if text := p.Text(); !strings.Contains(text, "produced by filter attempt 1 and resent from its output queue") {
			t.Fatalf("the explanation does not say the copy was resent:\n%s", text)
		}
	}
	if extra == 0 {
		t.Fatal("no duplicated row")
	}
}

// Under exactly once the table sink pre-commits each batch in the
// checkpoint's transaction and makes it visible when the checkpoint
// completes; the kill of filter aborts the transactions after the last
// completed checkpoint. A copy rolled back is not a copy written: every
// row is written once, by the attempt whose transaction committed, and
// the rows that arrived between the checkpoint and the kill were written
// by the second attempt, in the replay after the restore.
func TestWhyCountsNoRolledBackCopy(t *testing.T) {
	s, evs := watch(t, "exactly.lab", "job passthrough\nset semantics exactly-once\nset sink table\nset mode append\nkill filter at 1200\nrun 3000\nrun 30s\n")
	kill := theEvent(t, evs, bus.EventNodeKilled, "filter")
	restore := theEvent(t, evs, bus.EventNodeRestarted, engine.JobManager)
	batchAt := map[int64]int64{}
	for _, e := range evs {
		if e.Kind == bus.EventBatchCommitted {
			batchAt[e.N] = e.TimeMS
		}
	}
	rt := s.Running()
	rolledBack, kept := 0, 0
	for off := range int64(3000) {
		p := explainRow(t, s, fmt.Sprintf("offset=%d", off))
		if p.Expected == 0 {
			continue
		}
		if p.Got != 1 || p.Written != 1 || len(p.Copies) != 1 || p.Causes[0] != "the sink holds what the failure-free run holds for this row" {
			t.Fatalf("offset %d: %d of %d, %d copies written: %v", off, p.Got, p.Expected, p.Written, p.Causes)
		}
		producedThenVisible(t, p)
		c := p.Copies[0]
		if at, ok := batchAt[c.Batch]; !ok || at < c.ProducedMS || at > c.AtMS {
			t.Fatalf("offset %d: copy %+v in a batch written at %d ms (%v)", off, c, at, ok)
		}
		switch {
		case c.Attempt == 1 && c.ProducedMS >= 0 && c.ProducedMS <= kill.TimeMS:
			kept++
		case c.Attempt == 2 && c.ProducedMS >= restore.TimeMS:
			if rt.Source().Arrival(off) < kill.TimeMS {
				rolledBack++
			}
		default:
			t.Fatalf("offset %d: copy %+v; the kill was at %d ms, the restore at %d ms", off, c, kill.TimeMS, restore.TimeMS)
		}
	}
	if rolledBack == 0 || kept == 0 {
		t.Fatalf("%d rows kept from the first attempt, %d rolled back and written by the second; want both", kept, rolledBack)
	}
}

// In complete mode the sink holds batches back while count[1] is down (a
// batch without one counter's table would replace the result with part of
// it): the rows of the batches it discards are no copies. Every row's
// copies are in batches before the kill or after the restart, one a
// batch, produced by count[1]'s first attempt before the kill and by its
// second after, and count[0]'s rows are untouched by the failure.
func TestWhyInCompleteModeCountsNoDiscardedBatch(t *testing.T) {
	s, evs := watch(t, "complete.lab", "job clicks\nset semantics at-least-once\nset mode complete\nset sink table\nkill count[1] at 200\nrun 1000\n")
	kill := theEvent(t, evs, bus.EventNodeKilled, "count[1]")
	restart := theEvent(t, evs, bus.EventNodeRestarted, "count[1]")
	theEvent(t, evs, bus.EventBatchHeld, "sink")
	writers := map[string]int{}
	for _, key := range []string{"click", "close", "open", "scroll", "view"} {
		p := explainRow(t, s, key+"@12:00:00")
		writers[p.Writer]++
		if p.Got != p.Expected || p.Written != int64(len(p.Copies)) || len(p.Copies) < 3 {
			t.Fatalf("%s: %d of %d, %d copies written, %d kept", p.Row, p.Got, p.Expected, p.Written, len(p.Copies))
		}
		producedThenVisible(t, p)
		attempts := map[int64]int{}
		for i, c := range p.Copies {
			if i > 0 && c.Batch <= p.Copies[i-1].Batch {
				t.Fatalf("%s: two copies in batch %d: %+v", p.Row, c.Batch, p.Copies)
			}
			if c.AtMS > kill.TimeMS && c.AtMS < restart.TimeMS {
				t.Fatalf("%s: a copy visible at %d ms, while count[1] was down (%d–%d ms)", p.Row, c.AtMS, kill.TimeMS, restart.TimeMS)
			}
			want := int64(1)
			if p.Writer == "count[1]" && c.ProducedMS >= restart.TimeMS {
				want = 2
			} else if p.Writer == "count[1]" && c.ProducedMS > kill.TimeMS {
				t.Fatalf("%s: count[1] produced a copy at %d ms, while it was down", p.Row, c.ProducedMS)
			}
			if c.Node != p.Writer || c.Attempt != want {
				t.Fatalf("%s: copy %+v; want %s attempt %d", p.Row, c, p.Writer, want)
			}
			attempts[c.Attempt]++
		}
		touched := []string{"the sink holds what the failure-free run holds for this row"}
		if p.Writer == "count[1]" {
			touched = append(touched, "a failure touched it, and recovery made it whole again")
			if attempts[1] == 0 || attempts[2] == 0 {
				t.Fatalf("%s: copies by attempt %v; want both of count[1]'s", p.Row, attempts)
			}
		}
		if strings.Join(p.Causes, "|") != strings.Join(touched, "|") {
			t.Fatalf("%s: because %q; want %q", p.Row, p.Causes, touched)
		}
	}
	if writers["count[0]"] == 0 || writers["count[1]"] == 0 {
		t.Fatalf("the keys do not spread over both counters: %v", writers)
	}
}
