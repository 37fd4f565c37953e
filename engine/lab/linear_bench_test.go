package lab_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/lab"
)

// scriptOfSize builds a lab script whose cost should grow with n.
type scriptOfSize func(n int) string

// linearPaths are inputs that were once quadratic: each expect line copied
// every earlier one; each step scanned every pending kill; complete mode
// re-sorts its whole table each trigger, so it is the one expected to grow
// faster than its input (its output does: a trigger rewrites the table).
var linearPaths = []struct {
	name  string
	small int
	build scriptOfSize
}{
	{"expect", 990, func(n int) string {
		return "job passthrough\nrun 1000\n" + strings.Repeat("expect sink.lost == 0\n", n)
	}},
	{"pending-kills", 990, func(n int) string {
		var b strings.Builder
		b.WriteString("job passthrough\n")
		for i := range n {
			fmt.Fprintf(&b, "kill map at %d\n", 1_000_000_000+i) // never fires
		}
		b.WriteString("run 20000\n")
		return b.String()
	}},
	{"complete-late", 10_000, func(n int) string {
		return fmt.Sprintf("job clicks\nset mode complete\nset source.late 0.1\nrun %d\n", n)
	}},
}

// BenchmarkLinearPaths runs each path at a size and at ten times it, and
// reports the ratio of their times measured in the same run: about 10 is
// linear, about 100 quadratic.
func BenchmarkLinearPaths(b *testing.B) {
	for _, p := range linearPaths {
		b.Run(p.name, func(b *testing.B) {
			small, large := []byte(p.build(p.small)), []byte(p.build(10*p.small))
			var ts, tl time.Duration
			for range b.N {
				ts += timeScript(b, small)
				tl += timeScript(b, large)
			}
			b.ReportMetric(float64(tl)/float64(ts), "ratio(10x/1x)")
			b.ReportMetric(float64(tl.Milliseconds())/float64(b.N), "ms(10x)/op")
		})
	}
}

func timeScript(b *testing.B, src []byte) time.Duration {
	start := time.Now()
	if _, err := lab.RunScript(context.Background(), "bench.lab", src, lab.Options{}); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// TestLinearPathsRun keeps the benchmark's scripts valid (at their small
// size) under plain go test.
func TestLinearPathsRun(t *testing.T) {
	for _, p := range linearPaths {
		if _, err := lab.RunScript(context.Background(), "bench.lab", []byte(p.build(p.small/10)), lab.Options{}); err != nil {
			t.Errorf("%s: %v", p.name, err)
		}
	}
}
