package bridge

// reportEvery is how many frames apart the report is refreshed while a run
// plays: working it out drains the failure-free reference, more work than
// a frame's snapshot.
const reportEvery = 5

// reportWatch is whether frames carry the session's report: the report
// overlay is open.
type reportWatch struct {
	on  bool
	now bool // the next frame carries it, whatever the frame's number
}

// start watches the report from the next frame on; stop stops.
func (w *reportWatch) start() { w.on, w.now = true, true }

func (w *reportWatch) stop() { w.on = false }

// due reports whether frame seq carries the report: every frame while time
// stands still, every few while it runs, and the next after start.
func (w *reportWatch) due(paused bool, seq int64) bool {
	if !paused && !w.now && seq%reportEvery != 0 {
		return false
	}
	w.now = false
	return true
}

// probeWatch is the record id whose bits in the filter every frame
// carries, while on.
type probeWatch struct {
	id uint64
	on bool
}
