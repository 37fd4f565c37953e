package lessons

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/streamlab/streamlab/internal/poserr"
)

// ErrBadContent is matched (errors.Is) by every error Load returns about
// the content itself; each is a *poserr.Error, at a position when there is
// one.
var ErrBadContent = errors.New("bad lesson content")

// File names inside a lesson directory.
const (
	metaFile = "lesson.yaml"
	textFile = "lesson.md"
)

// realWorldHeading starts the section of lesson.md that becomes RealWorld.
const realWorldHeading = "## In the real world"

// maxFileBytes bounds every file of a lesson.
const maxFileBytes = 1 << 20

// Load reads every lesson in fsys: each directory at its root is a lesson,
// numbered in the order of the directory names. Any other file a lesson
// directory holds becomes one of the lesson's files (see WriteFiles).
func Load(fsys fs.FS) ([]*Lesson, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, &poserr.Error{Kind: ErrBadContent, File: ".", Msg: err.Error()}
	}
	var out []*Lesson
	seen := map[string]string{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		l, err := loadDir(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		if other, dup := seen[l.ID]; dup {
			return nil, &poserr.Error{Kind: ErrBadContent, File: path.Join(e.Name(), metaFile), Msg: fmt.Sprintf("id %q is already the id of %s", l.ID, other)}
		}
		seen[l.ID] = e.Name()
		l.Number = len(out) + 1
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, &poserr.Error{Kind: ErrBadContent, File: ".", Msg: "no lessons: expected a directory per lesson"}
	}
	return out, nil
}

func loadDir(fsys fs.FS, dir string) (*Lesson, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, &poserr.Error{Kind: ErrBadContent, File: dir, Msg: err.Error()}
	}
	files := map[string][]byte{}
	var meta, text []byte
	for _, e := range entries {
		name := path.Join(dir, e.Name())
		if e.IsDir() {
			return nil, &poserr.Error{Kind: ErrBadContent, File: name, Msg: "a lesson directory holds files only"}
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, &poserr.Error{Kind: ErrBadContent, File: name, Msg: err.Error()}
		}
		if len(data) > maxFileBytes {
			return nil, &poserr.Error{Kind: ErrBadContent, File: name, Msg: fmt.Sprintf("%d bytes; at most %d are allowed", len(data), maxFileBytes)}
		}
		switch e.Name() {
		case metaFile:
			meta = data
		case textFile:
			text = data
		default:
			files[e.Name()] = data
		}
	}
	switch {
	case meta == nil:
		return nil, &poserr.Error{Kind: ErrBadContent, File: path.Join(dir, metaFile), Msg: "missing: every lesson has a " + metaFile}
	case text == nil:
		return nil, &poserr.Error{Kind: ErrBadContent, File: path.Join(dir, textFile), Msg: "missing: every lesson has a " + textFile}
	}
	l, err := parseMeta(path.Join(dir, metaFile), meta)
	if err != nil {
		return nil, err
	}
	if l.Text, l.RealWorld, err = splitText(path.Join(dir, textFile), string(text)); err != nil {
		return nil, err
	}
	l.files = files
	return l, nil
}

// splitText separates the real-world section from the rest of lesson.md.
func splitText(file, md string) (text, realWorld string, err error) {
	md = strings.ReplaceAll(md, "\r\n", "\n")
	lines := strings.Split(md, "\n")
	start := slices.IndexFunc(lines, func(s string) bool { return strings.TrimSpace(s) == realWorldHeading })
	if start < 0 {
		return "", "", &poserr.Error{Kind: ErrBadContent, File: file, Msg: fmt.Sprintf("no %q section; every lesson says how its ideas look in Flink or Spark", realWorldHeading)}
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "## ") || strings.HasPrefix(lines[i], "# ") {
			end = i
			break
		}
	}
	realWorld = strings.TrimSpace(strings.Join(lines[start+1:end], "\n"))
	text = strings.TrimSpace(strings.Join(append(slices.Clone(lines[:start]), lines[end:]...), "\n"))
	switch {
	case realWorld == "":
		return "", "", &poserr.Error{Kind: ErrBadContent, File: file, Line: start + 1, Col: 1, Msg: "the real-world section is empty"}
	case text == "":
		return "", "", &poserr.Error{Kind: ErrBadContent, File: file, Line: 1, Col: 1, Msg: "the lesson has no text besides its real-world section"}
	}
	return text + "\n", realWorld + "\n", nil
}
