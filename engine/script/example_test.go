package script_test

import (
	"fmt"

	"github.com/streamlab/streamlab/engine/script"
)

func ExampleParse() {
	src := []byte(`job clicks
set filter bloom n=10000 p=0.01
kill count[1] at 1200
expect sink.lost==0   # nothing lost
`)
	s, err := script.Parse("lab.txt", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.Commands {
		switch c.Verb {
		case script.VerbSet:
			p, _ := c.Param("p")
			fmt.Printf("%d: set %s %s, p=%s at column %d\n", c.Line, c.Args[0].Text, c.Args[1].Text, p.Value, p.Col)
		case script.VerbKill:
			fmt.Printf("%d: kill %s at %d\n", c.Line, c.Node, c.At)
		case script.VerbExpect:
			fmt.Printf("%d: %s %s %v (%s, written %q)\n", c.Line, c.Expr.Field, c.Expr.Op, c.Expr.Value.Num, c.Expr.Value.Kind, c.Expr.Text)
		default:
			fmt.Printf("%d: %s\n", c.Line, c)
		}
	}
	// Output:
	// 1: job clicks
	// 2: set filter bloom, p=0.01 at column 26
	// 3: kill count[1] at 1200
	// 4: sink.lost == 0 (number, written "sink.lost==0")
}

func ExampleParseLine() {
	_, err := script.ParseLine("lab.txt", 3, "    kil count[1]")
	fmt.Println(err)
	// Output:
	// lab.txt:3:5: unknown verb "kil"; expected one of job, set, run, kill, fail, restart, expect, report, step, pause, resume, why (did you mean kill?)
}
