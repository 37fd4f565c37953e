package bridge

import (
	"errors"
	"strings"

	"github.com/streamlab/streamlab/engine/script"
)

// errNothingRun answers why before the job has written anything.
var errNothingRun = errors.New("nothing has run yet, so the sink has no rows: run first, then ask why about a row of the Output pane")

// why answers `why ROW` from the palette: the row's provenance goes to the
// events pane a line at a time, the command first, its last reason last
// (the message line shows it). Looking changes nothing, so a run in play
// plays on, and the line is not recorded in the session's script.
func (b *Bridge) why(c script.Command, text string) {
	if !b.sess.Started() {
		b.fail(text, errNothingRun)
		return
	}
	p, err := b.sess.Why(c)
	if err != nil {
		b.fail(text, plain(err))
		return
	}
	lines := strings.Split(strings.TrimRight(p.Text(), "\n"), "\n")
	b.note(Result{Line: c.String(), Info: strings.TrimPrefix(lines[0], "why "+c.Args[0].Text+": ")})
	for _, l := range lines[1:] {
		b.note(Result{Info: strings.TrimSpace(l)})
	}
}
