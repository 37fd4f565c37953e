package jobspec

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

// Dependency kinds.
const (
	DependencyConnector = "connector" // a table/stream connector, found by factory identifier
	DependencyDriver    = "driver"    // a database driver, found by class name
)

// builtins are functions, not values, so every caller gets its own slices
// and cannot change the job another caller sees.
var builtins = map[string]func() Spec{
	"clicks": func() Spec {
		return Spec{
			Name:        "clicks",
			Description: "Spark's Structured Streaming example: events from many devices, counted per action in tumbling 10 s event-time windows.",
			Source:      DefaultSource(),
			Operators: []Operator{
				{Name: "parse", Kind: KindParse, Parallelism: 1},
				{Name: "count", Kind: KindWindowCount, Parallelism: 2, Partition: PartitionHash,
					Window: 10 * time.Second, Slide: 10 * time.Second},
			},
		}
	},
	"passwords": func() Spec {
		src := DefaultSource()
		src.Passwords, src.Compromised, src.Actions = true, 0.05, []string{"login"}
		return Spec{
			Name:        "passwords",
			Description: "Login attempts checked against a Bloom filter of compromised passwords: a few are leaked, and the filter's false positives flag some clean ones.",
			Source:      src,
			Operators: []Operator{
				{Name: "check", Kind: KindBreachCheck, Parallelism: 1},
			},
		}
	},
	"passthrough": func() Spec {
		return Spec{
			Name:        "passthrough",
			Description: "No state: records are mapped, scroll events filtered out, and the rest written to the sink.",
			Source:      DefaultSource(),
			Operators: []Operator{
				{Name: "map", Kind: KindMap, Parallelism: 1},
				{Name: "filter", Kind: KindFilter, Parallelism: 1, Drop: []string{"scroll"}},
			},
		}
	},
}

// Builtin returns a built-in job by name, with defaults applied; ok is false
// for an unknown name.
func Builtin(name string) (Spec, bool) {
	build, ok := builtins[name]
	if !ok {
		return Spec{}, false
	}
	return build().WithDefaults(), true
}

// Names lists the built-in job names, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(builtins))
}

// DefaultSource returns the source of the clicks job. A job file's source
// keys default to these values, and Go code that builds a Spec can start
// from it rather than spell out every field.
func DefaultSource() Source {
	return Source{
		Rate:         100,
		Devices:      50,
		Actions:      []string{"open", "close", "click", "scroll", "view"},
		Disorder:     2 * time.Second,
		LateFraction: 0.02,
		LateBy:       30 * time.Second,
		Watermark:    5 * time.Second,
		Trigger:      time.Second,
		Start:        time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC),
	}
}

// defaultPartition is the partitioning of the edge into an operator of the
// given kind when none is set: keyed state (window-count, dedup) must see all
// records of a key, so those are hashed; stateless stages stay forward.
func defaultPartition(kind string) string {
	if kind == KindWindowCount || kind == KindDedup {
		return PartitionHash
	}
	return PartitionForward
}

// WithDefaults fills unset (zero) fields with the documented defaults: the
// source's Rate, Devices, Actions, Trigger and Start from DefaultSource, an
// operator's Parallelism 1, its Partition by kind (hash for window-count and
// dedup, forward otherwise) and a window-count's Slide = Window (tumbling).
//
// Disorder, LateFraction, LateBy and Watermark are left alone: zero is a
// meaningful value for them (an in-order source, no late events), so a zero
// cannot mean "unset". Parse fills them for keys a file leaves out; Go code
// can start from DefaultSource.
func (s Spec) WithDefaults() Spec {
	d := DefaultSource()
	src := &s.Source
	if src.Rate == 0 {
		src.Rate = d.Rate
	}
	if src.Devices == 0 {
		src.Devices = d.Devices
	}
	if len(src.Actions) == 0 {
		src.Actions = d.Actions
	}
	if src.Trigger == 0 {
		src.Trigger = d.Trigger
	}
	if src.Start.IsZero() {
		src.Start = d.Start
	}
	// Copy the operators so filling them in does not write to the caller's slice.
	s.Operators = slices.Clone(s.Operators)
	for i := range s.Operators {
		o := &s.Operators[i]
		if o.Parallelism == 0 {
			o.Parallelism = 1
		}
		if o.Partition == "" {
			o.Partition = defaultPartition(o.Kind)
		}
		if o.Kind == KindWindowCount && o.Slide == 0 {
			o.Slide = o.Window
		}
	}
	return s
}

// Nodes lists the node names of the job in dataflow order: "source", each
// operator as "name" (parallelism 1) or "name[0]" … "name[p-1]", then "sink".
// These are the names a lab script kills and restarts.
func (s Spec) Nodes() []string {
	nodes := []string{"source"}
	for _, o := range s.Operators {
		if o.Parallelism <= 1 {
			nodes = append(nodes, o.Name)
			continue
		}
		for i := range o.Parallelism {
			nodes = append(nodes, o.Name+"["+strconv.Itoa(i)+"]")
		}
	}
	return append(nodes, "sink")
}
