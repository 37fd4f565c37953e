package yamlpos_test

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// FuzzParse checks that no input makes Parse or a Decoder's walk panic,
// that every error is a *poserr.Error of the caller's kind with a line (a
// column unless the YAML library gave none), and that every node of an
// accepted tree has a position.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a: 1\nb: [x, y]\nc: {d: e}\n", "- \n- x\n-\n", "a: |\n  x\n", "a: &x 1\nb: *x\n", "a: !!str 1\n",
		"a: [1\n", "a: 1\n---\nb: 2\n", "\uFEFFa: 2026-01-01T12:00:00Z\n", "a: 99999999999999999999\n",
		"? [a]\n: 1\n", "a: 'x\r\n", strings.Repeat("[\n", 50), "a: b: c\n", "%YAML 1.1\n---\na: 1\n",
	} {
		f.Add([]byte(s))
	}
	lim := yamlpos.Limits{MaxBytes: 4096, MaxLine: 200, MaxBlankLines: 20, MaxNodes: 200}
	f.Fuzz(func(t *testing.T, data []byte) {
		body, err := yamlpos.Parse(errBad, "f.yaml", data, lim)
		if err != nil {
			var e *poserr.Error
			if !errors.As(err, &e) || !errors.Is(err, errBad) || e.File != "f.yaml" || e.Msg == "" || e.Line < 1 ||
				e.Col < 1 && !strings.HasPrefix(e.Msg, "invalid YAML: ") {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		if body == nil {
			return
		}
		d := &yamlpos.Decoder{File: "f.yaml", Kind: errBad}
		var walk func(e yamlpos.Entry)
		walk = func(e yamlpos.Entry) {
			if l, c := e.Pos(); l < 1 || c < 1 {
				t.Fatalf("%s at %d:%d", e.Path, l, c)
			}
			switch e.Value.Kind {
			case yaml.MappingNode:
				for _, f := range d.MappingAll(e, "m", nil) {
					walk(f)
				}
			case yaml.SequenceNode:
				for _, item := range d.List(e) {
					walk(item)
				}
			default:
				_ = yamlpos.Describe(e.Value)
				d.String(e)
				d.Int(e)
				d.Number(e)
				d.Duration(e)
				d.Bool(e)
			}
		}
		walk(yamlpos.Root("root", body))
		for _, e := range d.Errs {
			if !errors.Is(e, errBad) || e.Line < 1 || e.Col < 1 {
				t.Fatalf("bad decoder error %#v", e)
			}
		}
	})
}
