package script_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/streamlab/streamlab/engine/script"
)

// ParseRow reads each way the Output pane names a row, and refuses the
// rest with a message that says what a row is.
func TestParseRow(t *testing.T) {
	for _, c := range []struct {
		in   string
		want script.Row
		err  string
	}{
		{in: "click@12:00:10", want: script.Row{Kind: script.RowWindow, Key: "click", Clock: 43_210_000, HasClock: true}},
		{in: "open@00:00", want: script.Row{Kind: script.RowWindow, Key: "open", HasClock: true}},
		{in: "device-3@1700000000000", want: script.Row{Kind: script.RowWindow, Key: "device-3", Start: 1_700_000_000_000}},
		{in: "a@b@10:00:00", want: script.Row{Kind: script.RowWindow, Key: "a@b", Clock: 36_000_000, HasClock: true}},
		{in: "#1204", want: script.Row{Kind: script.RowOffset, Offset: 1204}},
		{in: "#0", want: script.Row{Kind: script.RowOffset}},
		{in: "offset=77", want: script.Row{Kind: script.RowOffset, Offset: 77}},
		{in: "offset=", err: "not a source offset"},
		{in: "4021", want: script.Row{Kind: script.RowID, ID: 4021}},
		{in: "18446744073709551615", want: script.Row{Kind: script.RowID, ID: 1<<64 - 1}},
		{in: "", err: "missing row"},
		{in: "#", err: "not a source offset"},
		{in: "#-3", err: "not a source offset"},
		{in: "#12a", err: "not a source offset"},
		{in: "18446744073709551616", err: "not a record id"},
		{in: "12x", err: "not a record id"},
		{in: "click", err: "names no row"},
		{in: "@12:00:10", err: "no key before @"},
		{in: "click@", err: "not a window start"},
		{in: "click@25:00:00", err: "not a window start"},
		{in: "click@12:00:10.5", err: "not a window start"},
		{in: "click@1:2:3", err: "not a window start"},
		{in: "click @12:00:10", err: "no spaces"},
	} {
		got, err := script.ParseRow(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseRow(%q) = %+v, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseRow(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if again, err := script.ParseRow(got.String()); err != nil || again != got {
			t.Errorf("ParseRow(%q).String() = %q reads back as %+v, %v", c.in, got.String(), again, err)
		}
	}
}

// FuzzParseRow: no input panics; whatever parses writes back to itself;
// `why ROW` accepts exactly the rows ParseRow accepts, and points at the
// row when it refuses one.
func FuzzParseRow(f *testing.F) {
	for _, s := range []string{"click@12:00:10", "#5", "77", "x@", "@", "#", "a@b@c", "click@-1", "k@23:59:59", "\xff@1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		row, err := script.ParseRow(s)
		if err == nil {
			if again, err := script.ParseRow(row.String()); err != nil || again != row {
				t.Fatalf("%q: %+v writes as %q, which reads back as %+v, %v", s, row, row.String(), again, err)
			}
		} else if !strings.Contains(err.Error(), "expected") && !strings.Contains(err.Error(), "e.g.") {
			t.Fatalf("%q: the error %q does not say what a row is", s, err)
		}
		if s == "" || strings.ContainsAny(s, " \t\"#\\") || !utf8.ValidString(s) || strings.IndexFunc(s, notPrint) >= 0 {
			return // not one token of a line: quoting, comments and control characters are the lexer's
		}
		c, lerr := script.ParseLine("why.lab", 1, "why "+s)
		switch {
		case err == nil && (lerr != nil || len(c.Args) != 1 || c.Args[0].Text != s):
			t.Fatalf("why %q: %v, %+v; ParseRow accepts it", s, lerr, c.Args)
		case err != nil && lerr == nil:
			t.Fatalf("why %q parsed; ParseRow refuses it: %v", s, err)
		case err != nil && !strings.Contains(lerr.Error(), "why.lab:1:5:"):
			t.Fatalf("why %q: %v does not point at the row", s, lerr)
		}
	})
}

func notPrint(r rune) bool { return !unicode.IsPrint(r) }

// why takes exactly one row.
func TestWhyLine(t *testing.T) {
	for line, want := range map[string]string{
		"why":                  "why.lab:1:4: why needs a row",
		"why 1 2":              `why.lab:1:7: why takes one row, got extra "2"`,
		"why #1204":            `why.lab:1:4: '#' starts a comment`,
		`why "#1204"`:          "",
		"why click@noon":       "why.lab:1:5: \"noon\" after @ is not a window start",
		"why click@12:00:10  ": "",
	} {
		_, err := script.ParseLine("why.lab", 1, line)
		if (err == nil) != (want == "") || err != nil && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v; want %q", line, err, want)
		}
	}
}
