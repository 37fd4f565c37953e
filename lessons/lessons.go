// Package lessons holds streamlab's guided lessons: their text, their steps,
// a step checker that follows a live lab session, a final check judged
// against the engine's own run, the learner's saved progress, and a
// headless verifier that proves every lesson can be finished.
//
// A lesson is a directory under content/: lesson.md is its text (Markdown,
// with an "## In the real world" section), lesson.yaml its structured part
// (steps with goals, hints and reference solutions, and the final check),
// and any other file is a file the lesson's scripts use, such as a job spec
// or a recorded event log (see Lesson.WriteFiles).
//
// A terminal UI uses the package like this:
//
//	ls, _ := lessons.Catalog()             // the lessons, in order
//	l, _ := lessons.Find("node-failure")   // or by number: "3"
//	store := lessons.Store{Dir: dir}       // dir from lessons.StateDir()
//	p, _ := store.Load()                   // progress; see ErrDamaged
//	_ = l.WriteFiles(store.Workspace(l))   // the job files its steps name
//	tr := lessons.NewTracker(l, p.Lesson(l.ID).Steps)
//	done := tr.Observe(lessons.Observation{Report: rep, Events: evs, Rejected: refused})
//	ans, _ := l.Solve(ctx, seed)           // the engine's answer to the check
//	v, _ := ans.Judge("722")               // right or wrong, and why
package lessons

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/streamlab/streamlab/internal/userfile"
)

//go:embed content
var content embed.FS

// ErrUnknownLesson is returned by Find for an ID that names no lesson.
var ErrUnknownLesson = errors.New("unknown lesson")

// Lesson is one guided lesson.
type Lesson struct {
	// ID is the lesson's stable name, e.g. "node-failure"; Number its place
	// in the catalog, from 1.
	ID     string
	Number int
	Title  string
	// Summary is one sentence for a list of lessons.
	Summary string
	// Text is the lesson's Markdown without its real-world section;
	// RealWorld is that section's body: the Flink and Spark settings the
	// lesson's ideas correspond to, each with its source.
	Text      string
	RealWorld string
	Steps     []Step
	Check     Check

	files map[string][]byte
}

// Step is one thing the learner does in the lab.
type Step struct {
	Title string
	// Instruction says what to do, in Markdown.
	Instruction string
	// Goal is how the step checker sees that the step is done.
	Goal Goal
	// Hints are revealed one at a time when the learner asks.
	Hints []string
	// Solution is the reference solution: lab-script lines that complete
	// the step.
	Solution []string
	// Fresh says the step starts from a new lab session (the settings of a
	// job are fixed once it runs, so a new configuration needs a new
	// session). The first step is always fresh.
	Fresh bool
}

// Files lists the names of the lesson's extra files, sorted.
func (l *Lesson) Files() []string {
	names := make([]string, 0, len(l.files))
	for name := range l.files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// WriteFiles writes the lesson's extra files (job specs, event logs) into
// dir, creating it, where they are not there yet (a file the learner
// edited is kept), so that the lab-script lines of its steps, which name
// them relative to the script, find them: a session whose file is in dir
// resolves `job late.yaml` to dir/late.yaml.
func (l *Lesson) WriteFiles(dir string) error {
	if len(l.files) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range l.Files() {
		// Only when absent: the learner may have edited the file.
		if _, err := userfile.Create(filepath.Join(dir, name), 0o644, l.files[name]); err != nil {
			return err
		}
	}
	return nil
}

// SolutionScripts returns the lesson's reference solution as lab scripts,
// one per session: a new script begins at every fresh step. Each runs with
// `streamlab run` from a directory holding the lesson's files.
func (l *Lesson) SolutionScripts() []string {
	var out []string
	var b strings.Builder
	for i, st := range l.Steps {
		if (i == 0 || st.Fresh) && b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
		fmt.Fprintf(&b, "# step %d: %s\n", i+1, st.Title)
		for _, line := range st.Solution {
			b.WriteString(line + "\n")
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

var catalog = sync.OnceValues(func() ([]*Lesson, error) {
	sub, err := fs.Sub(content, "content")
	if err != nil {
		return nil, err
	}
	return Load(sub)
})

// Catalog returns every lesson, in order. The lessons are embedded in the
// program; an error means the program was built with broken content (the
// package's tests load it, so a release never is).
func Catalog() ([]*Lesson, error) { return catalog() }

// Find returns the lesson with the given ID or number ("node-failure" or
// "3"). An unknown ID is an error that wraps ErrUnknownLesson and lists
// the known ones.
func Find(id string) (*Lesson, error) {
	ls, err := Catalog()
	if err != nil {
		return nil, err
	}
	n, numErr := strconv.Atoi(id)
	i := slices.IndexFunc(ls, func(l *Lesson) bool { return l.ID == id || (numErr == nil && l.Number == n) })
	if i < 0 {
		ids := make([]string, len(ls))
		for j, l := range ls {
			ids[j] = fmt.Sprintf("%d %s", l.Number, l.ID)
		}
		return nil, fmt.Errorf("%w %q; expected a number or an ID: %s", ErrUnknownLesson, id, strings.Join(ids, ", "))
	}
	return ls[i], nil
}
