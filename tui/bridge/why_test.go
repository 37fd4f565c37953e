package bridge

import (
	"strings"
	"testing"
)

// why from the palette puts the row's provenance in the events pane a
// line at a time, records nothing, and refuses a row the run has not.
func TestWhyFromThePalette(t *testing.T) {
	b := newBridge(t, Options{Job: "passthrough", Seed: 1})
	b.Handle(Request{Kind: Line, Line: "why offset=3"})
	if rs := b.Frame().Results; len(rs) != 1 || !strings.Contains(rs[0].Err, "nothing has run yet") {
		t.Fatalf("why before a run: %+v", rs)
	}
	for _, line := range []string{"set mode append", "set semantics at-least-once", "kill filter at 1200", "run 3000", "run 30s"} {
		b.Handle(Request{Kind: Line, Line: line})
	}
	finish(t, b)
	b.Frame()
	recorded := len(b.Script())
	b.Handle(Request{Kind: Line, Line: "why offset=1001"})
	rs := b.Frame().Results
	if len(rs) < 5 || rs[0].Line != "why offset=1001" || !strings.Contains(rs[0].Info, "written by filter") {
		t.Fatalf("results %+v", rs)
	}
	all := ""
	for _, r := range rs[1:] {
		if r.Line != "" || r.Err != "" {
			t.Errorf("a detail line is not a note: %+v", r)
		}
		all += r.Info + "\n"
	}
	if !strings.Contains(all, "filter killed after 1200 records") || !strings.Contains(all, "because: written again by filter attempt 2") {
		t.Errorf("the explanation does not name the kill and the replay:\n%s", all)
	}
	if len(b.Script()) != recorded {
		t.Errorf("why was recorded: %q", b.Script())
	}
	b.Handle(Request{Kind: Line, Line: "why click@12:00:10"})
	if rs := b.Frame().Results; len(rs) != 1 || !strings.Contains(rs[0].Err, "writes events, not window counts") {
		t.Errorf("why on a window of an event job: %+v", rs)
	}
}
