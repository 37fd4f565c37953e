package engine

import (
	"errors"
	"fmt"

	"github.com/streamlab/streamlab/engine/filter"
)

// ErrMemoryBudget is matched (errors.Is) by the failure of a run whose
// state grew past Config.MemoryBudget. (A filter bigger than the budget
// is refused before the run, as an ErrBadConfig that says so.)
var ErrMemoryBudget = errors.New("over the lab's memory budget")

// memoryCheckEvery is how many scheduler steps apart the budget is
// checked: a step adds at most one record's windows to the state, so a
// run goes over by a few of those at most, and the check (O(nodes)) costs
// little beside the steps between.
const memoryCheckEvery = 64

// memoryParts is the memory a run holds, by what holds it.
type memoryParts struct {
	windows, checkpoints, ledger, backup, filter, output, other int64
	openWindows                                                 int64
}

func (p memoryParts) total() int64 {
	return p.windows + p.checkpoints + p.ledger + p.backup + p.filter + p.output + p.other
}

// MemoryHeld is the memory the run's state holds as its budget counts it:
// Holds, the records upstream backup keeps and the dedup stage's filter.
// Like Holds it reads sizes and walks nothing.
func (r *Runtime) MemoryHeld() int64 {
	n := r.Holds() + r.filterMemory()
	if r.recovery != nil {
		n += r.recovery.backupNow * recordBytes
	}
	return n
}

// memoryParts is MemoryHeld by what holds it, for the message that says
// what to change.
func (r *Runtime) memoryParts() memoryParts {
	var p memoryParts
	for _, x := range r.g.nodes {
		p.windows += operatorHolds(x.op) + operatorHolds(x.rep)
	}
	if r.ref != nil {
		for _, op := range r.ref.ops {
			p.windows += operatorHolds(op)
		}
	}
	p.openWindows = r.Timers()
	if r.ledger != nil {
		p.ledger = r.ledger.holds()
	}
	if r.recovery != nil {
		p.backup = r.recovery.backupNow * recordBytes
	}
	if r.recovery != nil && r.recovery.ckpt != nil {
		p.checkpoints = r.recovery.ckpt.holds()
	}
	p.output = r.sink.holds()
	if r.ref != nil {
		p.output += r.ref.sink.holds()
	}
	p.filter = r.filterMemory()
	p.other = r.Holds() - p.windows - p.checkpoints - p.ledger - p.output
	return p
}

// filterMemory is what the dedup stage's filter holds, without counting
// its bits: a Bloom filter's are all made with it (two generations for a
// rotating one), and an exact set counts its ids.
func (r *Runtime) filterMemory() int64 {
	return filterSpecBytes(r.cfg.Filter, func() int64 {
		if d := r.dedup(); d != nil {
			return d.f.Stats().Bytes
		}
		return 0
	})
}

// filterSpecBytes is the bits a filter of spec s is made with, in bytes;
// exact, which grows as ids come, is whatever exactNow says.
func filterSpecBytes(s filter.Spec, exactNow func() int64) int64 {
	m, _ := s.BloomParams()
	switch s.Kind {
	case filter.KindBloom:
		return int64(m+63) / 64 * 8
	case filter.KindRotating:
		return 2 * (int64(m+63) / 64 * 8)
	case filter.KindExact:
		return exactNow()
	}
	return 0
}

// CheckFilterBudget refuses, as an ErrBadConfig, a Bloom filter whose
// bits alone pass cfg's memory budget: it would hold them before the
// first record. Validate checks it too; a lab asks at `set filter`.
func CheckFilterBudget(cfg Config) error {
	if cfg.MemoryBudget <= 0 {
		return nil
	}
	if n := filterSpecBytes(cfg.Filter, func() int64 { return 0 }); n > cfg.MemoryBudget {
		return badConfig("%v: filter %s holds %s of bits before a record comes, of the %s a job may hold here; ask for fewer ids (n), a higher false-positive rate (p) or fewer bits (m)",
			ErrMemoryBudget, cfg.Filter, megabytes(n), megabytes(cfg.MemoryBudget))
	}
	return nil
}

// checkMemory fails the job once its state has grown past the budget,
// every memoryCheckEvery steps.
func (r *Runtime) checkMemory() {
	if r.cfg.MemoryBudget <= 0 || r.det == nil || r.det.steps%memoryCheckEvery != 0 {
		return
	}
	if r.MemoryHeld() <= r.cfg.MemoryBudget {
		return
	}
	p := r.memoryParts()
	r.fail(r.eventNow(), fmt.Errorf("%w: the job's state holds %s of the %s it may hold; %s",
		ErrMemoryBudget, megabytes(p.total()), megabytes(r.cfg.MemoryBudget), p.advice()))
}

// advice says what holds the most of what grows with the run, and which
// settings make it less. Checkpoints copy the operators' state, windows
// mostly: the two count together. The lineage is left out: it keeps a
// bounded number of rows, whatever the settings.
func (p memoryParts) advice() string {
	state := p.windows + p.checkpoints
	switch max(state, p.ledger, p.backup, p.filter, p.output) {
	case state:
		if p.openWindows == 0 {
			return "most of it is the checkpoints' copies of the state"
		}
		copies := ""
		if p.checkpoints > 0 {
			copies = " and the checkpoints' copies of them"
		}
		return fmt.Sprintf("most of it is %d open windows%s: a watermark closes them (set source.watermark), a longer slide opens fewer (set window.slide)", p.openWindows, copies)
	case p.ledger:
		return "most of it is the ledger, which keeps each window's count until the window is final: a watermark makes them final sooner (set source.watermark), a longer slide makes fewer (set window.slide)"
	case p.backup:
		return "most of it is the records upstream backup keeps until a checkpoint: checkpoint more often (set checkpoint.interval)"
	case p.filter:
		return "most of it is the dedup stage's filter: a Bloom filter of fixed size holds less (set filter bloom n=N p=P)"
	}
	return "most of it is the rows the sink gathers for its next batch, every window changed since the last trigger: a longer slide changes fewer (set window.slide), a shorter trigger interval writes them sooner (set source.trigger)"
}

// megabytes formats n bytes for a message.
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
