// Package jobspec describes streamlab jobs as data: the built-in jobs by name
// and job files in YAML. It knows nothing about running them.
package jobspec

import "time"

// Spec is a dataflow: a source, a chain of operators, and a sink.
// Each operator runs as Parallelism nodes named "name[i]" (or "name" when
// Parallelism is 1).
type Spec struct {
	Name        string
	Description string
	Source      Source
	Operators   []Operator
	// Connector is the factory identifier of the connector the job's sink
	// uses (e.g. "jdbc"), and Driver the class that connector loads (e.g.
	// "com.mysql.cj.jdbc.Driver"); empty for the built-in sinks.
	Connector string
	Driver    string
	// Dependencies are the connectors and drivers the job declares; a job
	// without its connector fails at submission, one without its driver
	// when the sink task opens its connection.
	Dependencies []Dependency
}

// Source configures the seeded, replayable event log.
type Source struct {
	// Rate is records per second of virtual time.
	Rate int
	// Devices is how many devices emit events (the event's device id).
	Devices int
	// Actions are the action names events carry (the key of the clicks job).
	Actions []string
	// Disorder bounds how far an ordinary event's time lags its arrival.
	Disorder time.Duration
	// LateFraction of events lag a further random amount up to LateBy.
	LateFraction float64
	LateBy       time.Duration
	// Watermark is the bounded out-of-orderness the source assumes: the
	// watermark trails the largest event time seen by this much (Spark's
	// withWatermark delay threshold, Flink's forBoundedOutOfOrderness).
	// NoWatermark means the job has none.
	Watermark time.Duration
	// Trigger is the processing-time trigger interval in virtual time: at each
	// trigger the aggregations emit and the sink commits a micro-batch.
	Trigger time.Duration
	// Start is the event time of the first record.
	Start time.Time
	// File, when set, replays events from a JSON Lines file instead of
	// generating them (the format --dump-source writes).
	File string
	// Passwords makes the events login attempts keyed by the password
	// tried; Compromised of them use a password from the compromised list
	// (the built-in passwords job; not settable from a job file).
	Passwords   bool    `yaml:"-"`
	Compromised float64 `yaml:"-"`
}

// NoWatermark is the Watermark of a source without one (`watermark: none`).
const NoWatermark time.Duration = -1

// Operator kinds.
const (
	KindParse       = "parse"        // validates events and keys them by action
	KindMap         = "map"          // a stateless per-record transformation
	KindFilter      = "filter"       // drops records whose action is listed in Drop
	KindWindowCount = "window-count" // counts per key in event-time windows
	KindDedup       = "dedup"        // a membership filter on record ids
	KindBreachCheck = "breach-check" // flags logins whose password is on a compromised list (a Bloom filter)
)

// Partitioning of the edge into an operator.
const (
	PartitionForward   = "forward"   // instance i feeds instance i (equal parallelism)
	PartitionHash      = "hash"      // by hash of the record key
	PartitionRebalance = "rebalance" // round robin per sender
)

// Operator is one stage of the dataflow.
type Operator struct {
	Name        string
	Kind        string
	Parallelism int
	Partition   string
	// Window and Slide size the event-time windows of a window-count
	// (Slide equal to Window, or zero, gives tumbling windows).
	Window time.Duration
	Slide  time.Duration
	// Drop lists the actions a filter removes.
	Drop []string
	// Key is what a window-count counts per (Flink's keyBy): KeyAction
	// (the default, also when empty) or KeyDevice.
	Key string
}

// The keys a window-count can count per.
const (
	KeyAction = "action"
	KeyDevice = "device"
)

// Dependency is a connector or driver a job declares, as a job would list
// jars on its class path.
type Dependency struct {
	Name     string // e.g. "flink-connector-jdbc"
	Version  string // e.g. "3.1.2-1.17"
	Kind     string // "connector" or "driver"
	Provides string // factory identifier or driver class it provides
}
