package lab_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no goroutine outlives the tests: a concurrent run
// stops every node it started.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
