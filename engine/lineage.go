package engine

import (
	"strings"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// lineage records where each row of the sink came from: for every copy
// that became visible in the sink, the micro-batch, when it became
// visible, and the node that produced it, in which attempt and when (the
// node stamps its output as it sends it: a copy a node made before it died
// may become visible only after the restart); and, from the bus like any
// observer, the failures and restarts of the run, so that Explain can name
// the kill and the replay behind an extra copy, or the state lost with a
// dead node behind a missing one.
//
// Memory is O(rows), bounded: one entry per row (a source offset for an
// event job, a window and key for an aggregation), each with at most
// keptCopies copies (the first and the latest; the rest are only
// counted), and at most maxLineageRows entries. Past that the oldest rows
// written once are forgotten first; rows written more than once (the
// duplicates a learner asks about) are kept, up to maxPinnedRows of them.
// Failure episodes are bounded by maxEpisodes; what is forgotten is
// counted, and an explanation says so.
type lineage struct {
	rows map[rowKey]*rowLineage
	// ring holds the latest maxLineageRows rows first written, oldest at
	// next once full: the one forgotten when another comes.
	ring   []rowKey
	next   int
	pinned int   // rows kept past their turn: written more than once
	forgot int64 // rows forgotten

	sub      *bus.Subscription
	missed   int64 // bus events lost before the lineage read them
	episodes []episode
	dropped  int64 // episodes past maxEpisodes, not kept
	// restarts counts the restarts seen; an episode notes its number,
	// and a copy the number of restarts before it was sent to the sink,
	// which tells the replay that sent it.
	restarts int64
}

// Bounds of the lineage's memory (see lineage).
const (
	maxLineageRows = 1 << 13
	maxPinnedRows  = 1 << 14
	keptCopies     = 6
	maxEpisodes    = 256
	lineageEvents  = 4096 // the bus buffer between two batches
)

// rowKey names one sink row: a source offset (start and key unused), or a
// window and key (off -1).
type rowKey struct {
	off   int64
	start int64
	key   string
}

// rowLineage is what the lineage keeps of one row.
type rowLineage struct {
	copies []rowCopy // the first, then the latest
	total  int64     // copies written in all
}

// rowCopy is one copy of a row made visible in the sink.
type rowCopy struct {
	batch      int64 // the sink's micro-batch (its epoch)
	atMS       int64 // virtual time it became visible
	producedMS int64 // virtual time its node produced it; -1: not known
	node       string
	attempt    int64
	value      int64 // a result's count; 1 for an event
	restarts   int64 // restarts the job had seen when it was sent to the sink
}

// rowOrigin is where a row the sink received came from, as its sender
// stamped it: the node (its index in the stage before the sink; -1: not
// known), that node's restarts before it (0: its first attempt), when it
// was produced (-1: not known, a replay from an output queue) and the
// restarts the job had seen when it was sent.
type rowOrigin struct {
	writer         int
	writerRestarts int32
	producedMS     int64
	jobRestarts    int64
}

// originOf reads the origin of a record that reached the sink on input
// from as element e.
func originOf(from int, e element) rowOrigin {
	return rowOrigin{writer: from, writerRestarts: e.rec.senderRestarts, producedMS: e.at, jobRestarts: e.id}
}

// stampForSink is what n stamps on a record it sends to the sink: when it
// produced it and the restarts the job has seen. The sink holds rows until
// a trigger (or a checkpoint) makes them visible, by which time n may have
// died and restarted.
func (rc *recovery) stampForSink(n *node) (atMS, restarts int64) {
	return rc.reached(n), rc.restarted
}

// sinkBatch is a micro-batch the sink wrote, on its way to being visible
// (at once, or when its transaction commits): its number, its rows and
// where each came from (origins may be shorter than rows: not known).
type sinkBatch struct {
	n       int64
	rows    []Record
	origins []rowOrigin
	trigger int64 // the trigger it closed: the ledger lines the failure-free run up there
}

// episode is one failure and the restart that ended it: kills holds the
// node-killed events (a slot timeout adds one), restart the node-restarted
// event, if it came. An active standby's takeover is a restart without a
// kill.
type episode struct {
	kills     []bus.Event
	restart   bus.Event
	restarted bool
	index     int64 // the restart's number, 1, 2, … (see rowCopy.restarts)
}

// whole reports whether every task restarted (a failover region, a
// checkpoint restore, a new leader), not only the failed one.
func (e episode) wholeJob() bool {
	return e.restarted && e.restart.Node == JobManager || len(e.kills) > 0 && e.kills[0].Node == JobManager
}

func newLineage(b *bus.Bus) *lineage {
	return &lineage{rows: map[rowKey]*rowLineage{}, sub: b.Subscribe(lineageEvents)}
}

// keyOf is the lineage's key of a sink row; cellOf maps an event's offset
// to the first with its id, as the ledger does (nil: itself).
func keyOf(r Record, cellOf func(int64) int64) rowKey {
	if r.IsResult() {
		return rowKey{off: -1, start: r.WindowStart, key: r.Key}
	}
	if cellOf != nil {
		return rowKey{off: cellOf(r.Offset)}
	}
	return rowKey{off: r.Offset}
}

// wrote records batch b, visible in the sink from virtual time at;
// writer names the node a row came from.
func (l *lineage) wrote(b sinkBatch, at int64, writer func(Record, rowOrigin) string, cellOf func(int64) int64) {
	l.drain()
	for i, r := range b.rows {
		k := keyOf(r, cellOf)
		row := l.rows[k]
		if row == nil {
			row = &rowLineage{}
			l.remember(k)
			l.rows[k] = row
		}
		o := rowOrigin{writer: -1, producedMS: -1, jobRestarts: l.restarts}
		if i < len(b.origins) {
			o = b.origins[i]
		}
		c := rowCopy{batch: b.n, atMS: at, producedMS: o.producedMS, node: writer(r, o), attempt: 1 + int64(o.writerRestarts), value: 1, restarts: o.jobRestarts}
		if r.IsResult() {
			c.value = r.Value
		}
		row.add(c)
		if row.total == 2 {
			l.pinned++
		}
	}
}

// add keeps the first copy and the latest keptCopies-1.
func (row *rowLineage) add(c rowCopy) {
	row.total++
	if len(row.copies) < keptCopies {
		row.copies = append(row.copies, c)
		return
	}
	copy(row.copies[1:], row.copies[2:])
	row.copies[len(row.copies)-1] = c
}

// remember puts a new row in the ring, forgetting the oldest once it is
// full, unless that one was written more than once (and not too many such
// are kept already).
func (l *lineage) remember(k rowKey) {
	if len(l.ring) < maxLineageRows {
		l.ring = append(l.ring, k)
		return
	}
	old := l.ring[l.next]
	l.ring[l.next] = k
	l.next = (l.next + 1) % maxLineageRows
	if row := l.rows[old]; row != nil && row.total > 1 {
		if l.pinned <= maxPinnedRows {
			return // a duplicate: kept past its turn
		}
		l.pinned--
	}
	delete(l.rows, old)
	l.forgot++
}

// drain reads what the bus published since the last call: failures open
// an episode, restarts close it.
func (l *lineage) drain() {
	evs, missed := l.sub.Drain()
	l.missed += missed
	for _, e := range evs {
		switch e.Kind {
		case bus.EventNodeKilled:
			l.killed(e)
		case bus.EventNodeRestarted:
			l.restarted(e)
		}
	}
}

func (l *lineage) open() *episode {
	if n := len(l.episodes); n > 0 && !l.episodes[n-1].restarted {
		return &l.episodes[n-1]
	}
	return nil
}

func (l *lineage) killed(e bus.Event) {
	if ep := l.open(); ep != nil {
		if len(ep.kills) < 4 {
			ep.kills = append(ep.kills, e)
		}
		return
	}
	l.add(episode{kills: []bus.Event{e}})
}

// standbyUp is how the active-standby scheme announces a new replica: no
// task restarts then, the primary goes on.
const standbyUp = "a new active standby for "

func (l *lineage) restarted(e bus.Event) {
	if strings.HasPrefix(e.Text, standbyUp) {
		return
	}
	l.restarts++
	if ep := l.open(); ep != nil {
		ep.restart, ep.restarted, ep.index = e, true, l.restarts
		return
	}
	l.add(episode{restart: e, restarted: true, index: l.restarts})
}

func (l *lineage) add(ep episode) {
	if len(l.episodes) >= maxEpisodes {
		l.dropped++
		return
	}
	l.episodes = append(l.episodes, ep)
}

// writerName names the node that sent r to the sink: the one its origin
// names, or (not known) the one writerOf finds.
func (g *graph) writerName(r Record, o rowOrigin) string {
	if ws := g.stages[len(g.stages)-2]; o.writer >= 0 && o.writer < len(ws.nodes) {
		return ws.nodes[o.writer].name
	}
	return g.writerOf(r)
}

// writerOf names the node that hands r to the sink: the node of the last
// stage before it that r's partitioning sends it through, or the stage's
// name with [?] when rebalancing makes that unknowable.
func (g *graph) writerOf(r Record) string {
	s := len(g.stages) - 2
	if n := g.nodeOf(s, r); n != nil {
		return n.name
	}
	return g.stages[s].name + "[?]"
}

// nodeOf is the node of stage s that r passes through, or nil.
func (g *graph) nodeOf(s int, r Record) *node {
	st := g.stages[s]
	p := len(st.nodes)
	if p == 1 {
		return st.nodes[0]
	}
	switch st.partition {
	case jobspec.PartitionForward:
		if up := g.nodeOf(s-1, r); up != nil {
			return st.nodes[up.index]
		}
	case jobspec.PartitionHash:
		key := r.Key
		if st.keyOf != nil && !r.IsResult() {
			key = st.keyOf(r)
		}
		return st.nodes[hashKey(key)%uint32(p)]
	}
	return nil
}
