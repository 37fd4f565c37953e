package yamldoc_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises/internal/yamldoc"
)

var errBad = errors.New("bad file")

func TestParseLimits(t *testing.T) {
	tests := []struct {
		data, want string
	}{
		{strings.Repeat("#", yamldoc.MaxSize+1), "f.yaml: the file is larger than"},
		{"a: 1\n" + strings.Repeat("\n", 300) + "b: 2\n", "f.yaml:202:1: more than 200 blank lines"},
		{"a: 1\n---\nb: 2\n", "f.yaml:2:1: a second YAML document"},
		{strings.Repeat("- ", 3000), "more than 2000 keys"},
		{"a: [1\n", "f.yaml:1:"},
	}
	for _, tt := range tests {
		_, err := yamldoc.Parse(errBad, "f.yaml", []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, errBad) {
			t.Errorf("%.30q: got %v, want %q", tt.data, err, tt.want)
		}
	}
	for _, empty := range []string{"", "# only a comment\n", "---\n", "~\n"} {
		if body, err := yamldoc.Parse(errBad, "f.yaml", []byte(empty)); body != nil || err != nil {
			t.Errorf("%q: %v, %v; want an empty document", empty, body, err)
		}
	}
}

func TestDecoder(t *testing.T) {
	body, err := yamldoc.Parse(errBad, "f.yaml", []byte("n: 3\nf: 2.5\nd: 10s\nb: true\ns: [x, y]\nm: {k: 1}\nbad: 1\nn: 4\nempty:\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := &yamldoc.Decoder{File: "f.yaml", Kind: errBad}
	got := map[string]any{}
	for _, e := range d.Mapping(yamldoc.Entry{Key: "top", Value: body}, "the file", []string{"n", "f", "d", "b", "s", "m", "empty"}) {
		switch e.Key {
		case "n":
			got[e.Key] = d.Int(e)
		case "f":
			got[e.Key] = d.Number(e)
		case "d":
			got[e.Key] = d.Duration(e).String()
		case "b":
			got[e.Key] = d.Bool(e)
		case "s":
			got[e.Key] = strings.Join(d.Strings(e), ",")
		case "m":
			got[e.Key] = d.String(e) // a mapping is not a string: an error
		}
	}
	if got["n"] != int64(3) || got["f"] != 2.5 || got["d"] != "10s" || got["b"] != true || got["s"] != "x,y" {
		t.Errorf("values: %v", got)
	}
	var msgs []string
	for _, e := range d.Errs {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		`f.yaml:7:1: unknown key "bad" in the file; known keys: n, f, d, b, s, m, empty`,
		`f.yaml:8:1: duplicate key "n" in the file (first at line 1, column 1)`,
		`f.yaml:6:4: m: expected a string, got a mapping`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if d.Err() == nil || d.Err().Error() != want[2] || !errors.Is(d.Err(), errBad) {
		t.Errorf("Err = %v", d.Err())
	}
}
