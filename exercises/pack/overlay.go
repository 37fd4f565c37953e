package pack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/streamlab/streamlab/internal/yamlpos"
)

// An instructor's pack can be split in two: the public part the students
// get (task, answer format, visible checks), and a private overlay that
// never leaves the instructor's CI secrets. The overlay is a directory:
//
//	secret            the pack's secret (one line), from which each
//	                  student's seeds are derived; optional
//	ID/checks.yaml    checks: [...] added to exercise ID, all hidden
//
// A hidden check's name, expression and hint are never in the grade output
// (only "hidden check N: pass" or "fail"), and with the overlay they are not
// in the students' repository or in the binary either.
const (
	OverlaySecret = "secret"
	OverlayChecks = "checks.yaml"
	// maxOverlayFile bounds every file of an overlay.
	maxOverlayFile = 1 << 20
)

// Overlay is an instructor's private overlay, read by ReadOverlay.
type Overlay struct {
	// Dir is the overlay's directory, as given.
	Dir string
	// Secret is the pack's secret; empty when the overlay has none.
	Secret string
	// Checks are the hidden checks by exercise ID, with positions in their
	// checks.yaml.
	checks map[string][]Check
	files  map[string]string
}

// ReadOverlay reads the overlay in dir for the exercises of p. Every
// problem is reported at its file, line and column: a checks.yaml for an
// exercise p does not have, a check that would not load in exercise.yaml.
func ReadOverlay(p *Pack, dir string) (*Overlay, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: the hidden-check overlay must be a directory", dir)
	}
	o := &Overlay{Dir: dir, checks: map[string][]Check{}, files: map[string]string{}}
	fsys := os.DirFS(dir)
	if data, err := readSmall(fsys, OverlaySecret); err == nil {
		o.Secret = strings.TrimSpace(string(data))
		if o.Secret == "" || strings.ContainsAny(o.Secret, "\r\n") {
			return nil, fmt.Errorf("%s: expected the secret on one line", filepath.Join(dir, OverlaySecret))
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, OverlaySecret), err)
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, err)
	}
	var probs Problems
	for _, de := range entries {
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		name := path.Join(de.Name(), OverlayChecks)
		file := filepath.Join(dir, de.Name(), OverlayChecks)
		data, err := readSmall(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			probs = append(probs, &Problem{Kind: ErrBadPack, File: file, Msg: err.Error()})
			continue
		}
		ex, lerr := p.Lookup(de.Name())
		if lerr != nil {
			probs = append(probs, &Problem{Kind: ErrBadPack, File: file, Msg: lerr.Error()})
			continue
		}
		checks, errs := ex.decodeOverlay(file, data)
		probs = append(probs, errs...)
		o.checks[ex.ID] = checks
		o.files[ex.ID] = file
	}
	if len(probs) > 0 {
		probs.sort()
		return nil, probs
	}
	return o, nil
}

// readSmall reads a regular file of at most maxOverlayFile bytes.
func readSmall(fsys fs.FS, name string) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if st.Size() > maxOverlayFile {
		return nil, fmt.Errorf("larger than %d bytes", maxOverlayFile)
	}
	return fs.ReadFile(fsys, name)
}

// decodeOverlay reads an overlay's checks.yaml for e: a mapping with one
// key, checks, a list of checks as exercise.yaml has them. Every one is
// hidden, whatever it says.
func (e *Exercise) decodeOverlay(file string, data []byte) ([]Check, Problems) {
	d := &yamlpos.Decoder{File: file, Kind: ErrBadPack}
	root, err := yamlpos.Parse(ErrBadPack, file, data, YAMLLimits)
	if err != nil {
		return nil, Problems{err.(*Problem)}
	}
	if root == nil {
		return nil, Problems{{File: file, Line: 1, Col: 1, Msg: "empty file: expected checks: followed by a list of hidden checks"}}
	}
	x := *e
	x.File, x.Checks, x.overlay = file, nil, true
	for _, f := range d.Mapping(yamlpos.Root("overlay", root), "the overlay", []string{"checks"}) {
		x.decodeChecks(d, f)
	}
	for i := range x.Checks {
		x.Checks[i].Visibility = Hidden
		for _, c := range e.Checks {
			if c.Name == x.Checks[i].Name {
				d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: file, Line: x.Checks[i].Line, Col: x.Checks[i].Col,
					Msg: fmt.Sprintf("the name %q is already a check of %s", c.Name, e.File)})
			}
		}
	}
	if len(d.Errs) > 0 {
		return nil, d.Errs
	}
	return x.Checks, nil
}

// Apply returns the exercises with the overlay's hidden checks added,
// leaving the pack's own exercises untouched.
func (o *Overlay) Apply(exs []*Exercise) []*Exercise {
	out := make([]*Exercise, len(exs))
	for i, e := range exs {
		out[i] = e
		if cs := o.checks[e.ID]; len(cs) > 0 {
			x := *e
			x.Checks = append(append([]Check{}, e.Checks...), cs...)
			out[i] = &x
		}
	}
	return out
}
