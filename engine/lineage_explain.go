package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/script"
)

// ErrNoSuchRow is returned by Explain for a row that neither the sink nor
// the failure-free run has.
var ErrNoSuchRow = errors.New("no such row")

// Provenance is the lineage of one sink row, as Explain finds it.
type Provenance struct {
	Row    string // the row's name, as ParseRow reads it
	Result bool   // a window's count, not an event
	// A result's window and key; an event's key is its action's.
	Key                    string
	WindowStart, WindowEnd int64
	// An event's offset, id and event time.
	Offset int64
	ID     uint64
	Time   int64
	// Offsets are the source offsets the row counts: the event itself, or
	// the source's records of the key in the window.
	Offsets OffsetSpan
	Writer  string // the node that hands the row to the sink
	// Path is the nodes the row's records pass through, source to sink.
	Path []string
	// Expected is the row's effect in the failure-free run, Got in the
	// sink (the ledger's unit: copies of an event, a window's count).
	Expected, Got int64
	Copies        []Copy // the first and the latest (see lineage)
	Written       int64  // copies written in all
	Forgotten     bool   // the lineage had forgotten the row (memory bound)
	Episodes      []Episode
	FalseDrop     bool     // the membership filter dropped it by mistake
	Causes        []string // why, in sentences
	Missed        int64    // bus events the lineage never read
}

// OffsetSpan is a set of source offsets in compact form.
type OffsetSpan struct{ First, Last, Count int64 }

func (s OffsetSpan) String() string {
	switch s.Count {
	case 0:
		return "none"
	case 1:
		return fmt.Sprintf("offset %d", s.First)
	}
	return fmt.Sprintf("%d records, offsets %d–%d", s.Count, s.First, s.Last)
}

// Copy is one copy of the row made visible in the sink: in micro-batch
// Batch at AtMS, produced by Node's attempt Attempt at ProducedMS (-1:
// not known, a copy resent from an output queue). A sink holds what it
// receives until a trigger or a checkpoint makes it visible, so a node may
// have died and restarted between the two.
type Copy struct {
	Batch, AtMS int64
	ProducedMS  int64
	Node        string
	Attempt     int64
	Value       int64
	// Episode is the index in Provenance.Episodes of the failure whose
	// restart came last before this copy was sent to the sink (produced,
	// or resent from an output queue), or -1.
	Episode int
}

// Episode is one failure that touched the row, and the restart that ended
// it: the events the run published.
type Episode struct {
	Kills     []bus.Event
	Restart   bus.Event
	Restarted bool
	Whole     bool // every task restarted, not only the failed one
	// Before, During: the row's source records that arrived before the
	// failure, and while the job was down until the restart.
	Before, During OffsetSpan
	index          int64
}

// At is when the episode began.
func (e Episode) At() int64 {
	if len(e.Kills) > 0 {
		return e.Kills[0].TimeMS
	}
	return e.Restart.TimeMS
}

// Explain says where a row of the sink came from: the source offsets it
// counts, which node wrote each copy in which attempt and batch, and the
// failure and replay (or false filter drop, or lost state) that made a
// copy extra or the row short. It drains the failure-free run first, as
// Report does.
func (r *Runtime) Explain(row script.Row) (Provenance, error) {
	if r.ledger == nil || r.lin == nil {
		return Provenance{}, errors.New("this run keeps no ledger, so no lineage either")
	}
	if r.ref != nil {
		r.ref.drain()
	}
	r.lin.drain()
	p, err := r.findRow(row)
	if err != nil {
		return Provenance{}, err
	}
	k := p.rowKey()
	p.Expected, p.Got = r.ledger.effect(Record{Offset: k.off, WindowStart: k.start, Key: k.key})
	p.Writer = r.g.writerOf(r.rowRecord(p))
	p.Path = r.g.pathOf(r.rowRecord(p))
	offsets := r.rowOffsets(p)
	p.Offsets = span(offsets)
	p.Missed = r.lin.missed
	if lr := r.lin.rows[k]; lr != nil {
		p.Written = lr.total
		for _, c := range lr.copies {
			p.Copies = append(p.Copies, Copy{Batch: c.batch, AtMS: c.atMS, ProducedMS: c.producedMS, Node: c.node, Attempt: c.attempt, Value: c.value, Episode: -1})
		}
	} else {
		p.Forgotten = r.lin.forgot > 0
	}
	r.relevantEpisodes(&p, offsets)
	p.FalseDrop = r.falselyDropped(p)
	p.Causes = r.causes(p)
	return p, nil
}

// findRow resolves a ROW to the row it names.
func (r *Runtime) findRow(row script.Row) (Provenance, error) {
	agg := aggregates(r.spec)
	switch {
	case row.Kind == script.RowWindow && !agg:
		return Provenance{}, fmt.Errorf("%w %s: job %s writes events, not window counts; name an event by its record id or offset=N", ErrNoSuchRow, row, r.spec.Name)
	case row.Kind != script.RowWindow && agg:
		return Provenance{}, fmt.Errorf("%w %s: job %s writes window counts; name one KEY@HH:MM:SS as the Output pane shows it, e.g. click@12:00:10", ErrNoSuchRow, row, r.spec.Name)
	case row.Kind == script.RowWindow:
		return r.findWindow(row)
	}
	off := row.Offset
	if row.Kind == script.RowID {
		off = r.offsetOfID(row.ID)
		if off < 0 {
			return Provenance{}, fmt.Errorf("%w %s: no record admitted so far (%d) has that id", ErrNoSuchRow, row, r.cur.limit)
		}
	} else if off >= r.cur.limit {
		return Provenance{}, fmt.Errorf("%w %s: the source has admitted offsets 0–%d only", ErrNoSuchRow, row, r.cur.limit-1)
	}
	if r.ledger.cellOf != nil {
		off = r.ledger.cellOf(off)
	}
	e := r.src.At(off)
	return Provenance{Row: row.String(), Key: e.Key, Offset: off, ID: e.ID, Time: e.Time}, nil
}

// offsetOfID finds the admitted record with id, or -1.
func (r *Runtime) offsetOfID(id uint64) int64 {
	for off := range r.cur.limit {
		if r.src.At(off).ID == id {
			return off
		}
	}
	return -1
}

// findWindow resolves KEY@HH:MM:SS (or KEY@MS) among the rows the sink or
// the failure-free run has.
func (r *Runtime) findWindow(row script.Row) (Provenance, error) {
	var starts []int64
	add := func(start int64, key string) {
		if key == row.Key && (!row.HasClock && start == row.Start || row.HasClock && floorMod(start, dayMS) == row.Clock) && !slices.Contains(starts, start) {
			starts = append(starts, start)
		}
	}
	for k := range r.ledger.cells {
		add(k.start, k.key)
	}
	for _, start := range r.ledger.foldedStarts(row.Key, row.Start, row.Clock, row.HasClock) {
		add(start, row.Key)
	}
	for k := range r.lin.rows {
		add(k.start, k.key)
	}
	slices.Sort(starts)
	switch {
	case len(starts) == 0:
		return Provenance{}, fmt.Errorf("%w %s: neither the sink nor the failure-free run has a row for key %q and a window starting then; rows look like the Output pane's, e.g. click@12:00:10", ErrNoSuchRow, row, row.Key)
	case len(starts) > 1:
		return Provenance{}, fmt.Errorf("%w %s: windows of several days start then; name one by Unix ms: %s@%d", ErrNoSuchRow, row, row.Key, starts[0])
	}
	size := r.windowOp().Window.Milliseconds()
	return Provenance{Row: row.String(), Result: true, Key: row.Key, WindowStart: starts[0], WindowEnd: starts[0] + size, Offset: -1}, nil
}

const dayMS = 24 * 60 * 60 * 1000

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// windowOp is the job's last window count.
func (r *Runtime) windowOp() jobspec.Operator {
	var w jobspec.Operator
	for _, op := range r.spec.Operators {
		if op.Kind == jobspec.KindWindowCount {
			w = op
		}
	}
	return w
}

// rowRecord is a sink row of p, enough to route it to its writer.
func (r *Runtime) rowRecord(p Provenance) Record {
	if p.Result {
		return Record{Offset: -1, Key: p.Key, WindowStart: p.WindowStart, WindowEnd: p.WindowEnd}
	}
	return r.src.At(p.Offset)
}

// rowOffsets lists the source offsets the row counts: an event's own, or
// every admitted record that the operators before the window count send
// into this window and key.
func (r *Runtime) rowOffsets(p Provenance) []int64 {
	if !p.Result {
		return []int64{p.Offset}
	}
	var offs []int64
	r.windowRecords(p.Key, p.WindowStart, p.WindowEnd, r.cur.limit, func(off, _ int64) { offs = append(offs, off) })
	return offs
}

// windowRecords calls f with the offset and event time of every record
// before offset upTo that the operators before the window count send to
// it with key and a time from lo up to hi, in offset order.
func (r *Runtime) windowRecords(key string, lo, hi, upTo int64, f func(off, t int64)) {
	spec := r.spec
	i := slices.IndexFunc(spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
	spec.Operators = spec.Operators[:i]
	sink := &sinkOp{writer: &logSink{}, events: true}
	before := newChain(spec, r.newOp, nil, sink)
	w := newWindowCount(r.windowOp(), r.cfg.Mode)
	from, to := int64(0), upTo
	if r.src.Len() < 0 { // generated: event time trails arrival by at most the source's delay
		slack := r.src.maxDelay()
		from = min(r.src.firstArrivingAtOrAfter(max(lo-r.src.start, 0)), to)
		to = min(r.src.firstArrivingAtOrAfter(max(hi-r.src.start+slack+1, 0)), to)
	}
	for off := from; off < to; off++ {
		before.push(0, r.src.At(off))
		for _, e := range sink.buf {
			k := e.Key
			if w.keyOf != nil {
				k = w.keyOf(e)
			}
			if k == key && e.Time >= lo && e.Time < hi {
				f(off, e.Time)
				break
			}
		}
		sink.buf = sink.buf[:0]
	}
}

func span(offs []int64) OffsetSpan {
	if len(offs) == 0 {
		return OffsetSpan{}
	}
	return OffsetSpan{First: offs[0], Last: offs[len(offs)-1], Count: int64(len(offs))}
}

// relevantEpisodes keeps the failures that could have touched the row: of
// its writer, of a node before it, or of every task, between the arrival
// of its first record and its last copy (or now), and ties each copy to
// the latest restart before it.
func (r *Runtime) relevantEpisodes(p *Provenance, offsets []int64) {
	if len(offsets) == 0 {
		return
	}
	first := r.src.Arrival(offsets[0])
	last := r.src.Arrival(offsets[len(offsets)-1])
	if n := len(p.Copies); n > 0 {
		last = max(last, p.Copies[n-1].AtMS)
	}
	if len(p.Copies) == 0 || p.Got < p.Expected {
		last = max(last, r.cur.clock)
	}
	rec := r.rowRecord(*p)
	for _, ep := range r.lin.episodes {
		e := Episode{Kills: ep.kills, Restart: ep.restart, Restarted: ep.restarted, Whole: ep.wholeJob(), index: ep.index}
		if at := e.At(); at < first || at > last || !e.Whole && !r.onPath(e.node(), rec) {
			continue
		}
		end := r.cur.clock + 1
		if e.Restarted {
			end = e.Restart.TimeMS
		}
		var before, during []int64
		for _, off := range offsets {
			switch a := r.src.Arrival(off); {
			case a < e.At():
				before = append(before, off)
			case a < end:
				during = append(during, off)
			}
		}
		e.Before, e.During = span(before), span(during)
		p.Episodes = append(p.Episodes, e)
	}
	for i := range p.Copies {
		for j, e := range p.Episodes {
			if e.Restarted && e.index <= r.copyRestarts(p, i) {
				p.Copies[i].Episode = j
			}
		}
	}
}

// copyRestarts is how many restarts the job had seen when copy i of p was
// sent to the sink.
func (r *Runtime) copyRestarts(p *Provenance, i int) int64 {
	return r.lin.rows[p.rowKey()].copies[i].restarts
}

// rowKey is the lineage's key of the row p explains.
func (p Provenance) rowKey() rowKey {
	if p.Result {
		return rowKey{off: -1, start: p.WindowStart, key: p.Key}
	}
	return rowKey{off: p.Offset}
}

// node is the node whose failure began the episode.
func (e Episode) node() string {
	if len(e.Kills) > 0 {
		return e.Kills[0].Node
	}
	return e.Restart.Node
}

// pathOf names, stage by stage, the node rec's row passes through.
func (g *graph) pathOf(rec Record) []string {
	path := make([]string, 0, len(g.stages))
	for s, st := range g.stages {
		if n := g.nodeOf(s, rec); n != nil {
			path = append(path, n.name)
		} else {
			path = append(path, st.name+"[?]")
		}
	}
	return path
}

// onPath reports whether the node named name is on the way of rec's row
// from the source to the sink: of its stage, the node partitioning sends
// the row's records through (any node, when rebalancing makes that
// unknowable). A counter that counts other keys is not.
func (r *Runtime) onPath(name string, rec Record) bool {
	n := r.g.node(name)
	if n == nil {
		return false
	}
	if n.stage == 0 || n.stage == len(r.g.stages)-1 {
		return true
	}
	on := r.g.nodeOf(n.stage, rec)
	return on == nil || on == n
}

// falselyDropped reports whether the membership filter dropped the row's
// record (or one of its result rows) by mistake.
func (r *Runtime) falselyDropped(p Provenance) bool {
	d := r.dedup()
	if d == nil {
		return false
	}
	if p.Result {
		_, ok := d.falseRows[windowKey{p.WindowStart, p.Key}]
		return ok
	}
	return slices.Contains(d.falseOffsets, p.Offset)
}

// causes says in sentences why the row is as it is.
func (r *Runtime) causes(p Provenance) []string {
	var out []string
	switch {
	case p.Got > p.Expected:
		out = append(out, r.extraCauses(p)...)
	case p.Got < p.Expected:
		out = append(out, r.lossCauses(p)...)
	case p.Expected == 0:
		out = append(out, "the job's operators pass nothing of it on: the failure-free run writes nothing for it either")
	default:
		out = append(out, "the sink holds what the failure-free run holds for this row")
		if len(p.Episodes) > 0 {
			out = append(out, "a failure touched it, and recovery made it whole again")
		}
	}
	if p.Forgotten {
		out = append(out, fmt.Sprintf("its copies are not kept: the lineage keeps the latest %d rows and every duplicated one", maxLineageRows))
	}
	if p.Missed > 0 {
		out = append(out, fmt.Sprintf("%d events were published faster than the lineage read them; a failure may be missing above", p.Missed))
	}
	return out
}

// extraCauses names the failure and the replay behind each extra copy,
// after what is extra.
func (r *Runtime) extraCauses(p Provenance) []string {
	out := []string{fmt.Sprintf("%d more than the failure-free run: a replay sent again records that had already reached the sink, or a counter that kept its state", p.Got-p.Expected)}
	named := map[int]bool{}
	for _, c := range p.Copies {
		if c.Episode < 0 || named[c.Episode] {
			continue
		}
		named[c.Episode] = true
		e := p.Episodes[c.Episode]
		out = append(out, heldAcross(p.Copies, e)...)
		out = append(out, fmt.Sprintf("written again by %s attempt %d in batch %d, after %s and the restart at %s (%s)",
			c.Node, c.Attempt, c.Batch, e.failure(), clockMS(e.Restart.TimeMS), e.Restart.Text))
	}
	if len(named) == 0 {
		out = append(out, "no failure came before its extra copies: the same record reached the sink twice in one run (a repeated id, or a row appended at every trigger)")
	}
	return out
}

// heldAcross names the copies produced before failure e that the sink made
// visible only after its restart: held for a trigger or a checkpoint, they
// and the replay's copy end up side by side, often in one batch.
func heldAcross(copies []Copy, e Episode) []string {
	var out []string
	for _, c := range copies {
		if c.ProducedMS >= 0 && c.ProducedMS <= e.At() && c.AtMS >= e.Restart.TimeMS {
			out = append(out, fmt.Sprintf("%s attempt %d produced a copy at %s, before the failure; the sink held it until batch %d made it visible at %s, after the restart",
				c.Node, c.Attempt, clockMS(c.ProducedMS), c.Batch, clockMS(c.AtMS)))
		}
	}
	return out
}

// lossCauses names what took the missing part: a false filter drop, the
// state lost with a dead node, what arrived while the job was down.
func (r *Runtime) lossCauses(p Provenance) []string {
	out := []string{fmt.Sprintf("%d missing against the failure-free run", p.Expected-p.Got)}
	if p.FalseDrop {
		out = append(out, fmt.Sprintf("the membership filter (%s) dropped it by mistake: a false positive took a first sighting for a duplicate, and nothing replays it", r.cfg.Filter))
	}
	for _, e := range p.Episodes {
		out = append(out, r.episodeLoss(p, e))
	}
	if len(out) == 1 {
		out = append(out, "no failure and no filter drop touched it: the difference is in which records the watermark left out as late in each run")
	}
	return out
}

// episodeLoss says what one failure took from the row.
func (r *Runtime) episodeLoss(p Provenance, e Episode) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s died at %s", e.node(), clockMS(e.At()))
	holder := "it"
	if e.Whole && e.node() != p.Writer {
		holder = p.Writer
		b.WriteString(", and every task with it (one failover region)")
	}
	if p.Result {
		fmt.Fprintf(&b, ": the counts %s held for this window (%s, arrived before) were lost with it", holder, e.Before)
	} else {
		fmt.Fprintf(&b, ": the record (%s, arrived before) was in flight or queued and was lost with it", e.Before)
	}
	switch {
	case !e.Restarted:
		b.WriteString("; it has not restarted yet")
	case r.ha == HANone:
		scope := e.Restart.Node
		if e.Whole {
			scope = "the whole job"
		}
		fmt.Fprintf(&b, ": gap recovery (ha none) keeps nothing to replay; %s restarted at %s with empty state", scope, clockMS(e.Restart.TimeMS))
	default:
		fmt.Fprintf(&b, "; the restart at %s was to bring them back (%s)", clockMS(e.Restart.TimeMS), e.Restart.Text)
	}
	if e.During.Count > 0 {
		fmt.Fprintf(&b, "; %s arrived while it was down", e.During)
		if r.ha == HANone {
			b.WriteString(" and were never read")
		}
	}
	return b.String()
}

// failure names the failure that began e, with the engine's words.
func (e Episode) failure() string {
	if len(e.Kills) == 0 {
		return fmt.Sprintf("%s failed over at %s", e.Restart.Node, clockMS(e.Restart.TimeMS))
	}
	return fmt.Sprintf("%s died at %s", e.Kills[0].Node, clockMS(e.Kills[0].TimeMS))
}

// when says when the copy became visible and when and by whom it was
// produced, the two times once when they are the same.
func (c Copy) when() string {
	by := fmt.Sprintf("by %s attempt %d", c.Node, c.Attempt)
	switch c.ProducedMS {
	case c.AtMS:
		return fmt.Sprintf("at %s %s", clockMS(c.AtMS), by)
	case -1:
		return fmt.Sprintf("visible at %s, produced %s and resent from its output queue", clockMS(c.AtMS), by)
	}
	return fmt.Sprintf("visible at %s, produced at %s %s", clockMS(c.AtMS), clockMS(c.ProducedMS), by)
}

// clockMS renders virtual time as seconds since the job started.
func clockMS(ms int64) string { return fmt.Sprintf("%d.%03d s", ms/1000, ms%1000) }

// rowClock renders an event time as the Output pane does.
func rowClock(ms int64) string { return time.UnixMilli(ms).UTC().Format("15:04:05") }

// Text is the explanation for people, the same on every run of the same
// script and seed.
func (p Provenance) Text() string {
	var b strings.Builder
	if p.Result {
		fmt.Fprintf(&b, "why %s: the count of %s in window %s–%s, written by %s\n", p.Row, p.Key, rowClock(p.WindowStart), rowClock(p.WindowEnd), p.Writer)
		fmt.Fprintf(&b, "  counts: the source's records of %s in this window: %s\n", p.Key, p.Offsets)
		fmt.Fprintf(&b, "  path: %s\n", strings.Join(p.Path, " → "))
		fmt.Fprintf(&b, "  sink: %d; failure-free run: %d\n", p.Got, p.Expected)
	} else {
		fmt.Fprintf(&b, "why %s: event id %d at offset %d (%s, event time %s), written by %s\n", p.Row, p.ID, p.Offset, p.Key, rowClock(p.Time), p.Writer)
		fmt.Fprintf(&b, "  counts: %s\n", p.Offsets)
		fmt.Fprintf(&b, "  path: %s\n", strings.Join(p.Path, " → "))
		fmt.Fprintf(&b, "  copies in the sink: %d; in the failure-free run: %d\n", p.Got, p.Expected)
	}
	if p.Written > 0 {
		fmt.Fprintf(&b, "  copies written: %d", p.Written)
		if p.Written > int64(len(p.Copies)) {
			fmt.Fprintf(&b, " (the first and the latest %d shown)", len(p.Copies)-1)
		}
		b.WriteString("\n")
		for _, c := range p.Copies {
			fmt.Fprintf(&b, "    batch %d %s", c.Batch, c.when())
			if p.Result {
				fmt.Fprintf(&b, ": %d", c.Value)
			}
			b.WriteString("\n")
		}
	}
	for _, e := range p.Episodes {
		for _, k := range e.Kills {
			fmt.Fprintf(&b, "  failure at %s: %s\n", clockMS(k.TimeMS), k.Text)
		}
		if e.Restarted {
			fmt.Fprintf(&b, "  restart at %s: %s\n", clockMS(e.Restart.TimeMS), e.Restart.Text)
		}
	}
	for _, c := range p.Causes {
		fmt.Fprintf(&b, "  because: %s\n", c)
	}
	return b.String()
}

// effect reads a row's failure-free and real effects without changing
// the ledger (cell would make a folded cell its own again).
func (l *Ledger) effect(r Record) (exp, got int64) {
	if !l.events {
		exp, got, _ = l.windowEffect(windowKey{r.WindowStart, r.Key})
		return exp, got
	}
	o := r.Offset
	if l.cellOf != nil {
		o = l.cellOf(o)
	}
	switch {
	case o >= l.base && o-l.base < int64(len(l.dense)):
		c := l.dense[o-l.base]
		return c.exp, c.got
	case o >= l.base:
		return 0, 0
	case l.odd[o] != nil:
		return l.odd[o].exp, l.odd[o].got
	case l.expOf != nil:
		exp = l.expOf(o)
	default:
		exp = int64(l.expBits[o/64] >> (o % 64) & 1)
	}
	return exp, exp // folded without a cell of its own: got == exp
}

// RowDiff is a sink row that differs from the failure-free run.
type RowDiff struct {
	Row           string // as ParseRow reads it
	Expected, Got int64
}

// DifferingRows lists up to limit rows whose effect in the sink differs
// from the failure-free run's, in row order: the rows `why` has most to
// say about.
func (r *Runtime) DifferingRows(limit int) []RowDiff {
	if r.ledger == nil {
		return nil
	}
	if r.ref != nil {
		r.ref.drain()
	}
	var out []RowDiff
	l := r.ledger
	if !l.events {
		keys := make([]windowKey, 0, len(l.cells))
		for k, c := range l.cells {
			if c.got != c.exp {
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, compareWindowKeys)
		for _, k := range keys[:min(limit, len(keys))] {
			row := script.Row{Kind: script.RowWindow, Key: k.key, Clock: floorMod(k.start, dayMS), HasClock: true}
			out = append(out, RowDiff{Row: row.String(), Expected: l.cells[k].exp, Got: l.cells[k].got})
		}
		return out
	}
	offs := make([]int64, 0, len(l.odd))
	for o, c := range l.odd {
		if c.got != c.exp {
			offs = append(offs, o)
		}
	}
	slices.Sort(offs)
	for i, c := range l.dense {
		if c.got != c.exp {
			offs = append(offs, l.base+int64(i))
		}
	}
	for _, o := range offs[:min(limit, len(offs))] {
		exp, got := l.effect(Record{Offset: o})
		out = append(out, RowDiff{Row: script.Row{Kind: script.RowOffset, Offset: o}.String(), Expected: exp, Got: got})
	}
	return out
}
