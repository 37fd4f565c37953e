package jobspec

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/internal/poserr"
)

// ErrBadJob is matched (errors.Is) by every error Load, Parse and Validate
// return about the job itself; each is a *poserr.Error naming the file, line
// and column when there are ones (a Spec built in Go and validated has none).
var ErrBadJob = errors.New("bad job")

// Limits a valid spec keeps to. Parallelism is small because every node is
// something a learner watches, kills and restarts by name.
const (
	MaxParallelism = 16
	MaxRate        = 1_000_000
	MaxDevices     = 1_000_000

	// Windows are counted in whole milliseconds (event time is Unix ms),
	// from 1 ms to a day. A record falls into Window/Slide windows, so
	// that ratio is capped too: a 1h window sliding by 1ms would open 3.6
	// million windows for every record.
	MinWindow           = time.Millisecond
	MaxWindow           = 24 * time.Hour
	MaxWindowsPerRecord = 1000

	// Event times (Unix ms) are those of the years 1 to 9999, the range
	// of Spark's TimestampType. A replayed event beyond it is refused:
	// window arithmetic (a start plus a window, a maximum less a
	// watermark delay, a start moved on by a slide) stays a long way from
	// overflowing an int64 with every time and duration a job allows,
	// where an event at 2^63-1 wrapped a window start round to the most
	// negative time and its loop never ended.
	MinEventTime int64 = -62135596800000 // 0001-01-01T00:00:00Z
	MaxEventTime int64 = 253402300799999 // 9999-12-31T23:59:59.999Z
)

// identifier is the form of job and operator names: they are typed in lab
// scripts (kill count[1]) and on the command line, so no spaces or brackets.
var identifier = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// reserved are node names the engine uses itself.
var reserved = map[string]bool{"source": true, "sink": true, "jobmanager": true}

var (
	kinds      = []string{KindParse, KindMap, KindFilter, KindWindowCount, KindDedup, KindBreachCheck}
	partitions = []string{PartitionForward, PartitionHash, PartitionRebalance}
	depKinds   = []string{DependencyConnector, DependencyDriver}
)

// Validate checks a spec's consistency and returns the first problem as an
// *poserr.Error of kind ErrBadJob. It expects defaults to be applied (see WithDefaults): an operator
// with Parallelism 0 or a window-count with Slide 0 is invalid here.
//
// The rules: the job and operator names are identifiers ([a-z][a-z0-9_-]*),
// operator names unique and not source, sink or jobmanager; at least one
// operator; parallelism 1..16; known kinds, partitions and dependency kinds;
// forward only between stages of equal parallelism (the source is one node);
// a window-count has 1ms <= Slide <= Window <= 24h, both whole milliseconds,
// Window a multiple of Slide and at most 1000 times it, and only a window-count has a window, only a filter a drop list;
// rate 1..1,000,000, devices 1..1,000,000, at least one action and no
// duplicates; 0 <= LateFraction <= 1; durations >= 0, the trigger > 0;
// the start in the years 1 to 9999 (MinEventTime..MaxEventTime).
func (s Spec) Validate() error {
	if e := s.validate(); e != nil {
		return &poserr.Error{Msg: e.msg, Kind: ErrBadJob}
	}
	return nil
}

// invalid is a Validate error about the field at path ("operators[1].window"),
// so that Parse can put it at the node the field came from.
type invalid struct{ path, msg string }

// bad builds a Validate error about the field at path.
func bad(path, format string, args ...any) *invalid {
	return &invalid{path: path, msg: fmt.Sprintf(format, args...)}
}

func (s Spec) validate() *invalid {
	if s.Name == "" {
		return bad("name", "name: a job needs a name")
	}
	if !identifier.MatchString(s.Name) {
		return bad("name", "name: %s is not a valid name (want lower-case letters, digits, - and _, starting with a letter)", quote(s.Name))
	}
	if e := s.Source.validate(); e != nil {
		return e
	}
	if len(s.Operators) == 0 {
		return bad("operators", "operators: a job needs at least one operator")
	}
	seen := map[string]bool{}
	upstream, upstreamP := "source", 1
	for i, o := range s.Operators {
		if e := o.validate(i, seen, upstream, upstreamP); e != nil {
			return e
		}
		upstream, upstreamP = o.Name, o.Parallelism
	}
	for i, d := range s.Dependencies {
		path := fmt.Sprintf("dependencies[%d]", i)
		switch {
		case d.Name == "":
			return bad(path+".name", "dependency %d: name is required", i+1)
		case !slices.Contains(depKinds, d.Kind):
			return bad(path+".kind", "dependency %s: unknown kind %s (want %s)", quote(d.Name), quote(d.Kind), list(depKinds))
		}
	}
	return nil
}

func (src Source) validate() *invalid {
	switch {
	case src.Rate < 1 || src.Rate > MaxRate:
		return bad("source.rate", "rate: %d records per second is out of range 1..%d", src.Rate, MaxRate)
	case src.Devices < 1 || src.Devices > MaxDevices:
		return bad("source.devices", "devices: %d is out of range 1..%d", src.Devices, MaxDevices)
	case len(src.Actions) == 0:
		return bad("source.actions", "actions: the source needs at least one action")
	case src.Disorder < 0:
		return bad("source.disorder", "disorder: %v must not be negative", src.Disorder)
	case !(src.LateFraction >= 0 && src.LateFraction <= 1): // also rejects NaN
		return bad("source.late_fraction", "late_fraction: %v is out of range 0..1", src.LateFraction)
	case src.LateBy < 0:
		return bad("source.late_by", "late_by: %v must not be negative", src.LateBy)
	case src.Watermark < 0 && src.Watermark != NoWatermark:
		return bad("source.watermark", "watermark: %v must not be negative (none is written as none)", src.Watermark)
	case src.Trigger <= 0:
		return bad("source.trigger", "trigger: %v must be positive", src.Trigger)
	case src.Start.IsZero():
		return bad("source.start", "start: the source needs a start time")
	case src.Start.UnixMilli() < MinEventTime || src.Start.UnixMilli() > MaxEventTime:
		return bad("source.start", "start: %s is outside the years 1 to 9999", src.Start.UTC().Format(time.RFC3339))
	}
	seen := map[string]bool{}
	for i, a := range src.Actions {
		path := fmt.Sprintf("source.actions[%d]", i)
		if a == "" {
			return bad(path, "actions: an action must not be empty")
		}
		if seen[a] {
			return bad(path, "actions: %s is listed twice", quote(a))
		}
		seen[a] = true
	}
	return nil
}

// validate checks the i'th operator o, fed by the stage named upstream that
// runs upstreamP nodes; seen collects the operator names so far.
func (o Operator) validate(i int, seen map[string]bool, upstream string, upstreamP int) *invalid {
	path := fmt.Sprintf("operators[%d]", i)
	name := "operator " + quote(o.Name)
	switch {
	case o.Name == "":
		return bad(path+".name", "operator %d: name is required", i+1)
	case !identifier.MatchString(o.Name):
		return bad(path+".name", "%s: not a valid name (want lower-case letters, digits, - and _, starting with a letter)", name)
	case reserved[o.Name]:
		return bad(path+".name", "%s: the name is reserved for the engine's own node", name)
	case seen[o.Name]:
		return bad(path+".name", "%s: the name is used twice", name)
	case !slices.Contains(kinds, o.Kind):
		return bad(path+".kind", "%s: unknown kind %s (want %s)", name, quote(o.Kind), list(kinds))
	case o.Parallelism < 1 || o.Parallelism > MaxParallelism:
		return bad(path+".parallelism", "%s: parallelism %d is out of range 1..%d", name, o.Parallelism, MaxParallelism)
	case !slices.Contains(partitions, o.Partition):
		return bad(path+".partition", "%s: unknown partition %s (want %s)", name, quote(o.Partition), list(partitions))
	case o.Partition == PartitionForward && o.Parallelism != upstreamP:
		return bad(path+".partition", "%s: forward needs equal parallelism, but %s has %d and %s has %d (use hash or rebalance)",
			name, upstream, upstreamP, o.Name, o.Parallelism)
	case o.Kind == KindWindowCount && o.Parallelism > 1 && o.Partition != PartitionHash:
		return bad(path+".partition", "%s: a window-count counts per key, so with parallelism %d its input must be partitioned by hash (Flink's keyBy): %s would split one key's count across nodes", name, o.Parallelism, o.Partition)
	case o.Kind != KindFilter && len(o.Drop) > 0:
		return bad(path+".drop", "%s: only a filter has a drop list, not a %s", name, o.Kind)
	case o.Kind != KindWindowCount && o.Key != "":
		return bad(path+".key", "%s: only a window-count has a key, not a %s", name, o.Kind)
	case o.Key != "" && o.Key != KeyAction && o.Key != KeyDevice:
		return bad(path+".key", "%s: unknown key %s (want %s or %s)", name, quote(o.Key), KeyAction, KeyDevice)
	}
	seen[o.Name] = true
	if o.Kind != KindWindowCount {
		if o.Window != 0 || o.Slide != 0 {
			return bad(path+".window", "%s: only a window-count has a window and slide, not a %s", name, o.Kind)
		}
		return nil
	}
	switch {
	case o.Window <= 0:
		return bad(path+".window", "%s: a window-count needs a positive window, got %v", name, o.Window)
	case o.Slide <= 0 || o.Slide > o.Window:
		return bad(path+".slide", "%s: slide %v must be positive and at most the window %v", name, o.Slide, o.Window)
	case o.Window < MinWindow || o.Window > MaxWindow || o.Window%time.Millisecond != 0:
		return bad(path+".window", "%s: a window must be a whole number of milliseconds from %v to %v, got %v", name, MinWindow, MaxWindow, o.Window)
	case o.Slide < MinWindow || o.Slide > o.Window || o.Slide%time.Millisecond != 0:
		return bad(path+".slide", "%s: slide must be a whole number of milliseconds from %v to the window %v, got %v", name, MinWindow, o.Window, o.Slide)
	case o.Window%o.Slide != 0:
		return bad(path+".slide", "%s: window %v is not a multiple of slide %v", name, o.Window, o.Slide)
	case o.Window/o.Slide > MaxWindowsPerRecord:
		return bad(path+".slide", "%s: window %v sliding by %v puts every record in %d windows; at most %d are allowed (use a longer slide)", name, o.Window, o.Slide, o.Window/o.Slide, MaxWindowsPerRecord)
	}
	return nil
}

// quote quotes s for a message, shortened so that a huge value cannot flood
// the terminal.
func quote(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return strconv.Quote(s)
}

// list formats allowed values for a message: "a, b or c".
func list(allowed []string) string {
	if len(allowed) < 2 {
		return strings.Join(allowed, "")
	}
	return strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
}
