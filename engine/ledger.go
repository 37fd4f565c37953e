package engine

import (
	"math"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// Ledger is the ground truth: it compares what the real sink holds with what
// a failure-free run of the same job and seed holds, in terms of the input
// records' effects.
//
// Every row of the result has an effect value: for a job without
// aggregation, how many times an input record is in the sink (an upsert by
// id in a table keeps it at most once); for an aggregation, the count a
// consumer of the sink would read for a key and window — in append mode the
// sum of the rows written for it (each row is a separate emission), in
// update mode the latest row, in complete mode the row in the latest batch.
// With got the real effect and exp the failure-free one, summed over rows:
//
//	delivered  = Σ got
//	unique     = Σ min(got, exp)
//	duplicates = delivered − unique
//	lost       = expected − unique,  expected = Σ exp
//
// A row is correct when got == exp; the sink is correct when every row is.
//
// Memory: a job without aggregation has one cell per source offset, which
// would grow with the input for ever (16 bytes a record: 480 MB after 30
// million). Once the failure-free run has read past an offset its exp is
// final, so settle folds such cells: only a cell whose got differs (a
// record lost or duplicated so far) keeps a cell of its own. exp of the
// others is recomputed when needed (expOf: every operator of such a job
// decides on a record alone), else kept as one bit each. A folded cell the
// real sink writes again is unfolded from that, so the counts are exactly
// those of keeping every cell. An aggregation's cells fold likewise once
// the failure-free run's watermark has closed their windows
// (ledger_windowfold.go).
type Ledger struct {
	events bool
	mode   Mode
	keyed  bool // a table keyed by record id: a re-written record counts once
	// cellOf, when set, maps a record's offset to the offset whose cell
	// stands for its id in a keyed table: events of a replayed file that
	// share an id are one row to a reader, so one cell.
	cellOf func(off int64) int64
	// Cells of a job without aggregation: offsets from base on in dense;
	// below base, folded (see settle).
	base    int64
	dense   []cell
	expBits []uint64 // exp of folded offsets, one bit each, without expOf
	// expOf, when set, computes the failure-free effect of an offset.
	expOf func(off int64) int64
	odd   map[int64]*cell // folded offsets whose got != exp, or exp > 1
	// sweepAt is the size of odd at which settle next drops the cells
	// that agree again.
	sweepAt int
	cells   map[windowKey]*cell
	// Cells of windows starting before foldedBelow are folded (see
	// ledger_windowfold.go): their exp is in folded, and only those whose got
	// differs keep a cell. finalBelow says where the failure-free run's
	// windows are final; slide is the distance between two windows'
	// starts; the map is walked again once it holds foldAt cells.
	foldedBelow int64
	folded      map[string]*foldedKey
	finalBelow  func() int64
	slide       int64
	foldAt      int
	unfolded    int // cells deleted from the map since it was made afresh
	// windowTimes, when set, calls f with the event time of every record
	// of key with a time from lo up to hi that the failure-free run's
	// window count has taken, size being its windows': the fold then keeps
	// foldBudget bytes of full blocks (the constant; tests set less),
	// kept oldest first from keptHead, foldBytes in all (see
	// dropOldBlocks).
	windowTimes func(key string, lo, hi int64, f func(t int64))
	size        int64
	kept        []foldRef
	keptHead    int
	foldBytes   int
	foldBudget  int
	// over holds the cells whose got exceeds exp.
	over map[windowKey]*cell
	// late holds, per key, the records the failure-free run left out of
	// its windows as late (see LedgerTotals.LateCounted).
	late   map[string]*lateRanges
	totals LedgerTotals
	wrong  int64 // rows whose got != exp

	// foldedBytes and lateBytes are the memory folded and late take,
	// kept as they grow (see holds).
	foldedBytes, lateBytes int64
}

type cell struct{ exp, got int64 }

// LedgerTotals are the ledger's counts so far.
type LedgerTotals struct {
	Expected   int64
	Delivered  int64
	Unique     int64
	Duplicates int64
	// LateCounted is the part of Duplicates made of records the
	// failure-free run dropped as late and this run counted. After a
	// failure the watermark is not where it was (a replacement starts
	// without one; rollback recovery holds it back for a dead sender), so
	// fewer records are late: extra effects, but none counted twice.
	LateCounted int64
	Lost        int64
	// Owed is what the sink lacks that recovery still delivers, and
	// Uncommitted the rows open transactions hold (engine/ledger_owed.go); the
	// runtime fills them in, and Lost is then what is left.
	Owed        int64
	Uncommitted int64
	Correct     bool
}

func newLedger(events bool, mode Mode, sink SinkKind) *Ledger {
	return &Ledger{events: events, mode: mode, keyed: events && sink == SinkTable && mode != ModeAppend,
		cells: map[windowKey]*cell{}, foldedBelow: math.MinInt64, foldBudget: foldBudget}
}

// Totals returns the counts so far.
func (l *Ledger) Totals() LedgerTotals {
	t := l.totals
	t.Duplicates = t.Delivered - t.Unique
	for k, c := range l.over {
		t.LateCounted += min(c.got-c.exp, l.lateAt(k))
	}
	t.Lost = t.Expected - t.Unique
	t.Correct = l.wrong == 0
	return t
}

func (l *Ledger) cell(r Record) *cell {
	if l.events {
		o := r.Offset
		if l.cellOf != nil {
			o = l.cellOf(o)
		}
		if o < l.base {
			return l.unfold(o)
		}
		for int64(len(l.dense)) <= o-l.base {
			l.dense = append(l.dense, cell{})
		}
		return &l.dense[o-l.base]
	}
	return l.windowCell(windowKey{r.WindowStart, r.Key})
}

// unfold returns the cell of folded offset o, made again from its bit
// when it had none of its own: a folded cell without one had got == exp.
func (l *Ledger) unfold(o int64) *cell {
	if c := l.odd[o]; c != nil {
		return c
	}
	var exp int64
	if l.expOf != nil {
		exp = l.expOf(o)
	} else {
		exp = int64(l.expBits[o/64] >> (o % 64) & 1)
	}
	c := &cell{exp: exp, got: exp}
	if l.odd == nil {
		l.odd = map[int64]*cell{}
	}
	l.odd[o] = c
	return c
}

// settle folds the cells of offsets below upTo, whose exp is final: the
// failure-free run has read past them, and what it read it has committed.
func (l *Ledger) settle(upTo int64) {
	if !l.events {
		l.foldWindows()
		return
	}
	n := min(upTo-l.base, int64(len(l.dense)))
	if n < foldChunk {
		return // fold in chunks: a step must not pay for it
	}
	for i := range n {
		o, c := l.base+i, l.dense[i]
		if l.expOf == nil {
			for int64(len(l.expBits)) <= o/64 {
				l.expBits = append(l.expBits, 0)
			}
			if c.exp == 1 {
				l.expBits[o/64] |= 1 << (o % 64)
			}
		}
		if c.got != c.exp || c.exp > 1 {
			if l.odd == nil {
				l.odd = map[int64]*cell{}
			}
			cc := c
			l.odd[o] = &cc
		}
	}
	l.base += n
	if len(l.odd) >= max(l.sweepAt, foldChunk) {
		// Records lost for a while and delivered since agree again.
		for o, c := range l.odd {
			if c.got == c.exp && c.exp <= 1 {
				if l.expOf == nil {
					if c.exp == 1 {
						l.expBits[o/64] |= 1 << (o % 64)
					} else {
						l.expBits[o/64] &^= 1 << (o % 64)
					}
				}
				delete(l.odd, o)
			}
		}
		l.sweepAt = 2 * len(l.odd)
	}
	// Keep the rest, in a fresh array once the folded part dominates, so
	// that the memory of folded cells is given back.
	rest := l.dense[n:]
	if int64(cap(l.dense)) > 2*int64(len(rest))+foldChunk {
		rest = append(make([]cell, 0, len(rest)+foldChunk), rest...)
	}
	l.dense = rest
}

// foldChunk is how many settled cells settle folds at a time at least.
const foldChunk = 4096

// set changes one side of a cell and keeps the totals current.
func (l *Ledger) set(c *cell, real bool, v int64) {
	before := c.got != c.exp
	if real {
		l.totals.Delivered += v - c.got
		l.totals.Unique += min(v, c.exp) - min(c.got, c.exp)
		c.got = v
	} else {
		l.totals.Expected += v - c.exp
		l.totals.Unique += min(c.got, v) - min(c.got, c.exp)
		c.exp = v
	}
	if after := c.got != c.exp; after != before {
		if after {
			l.wrong++
		} else {
			l.wrong--
		}
	}
}

// apply records one committed batch of the real sink (real) or of the
// failure-free run.
func (l *Ledger) apply(batch []Record, real bool) {
	side := func(c *cell) int64 {
		if real {
			return c.got
		}
		return c.exp
	}
	if !l.events && l.mode == ModeComplete {
		seen := make(map[windowKey]bool, len(batch))
		for _, r := range batch {
			seen[windowKey{r.WindowStart, r.Key}] = true
		}
		for k, c := range l.cells {
			if !seen[k] && side(c) != 0 {
				l.set(c, real, 0)
				l.noteOver(k, c)
			}
		}
	}
	for _, r := range batch {
		c := l.cell(r)
		switch {
		case l.events && l.keyed:
			l.set(c, real, 1)
		case l.events:
			l.set(c, real, side(c)+1)
		case l.mode == ModeAppend:
			l.set(c, real, side(c)+r.Value)
		default:
			l.set(c, real, r.Value)
		}
		if !l.events {
			l.noteOver(windowKey{r.WindowStart, r.Key}, c)
		}
	}
}

// filterLost is what result rows a membership filter dropped by mistake
// cost, per window and key, in counts a reader of the sink lacks: in
// append mode the dropped rows' values, as far as the cell lacks them; in
// update mode the largest dropped value above what the reader sees, as
// far as the failure-free count goes (a later row that passed makes up
// for an earlier one dropped). Never more than the cell lacks, so what is
// left of lost is what never reached the filter: owed by recovery.
func (l *Ledger) filterLost(rows map[windowKey]droppedRows) int64 {
	var n int64
	for k, d := range rows {
		c := l.cells[k]
		if c == nil {
			continue // the failure-free run has no such row: nothing lacks
		}
		lacks := max(c.exp-c.got, 0)
		if l.mode == ModeAppend {
			n += min(d.sum, lacks)
		} else {
			n += min(max(min(d.max, c.exp)-c.got, 0), lacks)
		}
	}
	return n
}

// recordPure reports whether every operator of spec the failure-free run
// has decides what to emit from the record alone, holding nothing back:
// then a record's failure-free effect can be computed again at any time.
func recordPure(spec jobspec.Spec) bool {
	for _, op := range spec.Operators {
		switch op.Kind {
		case jobspec.KindParse, jobspec.KindMap, jobspec.KindFilter, jobspec.KindBreachCheck, jobspec.KindDedup:
			// dedup is not in the failure-free run (see newChain)
		default:
			return false
		}
	}
	return true
}

// expProbe returns a function that pushes the source's record at an offset
// through a private copy of the failure-free chain and counts what reaches
// its sink: that offset's exp.
func expProbe(spec jobspec.Spec, newOp func(jobspec.Operator) (operator, error), src *Source) func(int64) int64 {
	sink := &sinkOp{writer: &logSink{}, events: true}
	probe := newChain(spec, newOp, nil, sink)
	return func(off int64) int64 {
		probe.push(0, src.At(off))
		n := int64(len(sink.buf))
		sink.buf = sink.buf[:0]
		return n
	}
}
