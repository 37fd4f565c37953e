package classroom

import (
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
	// Holds is the memory, in bytes, that the lab's engine says it holds in
	// its latest frame: records waiting in queues, held back for
	// alignment, kept for upstream backup or shown as the sink's latest
	// rows, and the filter's bits. The engine's other state (windows, the
	// ledger) is not in it.
	Holds int64 `json:"holds_bytes"`
}

// labMeter measures one student's lab (a tui.Meter).
type labMeter struct {
	cpu   atomic.Int64 // ns
	holds atomic.Int64 // bytes
}

// Work runs f on a thread of its own for the while, and counts the CPU
// time that thread spent.
func (m *labMeter) Work(f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	f()
	m.cpu.Add(int64(threadCPU() - start))
}

// Frame keeps what the engine holds in snap.
func (m *labMeter) Frame(snap *engine.Snapshot) { m.holds.Store(heldBytes(snap)) }

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
	bytes := records * recordBytes
	if snap.Filter != nil {
		bytes += snap.Filter.Bytes
	}
	return bytes
}
