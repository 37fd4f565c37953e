package lint

import "testing"

// A fixed answer passing under a true 5% of seeds reaches 4 of 40 in 95%
// of samples (P(X >= 5) is about 4.8%); 400 seeds allow 27.
func TestFixedAllowance(t *testing.T) {
	for n, want := range map[int]int{40: 4, 400: 27, 20: 3} {
		if got := FixedAllowance(n); got != want {
			t.Errorf("FixedAllowance(%d) = %d, want %d", n, got, want)
		}
	}
}
