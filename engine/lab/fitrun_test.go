package lab_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// FitRun shortens a run to the longest whole-millisecond line a run's
// limits let in (its records at the job's rate, its virtual time), and
// leaves a run that fits alone.
func TestFitRunKeepsARunWithinItsRecords(t *testing.T) {
	for _, tc := range []struct {
		rate    string
		in, out time.Duration
	}{
		{"1000000", 60 * time.Second, 10 * time.Second},
		{"1000000", 1500 * time.Millisecond, 1500 * time.Millisecond},
		{"300000", 60 * time.Second, 33333 * time.Millisecond},
		{"1000", 24 * time.Hour, 10000 * time.Second},
		{"100", 24 * time.Hour, 24 * time.Hour},
		{"1", 48 * time.Hour, 24 * time.Hour},
	} {
		s := lab.NewSession("t.lab", lab.Options{})
		execLines(t, s, "job clicks", "set source.rate "+tc.rate)
		if got := s.FitRun(tc.in); got != tc.out {
			t.Errorf("rate %s: FitRun(%v) = %v, want %v", tc.rate, tc.in, got, tc.out)
		}
		rate := int64(s.Spec().Source.Rate)
		if ms := s.FitRun(time.Hour).Milliseconds(); rate*ms/1000 > script.MaxRunRecords || (ms < time.Hour.Milliseconds() && rate*(ms+1)/1000 <= script.MaxRunRecords) {
			t.Errorf("rate %s: FitRun gives %d ms, not the longest run within %d records", tc.rate, ms, script.MaxRunRecords)
		}
		s.Close()
	}
}

// The lab's own quanta are held to a run line's limits, and count against
// the script's records as a run line does: what the lab records replays.
func TestPlayForIsHeldToARunLinesLimits(t *testing.T) {
	s := lab.NewSession("t.lab", lab.Options{})
	defer s.Close()
	execLines(t, s, "job clicks", "set source.rate 1000000")
	if _, err := s.PlayFor(60 * time.Second); !errors.Is(err, lab.ErrRecordLimit) {
		t.Fatalf("PlayFor(60s) at a million a second = %v, want ErrRecordLimit", err)
	}
	if s.Admitted() != 0 || s.Running().AdmittedUntilMS() != 0 {
		t.Fatalf("a refused PlayFor admitted %d records, until %d ms", s.Admitted(), s.Running().AdmittedUntilMS())
	}

	s = lab.NewSession("t.lab", lab.Options{})
	defer s.Close()
	execLines(t, s, "job clicks", "set source.rate 1000")
	p, err := s.PlayFor(2 * time.Second)
	if err != nil || p.Admitted() != 2000 {
		t.Fatalf("PlayFor(2s) at a thousand a second = %v, %v", p, err)
	}
	if err := p.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	execLines(t, s, "run 3000")
	if s.Admitted() != 5000 {
		t.Errorf("the session counts %d records admitted after a 2000-record quantum and run 3000, want 5000", s.Admitted())
	}
}
