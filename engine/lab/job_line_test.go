package lab_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// A job line after settings keeps every one of them: the source's and the
// windows' as well as the engine's, applied to the new job in order.
func TestJobLineKeepsEarlierSettings(t *testing.T) {
	src := "set source.rate 10\nset window 5s\nset mode append\njob clicks\nrun 100\n"
	sc, err := script.Parse("t.lab", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := lab.NewSession("t.lab", lab.Options{})
	defer s.Close()
	for _, c := range sc.Commands {
		if err := s.Exec(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	spec := s.Spec()
	if spec.Source.Rate != 10 || s.Config().Mode != "append" {
		t.Fatalf("rate %d, mode %s; want 10 and append", spec.Source.Rate, s.Config().Mode)
	}
	for _, op := range spec.Operators {
		if op.Kind == jobspec.KindWindowCount && op.Window != 5*time.Second {
			t.Fatalf("%s has a window of %s, want 5s", op.Name, op.Window)
		}
	}
	rep, err := s.Report()
	if err != nil {
		t.Fatal(err)
	}
	// 100 records at 10 a second take ten seconds of virtual time.
	if rep.Source.TimeMS < 9000 {
		t.Fatalf("source.time_ms %d for 100 records at rate 10", rep.Source.TimeMS)
	}
}

// A setting the new job cannot take is an error at the job line that says
// to put the job first.
func TestJobLineRefusesASettingItCannotKeep(t *testing.T) {
	_, err := lab.RunScript(context.Background(), "t.lab", []byte("set window 5s\njob passthrough\nrun 10\n"), lab.Options{})
	if err == nil || !errors.Is(err, lab.ErrBadInput) || !strings.HasPrefix(err.Error(), "t.lab:2:1: ") || !strings.Contains(err.Error(), "put the job line first") {
		t.Fatalf("err = %v", err)
	}
}
