package jobspec_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

func TestCorpusTiming(t *testing.T) {
	files, _ := filepath.Glob("/root/.cache/go-build/fuzz/github.com/streamlab/streamlab/engine/jobspec/FuzzParse/*")
	var worst time.Duration
	var worstIn string
	ok := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 2)
		lit := strings.TrimSpace(lines[1])
		lit = strings.TrimSuffix(strings.TrimPrefix(lit, "[]byte("), ")")
		s, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatal(f, err)
		}
		start := time.Now()
		_, perr := jobspec.Parse("f", []byte(s))
		if perr == nil {
			ok++
		}
		if d := time.Since(start); d > worst {
			worst, worstIn = d, s
		}
	}
	t.Logf("%d files, %d valid, worst %v on %d bytes: %.200q", len(files), ok, worst, len(worstIn), worstIn)
}
