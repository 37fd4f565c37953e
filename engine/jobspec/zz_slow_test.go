package jobspec_test

import (
	"strings"
	"testing"
	"time"

	"github.com/streamlab/streamlab/engine/jobspec"
)

func TestSlowProbe3(t *testing.T) {
	type r struct {
		d    time.Duration
		name string
	}
	var worst []r
	try := func(name, in string) {
		if len(in) > 64<<10 {
			in = in[:64<<10]
		}
		start := time.Now()
		jobspec.Parse("f", []byte(in))
		d := time.Since(start)
		if d > 50*time.Millisecond {
			worst = append(worst, r{d, name})
		}
	}
	units := []string{"\t", " ", "\\", "- ", ": ", "? ", "a:", "{a: ", "[a, ", "'a' ", "\"a\" ", "&a ", "*a ", "!a ", "# ", "|", ">", "%", "@", "`", "<<: "}
	for c := byte(33); c < 127; c++ {
		units = append(units, string(c))
	}
	for _, u := range units {
		n := 1999 / len(u)
		line := strings.Repeat(u, n)
		try("lines "+u, strings.Repeat(line+"\n", 40))
		try("indented "+u, strings.Repeat("  "+line[:len(line)-2]+"\n", 40))
		try("block "+u, "a: |\n"+strings.Repeat("  "+line[:len(line)-2]+"\n", 40))
		try("folded "+u, "a: >\n"+strings.Repeat("  "+line[:len(line)-2]+"\n\n", 40))
		try("seq "+u, strings.Repeat("- "+line[:len(line)-2]+"\n", 40))
		try("map "+u, strings.Repeat("k: "+line[:len(line)-3]+"\n", 40))
		try("dq "+u, "a: \""+strings.Repeat(line+"\n", 40))
		try("sq "+u, "a: '"+strings.Repeat(line+"\n", 40))
		try("short lines "+u, strings.Repeat(u+"\n", 20000))
		try("short lines2 "+u, "a: |\n"+strings.Repeat(" "+u+"\n", 20000))
		try("blank-ish "+u, "a: |\n  x\n"+strings.Repeat(strings.Repeat(" ", 30)+"\n", 100)+strings.Repeat(u, 10))
	}
	for _, w := range worst {
		t.Logf("%v %q", w.d, w.name)
	}
}
