package jobspec_test

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

func TestCorpusTiming(t *testing.T) {
	files, _ := filepath.Glob("/root/.cache/go-build/fuzz/github.com/streamlab/streamlab/engine/jobspec/FuzzParse/*")
	type r struct {
		d  time.Duration
		in string
	}
	var rs []r
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 2)
		lit := strings.TrimSpace(lines[1])
		lit = strings.TrimSuffix(strings.TrimPrefix(lit, "[]byte("), ")")
		s, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatal(f, err)
		}
		best := time.Hour
		for range 3 {
			start := time.Now()
			jobspec.Parse("f", []byte(s))
			best = min(best, time.Since(start))
		}
		rs = append(rs, r{best, s})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].d > rs[j].d })
	for _, x := range rs[:10] {
		t.Logf("%v %d bytes: %.120q", x.d, len(x.in), x.in)
	}
}
