package classroom

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/streamlab/streamlab/engine"
)

// Usage is what a student's open lab costs the server.
type Usage struct {
	// CPU is the CPU time the lab's work has taken since it opened: its
	// engine's requests and ticks, its screen's updates and drawings, each
	// measured on the thread that ran it (not the SSH connection's
	// encryption, nor the garbage collector's background work).
	CPU time.Duration `json:"cpu_ns"`
	// Holds is the memory, in bytes, that the lab's engine holds in its
	// latest frame: records waiting in queues, held back for alignment,
	// kept for upstream backup or shown as the sink's latest rows, the
	// filter's bits, and the rest of its state (engine.Runtime.Holds):
	// open windows, the ledger, lineage and checkpoints. The engine
	// estimates it from its containers' sizes on its own goroutine as it
	// takes the frame, so reading it costs the same at any size.
	Holds int64 `json:"holds_bytes"`
}

// labMeter measures one student's lab (a tui.Meter), and makes its long
// engine runs take turns with the other labs' (see turns).
type labMeter struct {
	cpu    atomic.Int64 // ns
	holds  atomic.Int64 // bytes
	frames atomic.Int64 // frames the lab's screen has taken

	// The engine's work, from its one goroutine: the thread it is locked
	// to, the turn it takes, and the thread's CPU time when the work or
	// its turn began.
	thread int
	turn   turn
	since  time.Duration
}

// Engine runs a piece of the engine's work, measured (see Draw); a long
// one waits for turns within it (Yield).
func (m *labMeter) Engine(f func()) {
	m.measure(func() {
		m.thread, m.since = threadID(), threadCPU()
		defer m.turn.end()
		f()
	})
}

// Yield is called every few thousand steps of an engine run: once the
// piece of work has run for longRun, it goes on only in turns. A call
// from another goroutine (a node of the concurrent executor) is not the
// engine's work to pace, and does nothing.
func (m *labMeter) Yield() {
	if threadID() != m.thread {
		return
	}
	used := threadCPU() - m.since
	if used < longRun || (m.turn.held && used < turnLength) {
		return
	}
	m.turn.end()
	m.turn.take()
	m.since = threadCPU()
}

// Draw runs f on a thread of its own for the while, and counts the CPU
// time that thread spent.
func (m *labMeter) Draw(f func()) { m.measure(f) }

func (m *labMeter) measure(f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	defer func() { m.cpu.Add(int64(threadCPU() - start)) }()
	f()
}

// Frame keeps what the engine holds in snap, and counts the frame.
func (m *labMeter) Frame(snap *engine.Snapshot) {
	m.holds.Store(heldBytes(snap))
	m.frames.Add(1)
}

func (m *labMeter) usage() Usage {
	return Usage{CPU: time.Duration(m.cpu.Load()), Holds: m.holds.Load()}
}

// recordBytes is the memory of one record the engine keeps.
const recordBytes = int64(unsafe.Sizeof(engine.Record{}))

// heldBytes is the memory snap says the engine holds (see Usage.Holds).
func heldBytes(snap *engine.Snapshot) int64 {
	records := snap.Backup + int64(len(snap.Rows))
	for _, n := range snap.Nodes {
		records += int64(n.Queue + n.Held)
	}
	bytes := records*recordBytes + snap.Holds
	if snap.Filter != nil {
		bytes += snap.Filter.Bytes
	}
	return bytes
}

// A piece of engine work that has taken longRun of CPU (a fast-forward to
// the end, a long paste of lines) is a long run: it goes on in turns of
// turnLength, taking turns with the server's other long runs for a share
// of its cores. A lab's ordinary ticks take a few milliseconds and never
// wait; the turns change only when a long run's steps are taken, never
// which or what they do.
const (
	longRun    = 50 * time.Millisecond
	turnLength = 20 * time.Millisecond
)

// turns are the server's long runs' share of its cores: one slot a turn.
type turns struct {
	slots chan struct{}
}

// newTurns gives long runs half the cores (at least one): the other half
// stays free for the class's ticks and drawing.
func newTurns() *turns {
	return &turns{slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))}
}

// turn is one lab's place among the long runs; ctx ends its waits.
type turn struct {
	of   *turns
	ctx  context.Context
	held bool
}

// take waits for a slot (first come, first served), or for the lab to
// close.
func (t *turn) take() {
	if t.of == nil {
		return
	}
	select {
	case t.of.slots <- struct{}{}:
		t.held = true
	case <-t.ctx.Done():
	}
}

// end gives the slot back, if held.
func (t *turn) end() {
	if t.held {
		<-t.of.slots
		t.held = false
	}
}
