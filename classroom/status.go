package classroom

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/answer"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/lessons"
)

// Class is the class as the instructor sees it: every student in a state
// directory with their lessons and their grades.
type Class struct {
	// Lessons is how many lessons there are; Exercises the built-in
	// exercises' IDs, in the order of each student's grades.
	Lessons   int      `json:"lessons"`
	Exercises []string `json:"exercises"`
	// PersonalSeeds says the answers were graded under each student's own
	// seeds (the server's grading secret); else under each exercise's seed.
	PersonalSeeds bool             `json:"personal_seeds"`
	Students      []StudentSummary `json:"students"`
}

// StudentSummary is one student's progress and grades.
type StudentSummary struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Fingerprint string    `json:"fingerprint"`
	LastSeen    time.Time `json:"last_seen"`
	// LessonsDone counts the lessons finished (every step and the check).
	LessonsDone int `json:"lessons_done"`
	// Lesson is the lesson they are in (the first started and not done,
	// else the next not done); "" when all are done. Step says where in
	// it: "not started", "step 2 of 4", "check to answer".
	Lesson      string `json:"lesson"`
	LessonTitle string `json:"lesson_title"`
	Step        string `json:"step"`
	// Grades holds one grade per exercise, in Class.Exercises order.
	Grades   []Grade `json:"grades"`
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
	// Warning says what could not be read (a damaged progress file).
	Warning string `json:"warning,omitempty"`
}

// Grade is a student's grade on one exercise; Answered is false when they
// have graded no answer to it in the lab.
type Grade struct {
	Exercise string  `json:"exercise"`
	Answered bool    `json:"answered"`
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
	Passed   bool    `json:"passed"`
	Error    string  `json:"error,omitempty"`
}

// ErrNoState is returned for a state directory that does not exist.
var ErrNoState = errors.New("no such state directory")

// Status reads every student in the state directory and grades the
// answers they graded in the lab again, with the same grader: under each
// student's own seeds when secret is set (as the server gave them), else
// under each exercise's seed.
func Status(ctx context.Context, st State, secret string) (*Class, error) {
	return (*Grades)(nil).Status(ctx, st, secret)
}

// Grades remembers the grades of answers that have not changed since, so
// that a live view can read the class every second and grade only the
// answers saved since. The zero value is ready; a nil *Grades remembers
// nothing.
type Grades struct {
	mu sync.Mutex
	m  map[string]cachedGrade // answer path → its grade
}

type cachedGrade struct {
	size    int64
	modTime time.Time
	opts    string
	grade   Grade
}

// grade grades student id's answer to ex in dir, or returns the grade of
// the same file graded before.
func (g *Grades) grade(ctx context.Context, ex *pack.Exercise, dir string, info fs.FileInfo, opts grade.Options) (Grade, error) {
	path := answer.Locate(ex, dir)
	if g != nil {
		g.mu.Lock()
		c, ok := g.m[path]
		g.mu.Unlock()
		if ok && c.size == info.Size() && c.modTime.Equal(info.ModTime()) && c.opts == optsKey(opts) {
			return c.grade, nil
		}
	}
	r, err := grade.Dir(ctx, ex, dir, opts)
	if err != nil {
		return Grade{}, err
	}
	gr := Grade{Exercise: ex.ID, Answered: true, Score: r.Score, MaxScore: r.MaxScore, Passed: r.Passed, Error: r.Error}
	if g != nil {
		g.mu.Lock()
		if g.m == nil {
			g.m = map[string]cachedGrade{}
		}
		g.m[path] = cachedGrade{size: info.Size(), modTime: info.ModTime(), opts: optsKey(opts), grade: gr}
		g.mu.Unlock()
	}
	return gr, nil
}

// optsKey tells apart the grader's settings a grade was made under.
func optsKey(o grade.Options) string {
	seed := "-"
	if o.Seed != nil {
		seed = strconv.FormatInt(*o.Seed, 10)
	}
	return o.Student + "\x00" + o.Secret + "\x00" + seed
}

// Status is the package's Status, grading only answers not graded before.
func (g *Grades) Status(ctx context.Context, st State, secret string) (*Class, error) {
	if info, err := untrustedStat(st.Dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%s: %w", st.Dir, ErrNoState)
	}
	catalog, err := lessons.Catalog()
	if err != nil {
		return nil, err
	}
	exs := exercises.List()
	c := &Class{Lessons: len(catalog), Exercises: []string{}, PersonalSeeds: secret != "", Students: []StudentSummary{}}
	for _, ex := range exs {
		c.Exercises = append(c.Exercises, ex.ID)
	}
	ids, err := st.Students()
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		s := StudentSummary{ID: id, Name: "?", Grades: []Grade{}}
		if rec, err := st.Student(id); err == nil {
			s.Name, s.Fingerprint, s.LastSeen = rec.Name, rec.Fingerprint, rec.LastSeen
		} else {
			s.Warning = "no student record: " + err.Error()
		}
		p, err := readProgress(st.Progress(id).Path())
		if err != nil {
			s.Warning = err.Error()
		}
		for _, l := range catalog {
			if p.Done(l) {
				s.LessonsDone++
			}
		}
		if l := currentLesson(p, catalog); l != nil {
			s.Lesson, s.LessonTitle, s.Step = l.ID, strconv.Itoa(l.Number)+" "+l.Title, p.Status(l)
		}
		dir := st.AnswersDir(id)
		for _, ex := range exs {
			gr := Grade{Exercise: ex.ID}
			if info, err := untrustedStat(answer.Locate(ex, dir)); err == nil {
				if gr, err = g.grade(ctx, ex, dir, info, gradeOptions(ex, id, secret, p.Seed)); err != nil {
					return nil, err
				}
				s.Score += gr.Score
				s.MaxScore += gr.MaxScore
			}
			s.Grades = append(s.Grades, gr)
		}
		c.Students = append(c.Students, s)
	}
	return c, nil
}

// gradeOptions grades ex under the seed the student's lab ran it under:
// with the secret, the student's own for the exercise; without, a
// prediction under their lesson seed (the lab's prediction form plays the
// scenario under it) and any other exercise under its own seed.
func gradeOptions(ex *pack.Exercise, id, secret string, lessonSeed int64) grade.Options {
	switch {
	case secret != "":
		return grade.Options{Student: id, Secret: secret}
	case ex.Kind == pack.KindPrediction && lessonSeed != 0:
		return grade.Options{Seed: &lessonSeed}
	}
	return grade.Options{}
}

// untrustedStat stats path without following a last link.
func untrustedStat(path string) (fs.FileInfo, error) {
	d, err := untrusted.OpenDir(filepath.Dir(path), 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Stat(filepath.Base(path))
}

// readProgress reads a progress file without changing anything (unlike
// lessons.Store.Load, which sets a damaged file aside): the instructor's
// view only reads.
func readProgress(path string) (*lessons.Progress, error) {
	p := &lessons.Progress{}
	data, err := untrusted.ReadPath(path, maxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("progress: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return &lessons.Progress{}, fmt.Errorf("%s is damaged: %v", path, err)
	}
	return p, nil
}

// currentLesson is the lesson a student is in: the first one started and
// not done, else the first not done; nil when all are done.
func currentLesson(p *lessons.Progress, ls []*lessons.Lesson) *lessons.Lesson {
	var next *lessons.Lesson
	for _, l := range ls {
		if p.Done(l) {
			continue
		}
		if lp := p.Lessons[l.ID]; lp != nil && (lp.Steps > 0 || lp.Checked) {
			return l
		}
		if next == nil {
			next = l
		}
	}
	return next
}

// Formats are the formats WriteStatus writes.
var Formats = []string{"text", "json", "csv"}

// WriteStatus writes the class in format: text (a table), json (the Class)
// or csv (a gradebook: one row a student, one column an exercise).
func WriteStatus(w io.Writer, c *Class, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	case "csv":
		return writeCSV(w, c)
	case "text":
		return writeText(w, c)
	}
	return fmt.Errorf("unknown format %q, want text, json or csv", format)
}

func writeText(w io.Writer, c *Class) error {
	if len(c.Students) == 0 {
		_, err := fmt.Fprintln(w, "no students yet")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STUDENT\tKEY\tLESSONS\tNOW IN\tEXERCISES\tSCORE\tLAST SEEN")
	for _, s := range c.Students {
		now := "all done"
		if s.Lesson != "" {
			now = s.LessonTitle + " · " + s.Step
		}
		answered, passed := 0, 0
		for _, g := range s.Grades {
			if g.Answered {
				answered++
			}
			if g.Passed {
				passed++
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%d passed of %d answered\t%s/%s\t%s\n",
			untrusted.Quote(s.Name, 32), shortFingerprint(s.Fingerprint), s.LessonsDone, c.Lessons, now,
			passed, answered, num(s.Score), num(s.MaxScore), s.LastSeen.UTC().Format("2006-01-02 15:04"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range c.Students {
		if s.Warning != "" {
			fmt.Fprintf(w, "warning: %s: %s\n", untrusted.Quote(s.Name, 32), s.Warning)
		}
	}
	seeds := "each exercise's own seed (no grading secret)"
	if c.PersonalSeeds {
		seeds = "each student's own seeds (the grading secret)"
	}
	_, err := fmt.Fprintf(w, "answers graded again under %s\n", seeds)
	return err
}

func writeCSV(w io.Writer, c *Class) error {
	cw := csv.NewWriter(w)
	head := []string{"name", "fingerprint", "id", "lessons_done", "lesson", "step"}
	head = append(head, c.Exercises...)
	head = append(head, "score", "max_score")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range c.Students {
		row := []string{csvSafe(s.Name), s.Fingerprint, s.ID, strconv.Itoa(s.LessonsDone), s.Lesson, s.Step}
		for _, g := range s.Grades {
			cell := ""
			if g.Answered {
				cell = num(g.Score)
			}
			row = append(row, cell)
		}
		row = append(row, num(s.Score), num(s.MaxScore))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvSafe keeps a spreadsheet from reading a name as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func shortFingerprint(fp string) string {
	if len(fp) > 19 {
		return fp[:19] + "…"
	}
	return fp
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
