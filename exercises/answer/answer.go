// Package answer reads a student's answer to an exercise: answers.yaml for
// a prediction, a fragment of set lines or a job file for a configuration,
// a lab script for a script or a recording. Every problem is reported at the
// answer file's line and column.
package answer

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// ErrBadAnswer is matched (errors.Is) by every error about the answer file
// itself: it cannot be read, or it does not say what the exercise asks.
// Each is a *poserr.Error, at a position when there is one.
var ErrBadAnswer = errors.New("bad answer")

// Answer is a parsed answer.
type Answer struct {
	// File names the answer in messages; Path is where it is on disk, empty
	// for an answer held in memory.
	File, Path string
	Data       []byte
	// Values are the predictions of answers.yaml, by key.
	Values map[string]Value
	// Commands are the lab commands of a .lab answer, with positions in File.
	Commands []script.Command
	// Job is the job of a configuration answer that is a job file.
	Job *jobspec.Spec
}

// Value is one prediction.
type Value struct {
	Type      string // pack.TypeNumber, pack.TypeBool or pack.TypeString
	Num       float64
	Text      string // as written; a boolean in its canonical form
	Line, Col int
	// Err, when set, is why the value cannot be judged (a word where a
	// number is asked for): it fails the value's own check and no other.
	// It names the file, line, column and key.
	Err string
}

// yamlBools are the forms YAML 1.1 and 1.2 give true and false, in any
// case: a student who writes yes or False means a boolean.
var yamlBools = map[string]bool{
	"true": true, "yes": true, "y": true, "on": true,
	"false": false, "no": false, "n": false, "off": false,
}

// ParseBool reads a boolean in any of YAML's forms, in any case.
func ParseBool(s string) (bool, bool) {
	b, ok := yamlBools[strings.ToLower(strings.TrimSpace(s))]
	return b, ok
}

// coerce reads v as the type its check asks for: a number quoted ("340")
// or, where the check is a fraction, a percentage (69%); a boolean in any of
// YAML's forms in any case. A value that cannot be read so gets Err.
func (v *Value) coerce(key, want string, fraction bool, got string) {
	switch want {
	case pack.TypeNumber:
		if v.Type == pack.TypeNumber {
			return
		}
		text := strings.TrimSpace(v.Text)
		if p, ok := strings.CutSuffix(text, "%"); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			switch {
			case err != nil || math.IsInf(n, 0) || math.IsNaN(n):
			case !fraction:
				v.Err = fmt.Sprintf("%s: expected a number, got the percentage %q; this answer is a count, not a fraction", key, text)
				return
			default:
				v.Type, v.Num = pack.TypeNumber, n/100
				return
			}
		} else if n, err := strconv.ParseFloat(text, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
			v.Type, v.Num = pack.TypeNumber, n
			return
		}
		v.Err = fmt.Sprintf("%s: expected a number, got %s", key, got)
	case pack.TypeBool:
		if b, ok := ParseBool(v.Text); ok {
			v.Type, v.Text = pack.TypeBool, strconv.FormatBool(b)
			return
		}
		v.Err = fmt.Sprintf("%s: expected true or false, got %s", key, got)
	}
}

// Locate returns where the answer to ex is under dir: dir/ID/FILE when
// dir has a directory named after the exercise, else dir/FILE. A link
// of that name counts as the directory without being followed: whether
// its target exists must not change the answer's path, or the grader's
// messages would tell a student which directories the machine has.
func Locate(ex *pack.Exercise, dir string) string {
	sub := filepath.Join(dir, ex.ID)
	if st, err := os.Lstat(sub); err == nil && (st.IsDir() || st.Mode()&fs.ModeSymlink != 0) {
		return filepath.Join(sub, ex.Answer)
	}
	return filepath.Join(dir, ex.Answer)
}

// MaxSize bounds an answer file: a lab script has at most 10 000 lines of
// 4 KiB, and no answer comes near that.
const MaxSize = 1 << 20

// Load reads and parses the answer to ex under dir (see Locate). The
// answer is untrusted: only a regular file inside dir is read (a link out
// of dir, a device, a FIFO or a socket is refused), of at most MaxSize
// bytes.
func Load(ex *pack.Exercise, dir string) (*Answer, error) {
	p := Locate(ex, dir)
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return nil, &poserr.Error{Kind: ErrBadAnswer, File: p, Msg: fmt.Sprintf("cannot read the answer: %v", err)}
	}
	data, err := untrusted.ReadFile(dir, rel, MaxSize)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		msg := fmt.Sprintf("cannot read the answer: %v", err)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = fmt.Sprintf("missing: the answer to %s goes in %s or %s", ex.ID,
				filepath.Join(dir, ex.ID, ex.Answer), filepath.Join(dir, ex.Answer))
		case errors.Is(err, untrusted.ErrTooLarge):
			msg = fmt.Sprintf("the answer is larger than %d bytes", MaxSize)
		case errors.Is(err, untrusted.ErrOutside), errors.Is(err, untrusted.ErrNotRegular):
			msg = fmt.Sprintf("cannot read the answer: %v; an answer must be a regular file inside %s", err, dir)
		}
		return nil, &poserr.Error{Kind: ErrBadAnswer, File: p, Msg: msg}
	}
	a, err := Parse(ex, p, data)
	if a != nil {
		a.Path = p
		if err == nil {
			err = confineEvents(a)
		}
	}
	return a, err
}

// confineEvents checks that the events file an answer's job replays is
// reached without leaving the answer's directory: Parse has checked the
// name, and this checks the way there, where a folder on it may be a
// link elsewhere.
func confineEvents(a *Answer) error {
	if a.Job == nil || a.Job.Source.File == "" {
		return nil
	}
	d, err := untrusted.OpenDir(filepath.Dir(a.Path), 0)
	if err != nil {
		return &poserr.Error{Kind: ErrBadAnswer, File: a.File, Msg: fmt.Sprintf("cannot read the answer's directory: %v", err)}
	}
	defer d.Close()
	st, err := d.Stat(filepath.ToSlash(a.Job.Source.File))
	if err == nil && st.Mode().IsRegular() {
		return nil
	}
	return &poserr.Error{Kind: ErrBadAnswer, File: a.File, Msg: fmt.Sprintf(
		"source.file %s must be a regular file inside the answer's directory, reached without a link out of it",
		untrusted.Quote(a.Job.Source.File, 80))}
}

// Parse parses the answer to ex held in data; file names it in messages.
func Parse(ex *pack.Exercise, file string, data []byte) (*Answer, error) {
	a := &Answer{File: file, Data: data}
	var err error
	switch {
	case ex.Kind == pack.KindPrediction:
		err = a.parsePredictions(ex)
	case ex.Kind == pack.KindConfiguration && !strings.HasSuffix(ex.Answer, ".lab"):
		var spec jobspec.Spec
		spec, err = jobspec.Parse(file, data)
		if je, ok := poserr.As(err, jobspec.ErrBadJob); ok {
			err = poserr.New(ErrBadAnswer, je.File, je.Line, je.Col, je.Msg)
		}
		if f := spec.Source.File; err == nil && f != "" && !filepath.IsLocal(f) {
			// The events an answer replays are part of the answer: they
			// must sit beside it, not anywhere on the grader's disk.
			err = &poserr.Error{Kind: ErrBadAnswer, File: file, Msg: fmt.Sprintf("source.file %s must be a path inside the answer's directory", untrusted.Quote(f, 80))}
		}
		a.Job = &spec
		if err == nil && len(ex.Allow) > 0 {
			err = checkJobChanges(ex, file, data, spec)
		}
	default:
		err = a.parseScript(ex)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// parsePredictions reads answers.yaml: a mapping of the keys the checks
// name to numbers, texts or booleans. A key left empty is no answer.
func (a *Answer) parsePredictions(ex *pack.Exercise) error {
	a.Values = map[string]Value{}
	root, err := yamlpos.Parse(ErrBadAnswer, a.File, a.Data, pack.YAMLLimits)
	if err != nil || root == nil {
		return err
	}
	keys := ex.AnswerKeys()
	want := map[string]string{}
	fractions := map[string]bool{}
	for _, c := range ex.Checks {
		if c.Answer == "" {
			continue
		}
		t := pack.TypeString
		if c.Field != "" {
			t, _ = pack.FieldType(c.Field)
			fractions[c.Answer] = pack.IsFraction(c.Field)
		}
		want[c.Answer] = t
	}
	d := &yamlpos.Decoder{File: a.File, Kind: ErrBadAnswer}
	for _, f := range d.Mapping(yamlpos.Root("answers", root), "the answers", keys) {
		v := Value{Text: yamlpos.Text(f.Value)}
		v.Line, v.Col = f.Pos()
		n := f.Value
		s, isString := yamlpos.String(n)
		switch {
		case n.Tag == "!!int" || n.Tag == "!!float":
			v.Type = pack.TypeNumber
			v.Num, _ = yamlpos.Number(n)
		case n.Tag == "!!bool":
			v.Type = pack.TypeBool
			v.Text = strconv.FormatBool(d.Bool(f))
		case isString:
			v.Type, v.Text = pack.TypeString, s
		default:
			v.Err = fmt.Sprintf("%s: expected a number, a word or true/false, got %s", f.Key, yamlpos.Describe(f.Value))
		}
		if v.Err == "" {
			v.coerce(f.Key, want[f.Key], fractions[f.Key], yamlpos.Describe(f.Value))
		}
		if v.Err != "" {
			// A bad value fails only its own check: the message names
			// the key and where it is.
			v.Err = poserr.New(ErrBadAnswer, a.File, v.Line, v.Col, v.Err).Error()
		}
		a.Values[f.Key] = v
	}
	return d.Err()
}

// scenarioSets reports whether the exercise's scenario sets key, and where.
func scenarioSets(ex *pack.Exercise, key string) (string, bool) {
	for _, c := range ex.Scenario {
		if c.Verb == script.VerbSet && c.Args[0].Text == key {
			return fmt.Sprintf("%s:%d", ex.ScenarioFile, c.Line), true
		}
	}
	return "", false
}

// parseScript reads a .lab answer and checks it against the exercise: a
// configuration holds set lines only; a script or recording may not change
// the job, the seed or the executor. A recording's pause and resume lines
// are dropped, as they only paced the terminal lab, and so is its set seed
// line: the lab records its seed, and the grader grades under its own.
func (a *Answer) parseScript(ex *pack.Exercise) error {
	sc, err := script.Parse(a.File, a.Data)
	if err != nil {
		if se, ok := poserr.As(err, script.ErrSyntax); ok {
			return poserr.New(ErrBadAnswer, se.File, se.Line, se.Col, se.Msg)
		}
		return err
	}
	fail := func(line, col int, format string, args ...any) error {
		return &poserr.Error{Kind: ErrBadAnswer, File: a.File, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	for _, c := range sc.Commands {
		if ex.Kind == pack.KindConfiguration {
			if c.Verb != script.VerbSet {
				return fail(c.Line, c.Col, "only set lines belong in this answer, got %s: the exercise's scenario runs the job", c.Verb)
			}
			key := c.Args[0]
			if len(ex.Allow) > 0 && !slices.Contains(ex.Allow, key.Text) {
				return fail(key.Line, key.Col, "this exercise lets you set %s, not %s", strings.Join(ex.Allow, ", "), key.Text)
			}
			if err := pack.CheckSettable(key.Text); err != nil {
				return fail(key.Line, key.Col, "%v", err)
			}
			a.Commands = append(a.Commands, c)
			continue
		}
		switch c.Verb {
		case script.VerbJob:
			if c.Args[0].Text != ex.Job {
				return fail(c.Args[0].Line, c.Args[0].Col, "this exercise runs job %s; the answer cannot change it to %s", ex.Job, c.Args[0].Text)
			}
			continue // the grader has set the job already
		case script.VerbSet:
			if c.Args[0].Text == "executor" {
				return fail(c.Args[0].Line, c.Args[0].Col, "grading always runs the deterministic executor; remove this line")
			}
			if c.Args[0].Text == "seed" {
				if ex.Kind == pack.KindRecording {
					continue // the lab records its seed; the grader sets its own
				}
				return fail(c.Args[0].Line, c.Args[0].Col, "the grader sets the seed (each answer is graded under several); remove this line")
			}
			if at, fixed := scenarioSets(ex, c.Args[0].Text); fixed {
				return fail(c.Args[0].Line, c.Args[0].Col, "the exercise's scenario fixes %s (%s); the answer cannot change it", c.Args[0].Text, at)
			}
		case script.VerbPause, script.VerbResume:
			if ex.Kind == pack.KindRecording {
				continue
			}
		}
		a.Commands = append(a.Commands, c)
	}
	return nil
}
