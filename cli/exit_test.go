package cli

import (
	"errors"
	"fmt"
	"testing"
)

// TestExitFor: a command's own code wins; an error of a bad-input kind
// exits 2 without a pointer to --help; anything else is cobra's misuse.
func TestExitFor(t *testing.T) {
	kind := badInputKinds[0]
	for _, tt := range []struct {
		name   string
		err    error
		code   int
		cobras bool
	}{
		{"none", nil, exitOK, false},
		{"failed", failed(errors.New("x")), exitFailed, false},
		{"failed wins over its kind", failed(fmt.Errorf("x: %w", kind)), exitFailed, false},
		{"bad input", badInput(errors.New("x")), exitBadInput, false},
		{"internal", internalError(errors.New("x")), exitBadInput, false},
		{"cobra's", errors.New(`unknown command "x" for "streamlab"`), exitBadInput, true},
	} {
		if code, cobras := exitFor(tt.err); code != tt.code || cobras != tt.cobras {
			t.Errorf("%s: exitFor(%v) = %d, %t; want %d, %t", tt.name, tt.err, code, cobras, tt.code, tt.cobras)
		}
	}
	for _, kind := range badInputKinds {
		if code, cobras := exitFor(fmt.Errorf("somewhere: %w", kind)); code != exitBadInput || cobras {
			t.Errorf("exitFor(%v) = %d, %t; want %d, false", kind, code, cobras, exitBadInput)
		}
	}
}
