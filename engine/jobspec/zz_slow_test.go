package jobspec_test

import (
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

func TestSlowProbe2(t *testing.T) {
	for _, n := range []int{3000, 10000, 30000, 100000} {
		for name, in := range map[string]string{
			"gt-nl":   ">" + strings.Repeat("\n", n),
			"pipe-nl": "|" + strings.Repeat("\n", n),
			"a-gt-nl": "a: >" + strings.Repeat("\n", n),
			"gt-sp":   ">\n" + strings.Repeat(" \n", n),
		} {
			start := time.Now()
			jobspec.Parse("f", []byte(in))
			t.Logf("%-8s %7d %v", name, n, time.Since(start))
		}
	}
}
