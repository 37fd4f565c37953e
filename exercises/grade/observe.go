package grade

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/exercises/pack"
)

// The observed fields (pack.ObservedFields documents them) are what the
// grader reads off the engine's event log rather than its report: what
// happened during the run, not only how it ended.

// observer keeps the tallies of one run's event log.
type observer struct {
	sub       *bus.Subscription
	missed    int64
	unread    int64 // batch events whose row count could not be read
	kills     int64
	jmKills   int64
	restarts  int64
	leaders   int64
	failed    bool
	written   int64
	killed    []string
	replayed  []string
	maxReplay int64
}

// observeSize bounds the events buffered between two drains: the grader
// drains after every command, and a run far below this limit.
const observeSize = 1 << 18

var batchRows = regexp.MustCompile(`^batch \d+ committed: (\d+) rows$`)

func (o *observer) drain() {
	if o.sub == nil {
		return
	}
	evs, missed := o.sub.Drain()
	o.missed += missed
	for _, e := range evs {
		switch e.Kind {
		case bus.EventNodeKilled:
			if e.Node == engine.JobManager {
				o.jmKills++
			} else {
				o.kills++
				if !slices.Contains(o.killed, e.Node) {
					o.killed = append(o.killed, e.Node)
				}
			}
		case bus.EventNodeRestarted:
			o.restarts++ // a task, or the whole job restored by the job manager
			if !strings.HasPrefix(e.Text, "source replaced") {
				// A replaced source's N is the offset it reads from.
				o.maxReplay = max(o.maxReplay, e.N)
			}
			if e.N > 0 && !slices.Contains(o.replayed, e.Node) {
				o.replayed = append(o.replayed, e.Node)
			}
		case bus.EventLeaderElected:
			o.leaders++
		case bus.EventJobFailed:
			o.failed = true
		case bus.EventBatchCommitted:
			m := batchRows.FindStringSubmatch(e.Text)
			if m == nil {
				o.unread++
				continue
			}
			n, _ := strconv.ParseInt(m[1], 10, 64)
			o.written += n
		}
	}
}

// value returns an observed field's value as lab.Compare takes it.
func (o *observer) value(name string, rep *engine.Report) (any, error) {
	if o.missed > 0 {
		return nil, fmt.Errorf("the event log overflowed (%d events missed): the run is too long to observe", o.missed)
	}
	list := func(s []string) string {
		s = slices.Clone(s)
		slices.Sort(s)
		return strings.Join(s, ",")
	}
	switch name {
	case "events.kills":
		return float64(o.kills), nil
	case "events.jobmanager_kills":
		return float64(o.jmKills), nil
	case "events.restarts":
		return float64(o.restarts), nil
	case "events.leader_elections":
		return float64(o.leaders), nil
	case "events.job_failed":
		return o.failed, nil
	case "events.killed_nodes":
		return list(o.killed), nil
	case "events.replayed_nodes":
		return list(o.replayed), nil
	case "events.max_replayed":
		return float64(o.maxReplay), nil
	case "history.written", "history.rewrites":
		if o.unread > 0 {
			return nil, fmt.Errorf("%s: %d of the sink's commits did not say how many rows they wrote", name, o.unread)
		}
	}
	switch name {
	case "history.written":
		return float64(o.written), nil
	case "history.rewrites":
		return float64(max(o.written-rep.Sink.Rows, 0)), nil
	}
	return nil, fmt.Errorf("unknown observed field %q; expected one of %s", name, strings.Join(pack.ObservedFields(), ", "))
}
