// Package bus carries what the engine does to whoever watches it (the lab's
// panes, a lesson's tracker, the grader's observer) as a stream of events,
// without ever letting a slow watcher block the engine. It imports nothing
// of streamlab; the engine publishes into it.
package bus

import "sync"

// EventKind says what happened.
type EventKind string

// Event kinds.
const (
	EventJobStarted       EventKind = "job-started"
	EventAdmitted         EventKind = "admitted"        // N records admitted from the source
	EventBatchCommitted   EventKind = "batch-committed" // the sink committed micro-batch N
	EventWatermark        EventKind = "watermark"       // the sink's watermark advanced to N (Unix ms)
	EventDroppedLate      EventKind = "dropped-late"    // N records arrived after their window was final, so far
	EventRunQuiet         EventKind = "run-quiet"       // everything admitted has been processed
	EventJobFailed        EventKind = "job-failed"
	EventNodeKilled       EventKind = "node-killed"
	EventRestartScheduled EventKind = "restart-scheduled" // N: the delay, ms
	EventNodeRestarted    EventKind = "node-restarted"    // N: records replayed
	EventCheckpoint       EventKind = "checkpoint"        // N: the checkpoint id
	EventLeaderElected    EventKind = "leader-elected"    // a standby job manager took over; N: ms without a leader
	EventKillUnfired      EventKind = "kill-unfired"      // a scheduled kill has not fired by the end of a run; N: its record count
	EventBatchHeld        EventKind = "batch-held"        // complete mode: a trigger's batch not committed, as not every upstream node sent its table; N: triggers held in a row
)

// Event is one thing the engine tells its observers.
type Event struct {
	Seq    int64     // 1, 2, … in the order published
	TimeMS int64     // virtual time
	Kind   EventKind // what happened
	Node   string    // the node concerned, if any
	N      int64     // a count or value, by kind
	Text   string    // a sentence for people
}

// Bus fans events out to subscribers without ever blocking the engine: each
// subscriber has a bounded buffer, and when it falls behind its oldest
// events are dropped and counted.
type Bus struct {
	mu   sync.Mutex
	seq  int64
	subs []*Subscription
}

// Subscription is one observer's buffer.
type Subscription struct {
	mu     sync.Mutex
	buf    []Event
	size   int
	missed int64
	ready  chan struct{}
}

// Subscribe returns a subscription that buffers up to size events.
func (b *Bus) Subscribe(size int) *Subscription {
	s := NewSubscription(size)
	b.Add(s)
	return s
}

// NewSubscription makes a subscription that buffers up to size events and
// is on no bus yet: a watcher can hold it before the engine it watches
// exists, and Add puts it on that engine's bus once it does.
func NewSubscription(size int) *Subscription {
	return &Subscription{size: max(size, 1), ready: make(chan struct{}, 1)}
}

// Add delivers the events published from now on to s as well.
func (b *Bus) Add(s *Subscription) {
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
}

// Unsubscribe stops delivery to s.
func (b *Bus) Unsubscribe(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, x := range b.subs {
		if x == s {
			b.subs = append(b.subs[:i], b.subs[i+1:]...)
			return
		}
	}
}

// Publish delivers e to every subscriber, stamping its sequence number.
func (b *Bus) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	e.Seq = b.seq
	for _, s := range b.subs {
		s.push(e)
	}
}

func (s *Subscription) push(e Event) {
	s.mu.Lock()
	if len(s.buf) == s.size {
		// Full: the oldest goes. buf is a window into a backing array
		// twice the size, moved down only when it reaches the end, so a
		// slow subscriber costs O(1) per event, not a copy of the buffer.
		s.buf = s.buf[1:]
		s.missed++
		if cap(s.buf) == len(s.buf) {
			s.buf = append(make([]Event, 0, 2*s.size), s.buf...)
		}
	}
	s.buf = append(s.buf, e)
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Ready is signalled (at most one pending signal) when events arrive.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Drain returns the buffered events and how many were dropped since the
// last Drain.
func (s *Subscription) Drain() (events []Event, missed int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	events, s.buf = s.buf, nil
	missed, s.missed = s.missed, 0
	return events, missed
}
