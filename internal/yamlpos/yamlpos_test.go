package yamlpos_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

var errBad = errors.New("bad file")

var limits = yamlpos.Limits{MaxBytes: 1000, MaxLine: 50, MaxBlankLines: 5, MaxNodes: 20}

func TestParseErrors(t *testing.T) {
	tests := []struct{ data, want string }{
		{strings.Repeat("#\n", 501), "f.yaml:501:1: the file is longer than 1000 bytes"},
		{"a: " + strings.Repeat("x", 60), "f.yaml:1:51: a line longer than 50 characters"},
		{"a: 1\n" + strings.Repeat("\n", 10) + "b: 2\n", "f.yaml:7:1: more than 5 blank lines in a row"},
		{"a: 1\r\n \r\n\r\n\r\r\n\r\n\n", "f.yaml:7:1: more than 5 blank lines in a row"},
		{"a: x\xffy\n", "f.yaml:1:5: invalid UTF-8 (byte 0xff); the file must be UTF-8 text"},
		{"a: é\x00\n", "f.yaml:1:5: control character U+0000; the file must be plain text"},
		{"a: 1\n---\nb: 2\n", "f.yaml:2:1: a second YAML document: the file holds one (remove the ---)"},
		{strings.Repeat("- ", 20) + "\n" + strings.Repeat("  ", 20) + "- x", "f.yaml:2:43: more than 20 keys and list items"},
		{"a: [1, 2,\nb: 2\n", "f.yaml:2: invalid YAML: did not find expected ',' or ']'"},
		{"a: 1\nb: [1\n", "f.yaml:2: invalid YAML: did not find expected ',' or ']'"},
		{"a: 1\r\nb: 'x\r\n\r\n", "f.yaml:2: invalid YAML: found unexpected end of stream"},
		{"a: 1\rb: 'x", "f.yaml:2: invalid YAML: found unexpected end of stream"},
		{"a: 1\n b: 2\n", "f.yaml:2: invalid YAML: mapping values are not allowed in this context"},
		{"a:\n  - x\n  y: 1\n", "f.yaml:2: invalid YAML: did not find expected '-' indicator"},
		{"a: @x\n", "f.yaml:1: invalid YAML: found character that cannot start any token"},
		{"a: &x 1\nb: *x\n", "f.yaml:1:4: anchor &x: anchors, aliases and tags are not supported; write the value out"},
		{"a: 1\nb: *x\n", "f.yaml:2:4: alias *x: anchors, aliases and tags are not supported; write the value out"},
		{"a: !" + strings.Repeat("x", 44) + " 1\n", "f.yaml:1:4: tag !" + strings.Repeat("x", 39) + "…: anchors, aliases and tags are not supported; write the value out"},
		{"a: !!str 1\n", "f.yaml:1:4: tag !!str: anchors, aliases and tags are not supported; write the value out"},
	}
	for _, tt := range tests {
		_, err := yamlpos.Parse(errBad, "f.yaml", []byte(tt.data), limits)
		var pe *poserr.Error
		if !errors.As(err, &pe) || !errors.Is(err, errBad) || err.Error() != tt.want {
			t.Errorf("%.30q:\n got %v\nwant %s", tt.data, err, tt.want)
		}
	}
	for _, empty := range []string{"", "# only a comment\n", "---\n", "~\n", "\uFEFF"} {
		if body, err := yamlpos.Parse(errBad, "f.yaml", []byte(empty), limits); body != nil || err != nil {
			t.Errorf("%q: %v, %v; want an empty document", empty, body, err)
		}
	}
}

func TestPositions(t *testing.T) {
	body, err := yamlpos.Parse(errBad, "f.yaml", []byte("l:\n- \n- x\n-\nb: |\n  text\nm: {k: 1}\n"), limits)
	if err != nil {
		t.Fatal(err)
	}
	d := &yamlpos.Decoder{File: "f.yaml", Kind: errBad}
	var got []string
	for _, e := range d.Mapping(yamlpos.Root("top", body), "the file", nil) {
		if e.Key == "l" {
			for _, item := range d.List(e) {
				l, c := item.Pos()
				got = append(got, item.Path+"@"+itoa(l)+":"+itoa(c))
			}
			continue
		}
		l, c := e.Pos()
		got = append(got, e.Path+"@"+itoa(l)+":"+itoa(c))
	}
	// An empty item is at its dash, a block string at its |, a flow
	// mapping at its {.
	want := "l[0]@2:1 l[1]@3:3 l[2]@4:1 b@5:4 m@7:4"
	if strings.Join(got, " ") != want {
		t.Errorf("positions %s, want %s", strings.Join(got, " "), want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestDecoder(t *testing.T) {
	body, err := yamlpos.Parse(errBad, "f.yaml", []byte("n: 3\nf: 2.5\nd: 10s\nb: true\ns: [x, y]\nm: {k: 1}\nbad: 1\nn: 4\nempty:\nq: 5\nbig: 99999999999999999999\nt: 2026-01-01T12:00:00Z\ne: 2e-2\n"), limits)
	if err != nil {
		t.Fatal(err)
	}
	d := &yamlpos.Decoder{File: "f.yaml", Kind: errBad}
	got := map[string]any{}
	for _, e := range d.Mapping(yamlpos.Root("top", body), "the file", []string{"n", "f", "d", "b", "s", "m", "empty", "q", "big", "t", "e"}) {
		switch e.Key {
		case "n", "big":
			got[e.Key] = d.Int(e)
		case "f", "e":
			got[e.Key] = d.Number(e)
		case "d":
			got[e.Key] = d.Duration(e).String()
		case "b":
			got[e.Key] = d.Bool(e)
		case "s":
			got[e.Key] = strings.Join(d.Strings(e), ",")
		case "m", "q":
			got[e.Key] = d.String(e) // neither is a string: errors
		case "t":
			got[e.Key] = d.String(e) + " " + d.Time(e).String()
		case "empty":
			t.Error("an empty value is left out")
		}
	}
	if got["n"] != int64(3) || got["f"] != 2.5 || got["e"] != 0.02 || got["d"] != "10s" || got["b"] != true || got["s"] != "x,y" ||
		got["t"] != "2026-01-01T12:00:00Z 2026-01-01 12:00:00 +0000 UTC" {
		t.Errorf("values: %v", got)
	}
	var msgs []string
	for _, e := range d.Errs {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		`f.yaml:7:1: unknown key "bad" in the file; known keys: n, f, d, b, s, m, empty, q, big, t, e`,
		`f.yaml:8:1: duplicate key "n" in the file (first at line 1, column 1)`,
		`f.yaml:6:4: m: expected a string, got a mapping`,
		`f.yaml:10:4: q: expected a string (put the value in quotes), got integer 5`,
		`f.yaml:11:6: big: 99999999999999999999 is out of range`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if d.Err() == nil || d.Err().Error() != want[2] || !errors.Is(d.Err(), errBad) {
		t.Errorf("Err = %v, want the first in the file", d.Err())
	}
}

func TestDescribe(t *testing.T) {
	body, err := yamlpos.Parse(errBad, "f.yaml", []byte("- 1\n- 1.5\n- .inf\n- true\n- x\n- '3'\n- ~\n- []\n- {}\n- |\n  b\n"), limits)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range body.Content {
		got = append(got, yamlpos.Describe(n))
	}
	want := `integer 1|number 1.5|number .inf|boolean true|string "x"|string "3"|nothing|a list|a mapping|a block string`
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
	if q := yamlpos.Quote(strings.Repeat("x", 50)); q != `"`+strings.Repeat("x", 40)+`…"` {
		t.Errorf("Quote does not shorten: %s", q)
	}
}
