package grade

import (
	"errors"
	"fmt"
	"testing"

	"github.com/streamlab/streamlab/internal/poserr"
)

// TestReasonLeavesOutThePosition: an error's reason is its text without the
// position it starts with, notes included, and the whole text when it
// starts with something else.
func TestReasonLeavesOutThePosition(t *testing.T) {
	at := poserr.New(errors.New("kind"), "a.lab", 3, 5, `unknown semantics "sometimes"`)
	for _, tt := range []struct {
		err        error
		text, want string
	}{
		{at, `a.lab:3:5: unknown semantics "sometimes"`, `unknown semantics "sometimes"`},
		{noted{at, "under seed 2"}, `a.lab:3:5: unknown semantics "sometimes" (under seed 2)`, `unknown semantics "sometimes" (under seed 2)`},
		{scenarioError{noted{at, "in the exercise's scenario, after the settings of s.lab"}},
			`a.lab:3:5: unknown semantics "sometimes" (in the exercise's scenario, after the settings of s.lab)`,
			`unknown semantics "sometimes" (in the exercise's scenario, after the settings of s.lab)`},
		{fmt.Errorf("b.lab:1: %w", at), `b.lab:1: a.lab:3:5: unknown semantics "sometimes"`, `b.lab:1: a.lab:3:5: unknown semantics "sometimes"`},
	} {
		if got := tt.err.Error(); got != tt.text {
			t.Errorf("Error() = %q, want %q", got, tt.text)
		}
		if got := reason(tt.err); got != tt.want {
			t.Errorf("reason(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
