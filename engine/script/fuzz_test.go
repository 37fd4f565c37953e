package script_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// FuzzParse checks that no input panics, that every error is a *poserr.Error
// with a real position, and that every parsed command survives a trip
// through String and ParseLine.
func FuzzParse(f *testing.F) {
	f.Add([]byte(designBlock))
	for _, s := range []string{
		"kil count[1]", "run fast", "run 1m30s", "expect sink.lost==0", `expect job.name == "a \" # b"`,
		"expect", "expect a =", "kill count[1] at", "kill count[", "set filter bloom n=1 n=2", "set f =3",
		`job "unterminated`, "job \xff", "job \x00", "step 0", `set label "a=b" w=1 "x y"`,
		"expect x == -1.5e3", "expect x != 5s", `expect x == "-"`, `expect x=="\\ a\tb"`, "expect a == é\u00a0",
		`kill "count[1]" at "5"`, `"expect" a<"true"`, "\uFEFFreport\r\n", "  # comment\n\n\tpause\nresume",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := script.Parse("fuzz.lab", src)
		if err != nil {
			var se *poserr.Error
			if !errors.As(err, &se) || !errors.Is(err, script.ErrSyntax) || se.Line < 1 || se.Col < 1 || se.File != "fuzz.lab" || se.Msg == "" {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		for _, c := range s.Commands {
			if c.Verb == "" || c.Line < 1 || c.Col < 1 {
				t.Fatalf("bad command %#v", c)
			}
			line := c.String()
			again, err := script.ParseLine("fuzz.lab", c.Line, line)
			if err != nil {
				// Spacing an expression out (a==b → a == b) adds two
				// bytes, which a line at the length limit cannot take.
				if len(line) > script.MaxLineBytes && strings.Contains(err.Error(), "bytes long") {
					continue
				}
				t.Fatalf("%q → %q: %v", c.Text, line, err)
			}
			if !again.Equal(c) {
				t.Fatalf("%q → %q → %#v, want %#v", c.Text, line, again, c)
			}
		}
	})
}
