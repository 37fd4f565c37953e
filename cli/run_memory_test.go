package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// The limit follows the live heap with room for two thirds of it, and
// never falls below the floor.
func TestRunHeapLimitLeavesRoomAboveTheLiveHeap(t *testing.T) {
	for _, tc := range []struct{ live, want int64 }{
		{0, runHeapFloor},
		{30 << 20, runHeapFloor},
		{runHeapFloor * 3 / 5, runHeapFloor},
		{90 << 20, 150 << 20},
	} {
		if got := runHeapLimit(tc.live); got != tc.want {
			t.Errorf("live %d: limit %d, want %d", tc.live, got, tc.want)
		}
	}
}

// A run sets a limit and takes it away when it ends; a GOMEMLIMIT the
// user set is left alone.
func TestLimitRunHeapIsUndoneAfterTheRun(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	stop := limitRunHeap()
	if got := debug.SetMemoryLimit(-1); got < runHeapFloor || got == math.MaxInt64 {
		t.Errorf("during the run the limit is %d; want at least %d", got, runHeapFloor)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after the run the limit is %d; want none", got)
	}
	t.Setenv("GOMEMLIMIT", "200MiB")
	limitRunHeap()()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the run moved the limit to %d", got)
	}
}
