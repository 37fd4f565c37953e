package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/streamlab/streamlab/engine/table"
)

// sinkWriter is where committed micro-batches land.
type sinkWriter interface {
	// write stores one micro-batch with the output mode's meaning.
	write(batch []Record) error
	// rows is how many rows the sink holds.
	rows() (int64, error)
	close() error
}

// recentRows is how many of the latest sink rows a snapshot shows.
const recentRows = 64

// sinkOp is the sink node's logic. Between two triggers it gathers the
// records of one epoch; at the trigger it commits them as one micro-batch,
// sorted, so that the sink's contents do not depend on the order in which
// parallel upstream nodes happened to deliver.
type sinkOp struct {
	passive
	writer sinkWriter
	events bool // the job writes events, not aggregation results
	// whole (complete mode) commits a trigger's batch only when every
	// upstream node delivered that trigger: each sends its whole table,
	// and a batch without one of them would replace the result with part
	// of it. Spark likewise commits a micro-batch only once every task of
	// it has finished; until a failed counter is back, the sink keeps the
	// last whole result.
	whole bool
	held  int64 // triggers held back in a row for want of a whole result
	// lastTrigger is the id of the last trigger the sink aligned: how many
	// triggers the source had sent by then. The ledger lines the
	// failure-free run up with it, not with the batches committed, which
	// fall behind when triggers are held back (see whole) or never reach
	// the sink (its only input was down).
	lastTrigger int64
	// onHeld observes each held trigger (the runtime tells the learner).
	onHeld func(inARow int64)
	buf    []Record
	// origins says where each row of buf came from (see receive), when
	// traced: a run that keeps a lineage; a chain's sink keeps none.
	traced  bool
	origins []rowOrigin
	pairs   []originRow // scratch: buf and origins sorted together
	batches int64
	err     error
	// onCommit observes each committed batch (the ledger, snapshots).
	onCommit func(b sinkBatch)
	recent   []Record // ring of the latest rows
	next     int
	written  int64
}

// originRow is a row the sink holds with where it came from.
type originRow struct {
	rec    Record
	origin rowOrigin
}

func (s *sinkOp) record(r Record, _ emitter) { s.buf = append(s.buf, r) }

// receive takes a row a node sent, with where it came from; the sender's
// stamp leaves the row here, so that what the sink writes is the row alone.
func (s *sinkOp) receive(r Record, o rowOrigin) {
	r.senderRestarts = 0
	s.buf = append(s.buf, r)
	if s.traced {
		s.origins = append(s.origins, o)
	}
}

// drop empties what the sink holds, rows and origins alike.
func (s *sinkOp) drop() {
	s.buf = s.buf[:0]
	s.origins = s.origins[:0]
}

func (s *sinkOp) trigger(emitter) { s.commitBatch() }

// discard drops a trigger's partial batch (see whole): the nodes that sent
// it send their whole tables again at the next trigger.
func (s *sinkOp) discard() {
	s.held++
	s.drop()
	if s.onHeld != nil {
		s.onHeld(s.held)
	}
}

// flush commits what the sink holds, if anything, as a micro-batch of its
// own: at a barrier, the rows of records before it belong to that
// checkpoint's transaction.
func (s *sinkOp) flush() {
	if len(s.buf) > 0 {
		s.commitBatch()
	}
}

func (s *sinkOp) commitBatch() {
	s.sortBatch()
	batch := s.buf
	if s.err == nil {
		if err := s.writer.write(batch); err != nil {
			s.err = fmt.Errorf("sink: %w", err)
		}
	}
	s.batches++
	s.held = 0
	s.written += int64(len(batch))
	for _, r := range batch {
		if len(s.recent) < recentRows {
			s.recent = append(s.recent, r)
		} else {
			s.recent[s.next] = r
			s.next = (s.next + 1) % recentRows
		}
	}
	if s.onCommit != nil {
		s.onCommit(sinkBatch{n: s.batches, rows: batch, origins: s.origins})
	}
	s.drop()
}

// sortBatch sorts what the sink holds into the order it writes, each
// row's origin along with it (rows without origins, alone).
func (s *sinkOp) sortBatch() {
	if len(s.origins) != len(s.buf) {
		s.origins = s.origins[:0]
		slices.SortStableFunc(s.buf, s.compareRows)
		return
	}
	s.pairs = s.pairs[:0]
	for i, r := range s.buf {
		s.pairs = append(s.pairs, originRow{r, s.origins[i]})
	}
	slices.SortStableFunc(s.pairs, func(a, b originRow) int { return s.compareRows(a.rec, b.rec) })
	for i, p := range s.pairs {
		s.buf[i], s.origins[i] = p.rec, p.origin
	}
	clear(s.pairs)
}

// compareRows is the order of a batch: by offset for events, by window
// and key for results.
func (s *sinkOp) compareRows(a, b Record) int {
	if s.events {
		return cmp.Compare(a.Offset, b.Offset)
	}
	return compareWindowKeys(windowKey{a.WindowStart, a.Key}, windowKey{b.WindowStart, b.Key})
}

// latest returns the most recent rows, oldest first.
func (s *sinkOp) latest() []Record {
	out := make([]Record, 0, len(s.recent))
	out = append(out, s.recent[s.next:]...)
	return append(out, s.recent[:s.next]...)
}

// logSink is an append-only log: every row of every batch is a new line. It
// keeps a running digest of its contents, so two runs can be compared
// without holding every line in memory.
type logSink struct {
	n      int64
	digest uint64
}

func (l *logSink) write(batch []Record) error {
	for _, r := range batch {
		l.digest = mix(l.digest ^ rowHash(r))
		l.n++
	}
	return nil
}

// rowHash fingerprints every field of a row.
func rowHash(r Record) uint64 {
	h := mix(r.ID ^ uint64(r.Offset)<<1)
	h = mix(h ^ uint64(r.Time) ^ uint64(r.Device)<<40)
	h = mix(h ^ uint64(r.WindowStart) ^ uint64(r.WindowEnd)<<7)
	h = mix(h ^ uint64(r.Value) ^ uint64(hashKey(r.Key))<<32 ^ uint64(hashKey(r.Action)))
	return h
}

func (l *logSink) rows() (int64, error) { return l.n, nil }
func (l *logSink) close() error         { return nil }

// String renders a row as the log shows it: "start end key value" for a
// result, "id time action offset" for an event.
func (r Record) String() string { return string(appendRow(nil, r)) }

func appendRow(b []byte, r Record) []byte {
	if r.IsResult() {
		b = strconv.AppendInt(b, r.WindowStart, 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, r.WindowEnd, 10)
		b = append(b, ' ')
		b = append(b, r.Key...)
		b = append(b, ' ')
		return strconv.AppendInt(b, r.Value, 10)
	}
	b = strconv.AppendUint(b, r.ID, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, r.Time, 10)
	b = append(b, ' ')
	b = append(b, r.Action...)
	b = append(b, ' ')
	return strconv.AppendInt(b, r.Offset, 10)
}

// tableSink writes to a real SQLite database: rows are appended in append
// mode, upserted in place in update mode, rewritten in complete mode.
type tableSink struct {
	store  *table.Store
	mode   Mode
	events bool
	// transactional sinks pre-commit each batch into transaction txn, which
	// the checkpoint coordinator commits or aborts.
	transactional bool
	txn           func() int64
}

func openTableSink(path string, mode Mode, events bool) (*tableSink, error) {
	st, err := table.Open(path, table.Layout{Events: events, Keyed: mode != ModeAppend})
	if err != nil {
		return nil, err
	}
	return &tableSink{store: st, mode: mode, events: events}, nil
}

func (t *tableSink) write(batch []Record) error {
	op := table.OpUpsert
	switch t.mode {
	case ModeAppend:
		op = table.OpAppend
	case ModeComplete:
		op = table.OpReplace
	}
	if t.events {
		rows := make([]table.Event, len(batch))
		for i, r := range batch {
			rows[i] = table.Event{ID: r.ID, Time: r.Time, Action: r.Action, Key: r.Key, Offset: r.Offset}
		}
		switch {
		case t.transactional:
			return t.store.PreCommitEvents(t.txn(), op, rows)
		case op == table.OpAppend:
			return t.store.AppendEvents(rows)
		}
		return t.store.UpsertEvents(rows)
	}
	rows := make([]table.Result, len(batch))
	for i, r := range batch {
		rows[i] = table.Result{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Key: r.Key, Value: r.Value}
	}
	switch {
	case t.transactional:
		return t.store.PreCommitResults(t.txn(), op, rows)
	case op == table.OpAppend:
		return t.store.AppendResults(rows)
	case op == table.OpReplace:
		return t.store.ReplaceResults(rows)
	}
	return t.store.UpsertResults(rows)
}

func (t *tableSink) rows() (int64, error) { return t.store.Count() }
func (t *tableSink) close() error         { return t.store.Close() }
