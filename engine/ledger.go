package engine

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
type Ledger struct {
	events bool
	mode   Mode
	keyed  bool // a table keyed by record id: a re-written record counts once
	dense  []cell
	cells  map[windowKey]*cell
	totals LedgerTotals
	wrong  int64 // rows whose got != exp
}

type cell struct{ exp, got int64 }

// LedgerTotals are the ledger's counts so far.
type LedgerTotals struct {
	Expected   int64
	Delivered  int64
	Unique     int64
	Duplicates int64
	Lost       int64
	Correct    bool
}

func newLedger(events bool, mode Mode, sink string) *Ledger {
	return &Ledger{events: events, mode: mode, keyed: events && sink == SinkTable && mode != ModeAppend,
		cells: map[windowKey]*cell{}}
}

// Totals returns the counts so far.
func (l *Ledger) Totals() LedgerTotals {
	t := l.totals
	t.Duplicates = t.Delivered - t.Unique
	t.Lost = t.Expected - t.Unique
	t.Correct = l.wrong == 0
	return t
}

func (l *Ledger) cell(r Record) *cell {
	if l.events {
		for int64(len(l.dense)) <= r.Offset {
			l.dense = append(l.dense, cell{})
		}
		return &l.dense[r.Offset]
	}
	k := windowKey{r.WindowStart, r.Key}
	c := l.cells[k]
	if c == nil {
		c = &cell{}
		l.cells[k] = c
	}
	return c
}

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
	}
}
