package jobspec_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/internal/poserr"
)

// FuzzParse checks that no input makes Parse panic, that every error is a
// located *poserr.Error, and that whatever Parse accepts is valid and complete.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	files = append(files, "SCHEMA.md") // text around YAML; an error, but a rich seed
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"",
		"---\n",
		"name: j\noperators: [{name: m, kind: map}]\n",
		"name: j\noperators: [{name: m, kind: map}]\n---\n",
		"name: j\n  kind: x\n",
		"name: j\nsource: {rate: 1, rate: 2}\n",
		"name: j\noperators:\n  - name: m\n    window: 10s\n    kind: map\n",
		"name: j\noperators: [{name: c, kind: window-count, window: 10s, slide: 3s}]\n",
		"name: j\nsource:\n  rate: 0xffffffffffffffff\n  late_fraction: .nan\n  disorder: -1s\n",
		"name: &a j\ndescription: *a\n",
		"name: !!str j\n<<: {a: 1}\n? [x]\n: y\n",
		"%YAML 1.2\n---\nname: j\n...\n",
		"[[[[{{{{",
		"- - - - x\n",
		"a: |\n  b\n c\n",
		"\"\\q\"\n",
		"'unterminated\n",
		"name: j\n\toperators: []\n",
		"operators:\n  -\n  - \n  - ~\n",
	} {
		f.Add([]byte(s))
	}
	// Inputs on which the YAML parser's time grows with the square of their
	// size, found while fuzzing; Parse must turn them away quickly.
	f.Add([]byte(strings.Repeat("<", 5000)))
	f.Add([]byte(strings.Repeat(strings.Repeat("<", 1999)+"\n", 30)))
	f.Add([]byte("description: >" + strings.Repeat("\n", 5000)))
	f.Add([]byte(strings.Repeat("[\n", 5000)))
	f.Add([]byte(strings.Repeat("- ", 5000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := jobspec.Parse("f.yaml", data)
		if err != nil {
			e, ok := err.(*poserr.Error)
			if !ok || !errors.Is(err, jobspec.ErrBadJob) {
				t.Fatalf("error %v is a %T, not a *poserr.Error", err, err)
			}
			if e.File != "f.yaml" || e.Msg == "" {
				t.Fatalf("error without file or message: %#v", e)
			}
			// The YAML library gives only the line of a syntax error.
			if e.Line < 1 || e.Col < 1 && !strings.HasPrefix(e.Msg, "invalid YAML: ") {
				t.Fatalf("unlocated error %q", e)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse accepted an invalid spec: %v", err)
		}
		if d := s.WithDefaults(); !reflect.DeepEqual(d, s) {
			t.Fatalf("Parse left defaults unset:\n got %+v\nwant %+v", s, d)
		}
	})
}

// FuzzLoad reads any bytes as a job file on disk, through Load's untrusted
// read (a regular file, size-capped): it must agree with Parse, and a file
// past the cap is refused without being read whole.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("name: j\noperators: [{name: m, kind: map}]\n"))
	f.Add([]byte("name: j\nsource: {file: /dev/zero}\noperators: [{name: m, kind: map}]\n"))
	f.Add([]byte("name: j\noperators: [{name: c, kind: window-count, window: 1ns}]\n"))
	f.Add([]byte(strings.Repeat("#", 70_000)))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "job.yaml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, lerr := jobspec.Load(p)
		want, perr := jobspec.Parse(p, data)
		if len(data) > 64<<10 {
			if lerr == nil {
				t.Fatalf("Load read a %d-byte job file", len(data))
			}
			return
		}
		if (lerr == nil) != (perr == nil) {
			t.Fatalf("Load: %v; Parse: %v", lerr, perr)
		}
		if perr != nil {
			return
		}
		if f := want.Source.File; f != "" && !filepath.IsAbs(f) {
			want.Source.File = filepath.Join(dir, f)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Load and Parse disagree:\n%+v\n%+v", got, want)
		}
	})
}
