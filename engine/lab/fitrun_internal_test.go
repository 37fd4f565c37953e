package lab

import (
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/script"
)

// Near the end of a script's records FitRun shortens a run to what is
// left of them, and to nothing once none are.
func TestFitRunKeepsToTheScriptsRecords(t *testing.T) {
	s := NewSession("t.lab", Options{})
	defer s.Close()
	s.spec.Source.Rate = 1000
	s.admitted = script.MaxScriptRecords - 500
	if got := s.FitRun(60 * time.Second); got != 500*time.Millisecond {
		t.Errorf("with 500 records left FitRun(60s) = %v, want 500ms", got)
	}
	s.admitted = script.MaxScriptRecords
	if got := s.FitRun(60 * time.Second); got != 0 {
		t.Errorf("with no records left FitRun(60s) = %v, want 0", got)
	}
}
