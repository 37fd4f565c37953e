package bridge

import (
	"strings"

	"github.com/streamlab/streamlab/tui/draw"
)

// hideHome applies ShowHome to everything a frame tells in words.
func (f *Frame) hideHome(home string) {
	if home == "" {
		return
	}
	for i := range f.Results {
		r := &f.Results[i]
		r.Info, r.Err, r.Saved = draw.ShowHome(home, r.Info), draw.ShowHome(home, r.Err), draw.ShowHome(home, r.Saved)
	}
	for i := range f.Events {
		f.Events[i].Text = draw.ShowHome(home, f.Events[i].Text)
	}
	f.Snap.Error = draw.ShowHome(home, f.Snap.Error)
	if f.Report != nil && strings.Contains(f.Report.Job.Error, home) {
		rep := *f.Report // shared with frames already sent: not written to
		rep.Job.Error = draw.ShowHome(home, rep.Job.Error)
		f.Report = &rep
	}
}
