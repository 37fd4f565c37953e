package engine

// Record is what flows between nodes: a source event, or (after an
// aggregation) one result row for a key and window.
type Record struct {
	// ID identifies a source event uniquely within a job and seed; result
	// rows carry 0.
	ID uint64
	// Offset is the event's position in the source log; result rows carry -1.
	Offset int64
	// Time is the event time in Unix milliseconds.
	Time   int64
	Device int32
	// senderRestarts is how often the node that last sent the record had
	// been restarted when it sent it (0: its first attempt), for the
	// lineage. It fills what would be padding after Device, so a record
	// costs no more memory; the sink takes it off (sinkOp.receive), so the
	// rows it writes compare as before.
	senderRestarts int32
	Action         string
	// Key partitions the stream (the action, for the built-in jobs).
	Key string
	// WindowStart and WindowEnd (exclusive, Unix ms) and Value describe a
	// result row.
	WindowStart int64
	WindowEnd   int64
	Value       int64
}

// IsResult reports whether r is an aggregation result rather than an event.
func (r Record) IsResult() bool { return r.Offset < 0 }

// kind tells the elements of a stream apart.
type kind uint8

const (
	kindRecord    kind = iota
	kindWatermark      // value: the sender's watermark, Unix ms
	kindTrigger        // a processing-time trigger: aggregations emit, sinks commit
	kindBarrier        // a checkpoint barrier: nodes snapshot their state
	kindEnd            // the end of a run: nodes stop once every input sent it
	kindCommit         // the job manager's word to the sink that checkpoint id completed: commit
)

// element is one item on a channel between nodes. Triggers, barriers and
// ends are markers, numbered by the source in one sequence (value): every
// channel carries the same markers in the same order, so a node with
// several inputs can align them (Carbone et al., 2015).
type element struct {
	kind  kind
	value int64 // a watermark (Unix ms) or a marker's sequence number
	// id is a barrier's checkpoint id; on a record sent to the sink, the
	// restarts the job had seen when it was sent (see stampForSink).
	id int64
	// at is a marker's virtual time at the source; on a record sent to
	// the sink, when its sender produced it (-1: not known).
	at  int64
	rec Record
}
