package draw

import (
	"slices"
	"strconv"
	"testing"
)

// TestMemoDrawsOnlyWhenTheKeyChanges counts the drawings: the same key
// gives the kept lines, another key draws, and the caller's changes to
// what it got do not reach what is kept.
func TestMemoDrawsOnlyWhenTheKeyChanges(t *testing.T) {
	var memo Memo[int]
	draws := 0
	lines := func(k int) []string {
		return memo.Lines(k, func() []string {
			draws++
			return []string{"drawn for " + strconv.Itoa(k)}
		})
	}
	steps := []struct {
		key, draws int
	}{{1, 1}, {1, 1}, {2, 2}, {2, 2}, {1, 3}}
	for _, s := range steps {
		got := lines(s.key)
		if want := []string{"drawn for " + strconv.Itoa(s.key)}; !slices.Equal(got, want) || draws != s.draws {
			t.Fatalf("key %d: got %q after %d drawings, want %q after %d", s.key, got, draws, want, s.draws)
		}
		got[0] = "changed by the caller"
	}
	defer Bypass(Bypass(true))
	lines(1)
	if draws != 4 {
		t.Fatalf("bypassed, the memo drew %d times in all, want 4", draws)
	}
}
