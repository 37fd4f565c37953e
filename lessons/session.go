package lessons

import (
	"context"
	"path/filepath"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// busBuffer is how many events a runner's subscription holds between two
// commands; a `run` of a few thousand records publishes a few hundred.
const busBuffer = 1 << 16

// runner drives lab sessions headless the way the terminal lab does, one
// lab-script line at a time, and turns each line into an Observation.
type runner struct {
	dir  string // the lesson's files; sessions resolve job paths here
	seed int64
	line int
	sess *lab.Session
	sub  *bus.Subscription
}

// fresh replaces the session with a new one.
func (r *runner) fresh() {
	r.close()
	seed := r.seed
	r.sess = lab.NewSession(filepath.Join(r.dir, "solution.lab"), lab.Options{Seed: &seed})
	r.sub = r.sess.Subscribe(busBuffer)
	r.line = 0
}

func (r *runner) close() {
	if r.sess == nil {
		return
	}
	r.sess.Close()
	r.sess, r.sub = nil, nil
}

// exec runs one line and returns what it showed; err is the engine's
// refusal of the line, which the observation also carries.
func (r *runner) exec(ctx context.Context, line string) (Observation, error) {
	r.line++
	c, err := script.ParseLine(filepath.Join(r.dir, "solution.lab"), r.line, line)
	if err == nil {
		if script.StartsJob(c.Verb) {
			// Start the job before the command, as the terminal lab does,
			// so the subscription sees every event the command causes.
			// A configuration the engine refuses is left to the command
			// itself to report.
			_ = r.sess.Start()
		}
		err = r.sess.Exec(ctx, c)
	}
	var o Observation
	if err != nil {
		o.Rejected = []Rejection{{Line: line, Err: err.Error()}}
	}
	if r.sess.Started() {
		o.Events, _ = r.sub.Drain()
		if rep, repErr := r.sess.ReportContext(ctx); repErr == nil {
			o.Report = rep
		}
	}
	return o, err
}
