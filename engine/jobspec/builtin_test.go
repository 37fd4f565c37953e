package jobspec_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/internal/poserr"
)

func TestNames(t *testing.T) {
	want := []string{"clicks", "passthrough", "passwords"}
	if got := jobspec.Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
}

func TestBuiltins(t *testing.T) {
	nodes := map[string][]string{
		"clicks":      {"source", "parse", "count[0]", "count[1]", "sink"},
		"passthrough": {"source", "map", "filter", "sink"},
		"passwords":   {"source", "check", "sink"},
	}
	for _, name := range jobspec.Names() {
		s, ok := jobspec.Builtin(name)
		if !ok {
			t.Fatalf("Builtin(%q) not found", name)
		}
		if s.Name != name {
			t.Errorf("Builtin(%q).Name = %q", name, s.Name)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("Builtin(%q) is invalid: %v", name, err)
		}
		if got := s.Nodes(); !slices.Equal(got, nodes[name]) {
			t.Errorf("Builtin(%q).Nodes() = %q, want %q", name, got, nodes[name])
		}
		if d := s.WithDefaults(); !reflect.DeepEqual(d, s) {
			t.Errorf("Builtin(%q) lacks defaults:\n got %+v\nwant %+v", name, s, d)
		}
	}
	if _, ok := jobspec.Builtin("nope"); ok {
		t.Error(`Builtin("nope") found`)
	}
}

func TestClicks(t *testing.T) {
	s, _ := jobspec.Builtin("clicks")
	src := s.Source
	if src.Rate != 100 || src.Devices != 50 || src.Disorder != 2*time.Second || src.LateFraction != 0.02 ||
		src.LateBy != 30*time.Second || src.Watermark != 5*time.Second || src.Trigger != time.Second ||
		!src.Start.Equal(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)) ||
		!slices.Equal(src.Actions, []string{"open", "close", "click", "scroll", "view"}) {
		t.Errorf("clicks source = %+v", src)
	}
	count := s.Operators[1]
	want := jobspec.Operator{Name: "count", Kind: jobspec.KindWindowCount, Parallelism: 2,
		Partition: jobspec.PartitionHash, Window: 10 * time.Second, Slide: 10 * time.Second}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("clicks count = %+v, want %+v", count, want)
	}
}

// TestBuiltinsIndependent checks that a caller changing a built-in job does
// not change what the next caller gets.
func TestBuiltinsIndependent(t *testing.T) {
	a, _ := jobspec.Builtin("passthrough")
	a.Operators[1].Drop[0] = "open"
	a.Source.Actions[0] = "x"
	b, _ := jobspec.Builtin("passthrough")
	if b.Operators[1].Drop[0] != "scroll" || b.Source.Actions[0] != "open" {
		t.Fatalf("Builtin shares state between callers: %+v", b)
	}
}

// TestBuiltinFiles checks that the built-in jobs written as YAML parse to
// the built-ins themselves: the file format and the Go definitions agree.
// (The passwords job's login source is built in only.)
func TestBuiltinFiles(t *testing.T) {
	for _, name := range []string{"clicks", "passthrough"} {
		want, _ := jobspec.Builtin(name)
		got, err := jobspec.Load(filepath.Join("testdata", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("testdata/%s.yaml:\n got %+v\nwant %+v", name, got, want)
		}
	}
}

func TestWithDefaults(t *testing.T) {
	ops := []jobspec.Operator{
		{Name: "p", Kind: jobspec.KindParse},
		{Name: "c", Kind: jobspec.KindWindowCount, Window: time.Minute},
		{Name: "d", Kind: jobspec.KindDedup, Parallelism: 3, Partition: jobspec.PartitionRebalance},
	}
	s := jobspec.Spec{Name: "j", Operators: ops}.WithDefaults()
	want := []jobspec.Operator{
		{Name: "p", Kind: jobspec.KindParse, Parallelism: 1, Partition: jobspec.PartitionForward},
		{Name: "c", Kind: jobspec.KindWindowCount, Parallelism: 1, Partition: jobspec.PartitionHash, Window: time.Minute, Slide: time.Minute},
		{Name: "d", Kind: jobspec.KindDedup, Parallelism: 3, Partition: jobspec.PartitionRebalance},
	}
	if !reflect.DeepEqual(s.Operators, want) {
		t.Errorf("operators = %+v, want %+v", s.Operators, want)
	}
	if ops[0].Parallelism != 0 {
		t.Error("WithDefaults wrote to the caller's operators")
	}
	src := jobspec.DefaultSource()
	if s.Source.Rate != src.Rate || s.Source.Devices != src.Devices || s.Source.Trigger != src.Trigger ||
		!s.Source.Start.Equal(src.Start) || !slices.Equal(s.Source.Actions, src.Actions) {
		t.Errorf("source = %+v", s.Source)
	}
	// Zero is meaningful for these, so they stay zero.
	if s.Source.Disorder != 0 || s.Source.LateFraction != 0 || s.Source.LateBy != 0 || s.Source.Watermark != 0 {
		t.Errorf("WithDefaults filled a field whose zero is meaningful: %+v", s.Source)
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
}

func TestValidate(t *testing.T) {
	base := func() jobspec.Spec {
		s, _ := jobspec.Builtin("clicks")
		return s
	}
	tests := []struct {
		name   string
		change func(*jobspec.Spec)
		want   string
	}{
		{"no name", func(s *jobspec.Spec) { s.Name = "" }, "name: a job needs a name"},
		{"bad name", func(s *jobspec.Spec) { s.Name = "Clicks" }, `name: "Clicks" is not a valid name`},
		{"no operators", func(s *jobspec.Spec) { s.Operators = nil }, "at least one operator"},
		{"duplicate operator", func(s *jobspec.Spec) { s.Operators[1].Name = "parse" }, `operator "parse": the name is used twice`},
		{"reserved name", func(s *jobspec.Spec) { s.Operators[0].Name = "jobmanager" }, "reserved"},
		{"bracket in name", func(s *jobspec.Spec) { s.Operators[0].Name = "a[1]" }, "not a valid name"},
		{"parallelism 0", func(s *jobspec.Spec) { s.Operators[1].Parallelism = 0 }, "parallelism 0 is out of range 1..16"},
		{"parallelism 17", func(s *jobspec.Spec) { s.Operators[1].Parallelism = 17 }, "parallelism 17 is out of range 1..16"},
		{"unknown kind", func(s *jobspec.Spec) { s.Operators[0].Kind = "join" }, `unknown kind "join" (want parse, map, filter, window-count, dedup or breach-check)`},
		{"unknown partition", func(s *jobspec.Spec) { s.Operators[1].Partition = "range" }, `unknown partition "range"`},
		{"forward 1 to 2", func(s *jobspec.Spec) { s.Operators[1].Partition = "forward" }, "forward needs equal parallelism, but parse has 1 and count has 2"},
		{"no window", func(s *jobspec.Spec) { s.Operators[1].Window, s.Operators[1].Slide = 0, 0 }, "needs a positive window"},
		{"slide 0", func(s *jobspec.Spec) { s.Operators[1].Slide = 0 }, "slide 0s must be positive"},
		{"slide > window", func(s *jobspec.Spec) { s.Operators[1].Slide = time.Minute }, "at most the window"},
		{"slide not dividing", func(s *jobspec.Spec) { s.Operators[1].Slide = 3 * time.Second }, "not a multiple of slide 3s"},
		{"window on parse", func(s *jobspec.Spec) { s.Operators[0].Window = time.Second }, "only a window-count has a window"},
		{"drop on parse", func(s *jobspec.Spec) { s.Operators[0].Drop = []string{"x"} }, "only a filter has a drop list"},
		{"rate 0", func(s *jobspec.Spec) { s.Source.Rate = 0 }, "rate: 0 records per second is out of range 1..1000000"},
		{"rate too high", func(s *jobspec.Spec) { s.Source.Rate = 1_000_001 }, "out of range"},
		{"no devices", func(s *jobspec.Spec) { s.Source.Devices = 0 }, "devices: 0 is out of range"},
		{"no actions", func(s *jobspec.Spec) { s.Source.Actions = nil }, "at least one action"},
		{"empty action", func(s *jobspec.Spec) { s.Source.Actions = []string{"a", ""} }, "must not be empty"},
		{"repeated action", func(s *jobspec.Spec) { s.Source.Actions = []string{"a", "a"} }, `"a" is listed twice`},
		{"late fraction", func(s *jobspec.Spec) { s.Source.LateFraction = 1.5 }, "late_fraction: 1.5 is out of range 0..1"},
		{"negative disorder", func(s *jobspec.Spec) { s.Source.Disorder = -time.Second }, "disorder: -1s must not be negative"},
		{"negative late_by", func(s *jobspec.Spec) { s.Source.LateBy = -time.Second }, "late_by"},
		{"negative watermark", func(s *jobspec.Spec) { s.Source.Watermark = -time.Second }, "watermark"},
		{"zero trigger", func(s *jobspec.Spec) { s.Source.Trigger = 0 }, "trigger: 0s must be positive"},
		{"zero start", func(s *jobspec.Spec) { s.Source.Start = time.Time{} }, "start time"},
		{"start after 9999", func(s *jobspec.Spec) { s.Source.Start = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, "outside the years 1 to 9999"},
		{"start before year 1", func(s *jobspec.Spec) { s.Source.Start = time.Date(0, 12, 31, 23, 59, 59, 0, time.UTC) }, "outside the years 1 to 9999"},
		{"dependency kind", func(s *jobspec.Spec) {
			s.Dependencies = []jobspec.Dependency{{Name: "x", Kind: "jar"}}
		}, `dependency "x": unknown kind "jar" (want connector or driver)`},
		{"dependency name", func(s *jobspec.Spec) {
			s.Dependencies = []jobspec.Dependency{{Kind: "driver"}}
		}, "dependency 1: name is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base()
			tt.change(&s)
			err := s.Validate()
			if err == nil {
				t.Fatalf("Validate() = nil, want %q", tt.want)
			}
			if !contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %q, want it to contain %q", err, tt.want)
			}
			// A spec built in Go has no file, so the message stands alone.
			if e, ok := err.(*poserr.Error); !ok || !errors.Is(err, jobspec.ErrBadJob) || e.File != "" || e.Line != 0 {
				t.Errorf("Validate() = %#v, want an unlocated *poserr.Error of kind ErrBadJob", err)
			}
		})
	}
}
