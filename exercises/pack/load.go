package pack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// The keys of exercise.yaml and of each check, in the order the README's "Exercise format" lists
// them.
var (
	exerciseKeys = []string{"id", "title", "topic", "kind", "job", "seed", "seeds", "budget", "time_limit", "attempts", "feedback", "answer", "allow", "scenario", "checks"}
	checkKeys    = []string{"name", "points", "visibility", "hint", "expect", "answer", "field", "correct", "tolerance", "choices", "seed_free"}
)

var (
	idPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
	keyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	jobPart    = regexp.MustCompile(`^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$`)
)

// maxPackFile bounds each file of a pack on disk.
const maxPackFile = 1 << 20

// LoadDir loads the pack in directory dir: a directory of exercise
// directories, or one exercise directory. An error that is not Problems
// means dir itself could not be read.
func LoadDir(dir string) (*Pack, error) {
	st, err := os.Stat(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot read exercise pack: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: an exercise pack is a directory, and this is a file", dir)
	}
	base := filepath.Base(dir)
	if abs, err := filepath.Abs(dir); err == nil {
		base = filepath.Base(abs)
	}
	// A pack may come from anyone: its files are read as untrusted data.
	return load(untrusted.FS(dir, maxPackFile), filepath.ToSlash(filepath.Clean(dir)), dir, base)
}

// Load loads the pack held by fsys, named name in messages. It returns the
// pack with the exercises that loaded, and Problems when some did not.
func Load(fsys fs.FS, name string) (*Pack, error) {
	return load(fsys, name, "", path.Base(name))
}

func load(fsys fs.FS, name, dir, base string) (*Pack, error) {
	p := &Pack{Name: name, FS: fsys, Dir: dir}
	var probs Problems
	if _, err := fs.Stat(fsys, ExerciseFile); err == nil {
		// One exercise directory.
		e, errs := loadExercise(p, ".", base)
		probs = append(probs, errs...)
		if e != nil {
			p.Exercises = append(p.Exercises, e)
		}
	} else {
		entries, err := fs.ReadDir(fsys, ".")
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read exercise pack: %v", name, err)
		}
		for _, de := range entries {
			n := de.Name()
			if !de.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
				continue
			}
			if _, err := fs.Stat(fsys, path.Join(n, ExerciseFile)); err != nil {
				if looksLikeExercise(fsys, n) {
					probs = append(probs, &Problem{Kind: ErrBadPack, File: path.Join(name, n), Msg: "the directory has a README.md but no exercise.yaml: every exercise needs one"})
				}
				continue
			}
			e, errs := loadExercise(p, n, n)
			probs = append(probs, errs...)
			if e != nil {
				p.Exercises = append(p.Exercises, e)
			}
		}
		if len(p.Exercises) == 0 && len(probs) == 0 {
			probs = append(probs, &Problem{Kind: ErrBadPack, File: name, Msg: "no exercises: a pack is a directory of exercise directories, each with an exercise.yaml"})
		}
	}
	sort.Slice(p.Exercises, func(i, j int) bool { return p.Exercises[i].ID < p.Exercises[j].ID })
	if len(probs) > 0 {
		probs.sort()
		return p, probs
	}
	return p, nil
}

func looksLikeExercise(fsys fs.FS, dir string) bool {
	for _, f := range []string{TaskFile, "exercise.yml"} {
		if _, err := fs.Stat(fsys, path.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// Parse decodes exercise.yaml text for the exercise in directory dir of
// pack p (named base: the ID must equal it). It checks the files the
// exercise names too. The exercise is nil when the file is unusable.
func loadExercise(p *Pack, dir, base string) (*Exercise, Problems) {
	e := &Exercise{Dir: dir, Pack: p, Seed: DefaultSeed, Seeds: DefaultSeeds, TimeLimit: DefaultTimeLimit, Job: DefaultJob,
		Budget: DefaultBudget(), Attempts: DefaultAttempts, Feedback: FeedbackRightWrong}
	e.File = e.FileName(ExerciseFile)
	data, err := e.ReadFile(ExerciseFile)
	if err != nil {
		return nil, Problems{{File: e.File, Msg: fmt.Sprintf("cannot read: %v", err)}}
	}
	d := &yamlpos.Decoder{File: e.File, Kind: ErrBadPack}
	e.decode(d, data)
	if len(d.Errs) > 0 && e.ID == "" {
		return nil, d.Errs
	}
	if e.ID != "" && e.ID != base && dir != "." {
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.File, Line: 1, Col: 1, Msg: fmt.Sprintf("id %q must equal the exercise's directory name %q", e.ID, base)})
	}
	task, err := e.ReadFile(TaskFile)
	if err != nil {
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.FileName(TaskFile), Msg: "missing: every exercise needs a README.md with the task as the student reads it"})
	}
	e.Task = string(task)
	if e.Answer != "" {
		if _, err := e.ReadFile(e.Answer); err != nil {
			d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.FileName(e.Answer), Msg: "missing: the exercise directory must hold the starter version of the answer file"})
		}
	}
	if e.JobIsFile() && e.Job != "" {
		e.checkJobFile(d)
	}
	if len(d.Errs) > 0 {
		return e, d.Errs
	}
	return e, nil
}

// decode reads exercise.yaml.
func (e *Exercise) decode(d *yamlpos.Decoder, data []byte) {
	root, err := yamlpos.Parse(ErrBadPack, e.File, data, YAMLLimits)
	if err != nil {
		d.Errs = append(d.Errs, err.(*Problem))
		return
	}
	if root == nil {
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.File, Line: 1, Col: 1, Msg: "empty file: expected an exercise with id, title, kind, answer, scenario and checks"})
		return
	}
	top := yamlpos.Root("exercise", root)
	has := map[string]yamlpos.Entry{}
	var checks yamlpos.Entry
	for _, f := range d.Mapping(top, "exercise", exerciseKeys) {
		has[f.Key] = f
		switch f.Key {
		case "id":
			e.ID = d.String(f)
			if e.ID != "" && !idPattern.MatchString(e.ID) {
				d.FailAt(f, "id: %q must be lower-case letters, digits and dashes, starting with a letter or digit, at most 64", e.ID)
			}
		case "title":
			e.Title = d.String(f)
		case "topic":
			e.Topic = d.String(f)
		case "kind":
			e.Kind = d.String(f)
			if e.Kind != "" && !slices.Contains(Kinds, e.Kind) {
				d.FailAt(f, "kind: unknown kind %q; expected one of %s", e.Kind, strings.Join(Kinds, ", "))
			}
		case "job":
			e.Job = d.String(f)
			if _, ok := jobspec.Builtin(e.Job); !ok && !isYAML(e.Job) {
				d.FailAt(f, "job: unknown job %q; expected a built-in job (%s) or a .yaml job file in the exercise directory", e.Job, strings.Join(jobspec.Names(), ", "))
			} else if !ok && !isPlainPath(e.Job) {
				d.FailAt(f, "job: %q must be a path inside the exercise directory", e.Job)
			}
		case "seed":
			e.Seed = d.Int(f)
		case "seeds":
			e.Seeds = int(d.Int(f))
			if e.Seeds < 1 || e.Seeds > MaxSeeds {
				d.FailAt(f, "seeds: must be from 1 to %d, got %s", MaxSeeds, yamlpos.Text(f.Value))
			}
		case "budget":
			e.HasBudget = true
			updatesSet := false
			for _, b := range d.Mapping(f, "budget", []string{"records", "steps", "window_updates", "rows", "timers", "state_bytes", "checkpoint_bytes"}) {
				n := d.Int(b)
				if n < 1 || n > MaxBudget {
					d.FailAt(b, "budget.%s: must be from 1 to %d, got %s", b.Key, MaxBudget, yamlpos.Text(b.Value))
				}
				switch b.Key {
				case "records":
					e.Budget.Records = n
				case "steps":
					e.Budget.Steps = n
				case "window_updates":
					e.Budget.WindowUpdates, updatesSet = n, true
				case "rows":
					e.Budget.Rows = n
				case "timers":
					e.Budget.Timers = n
				case "state_bytes":
					e.Budget.StateBytes = n
				default:
					e.Budget.CheckpointBytes = n
				}
			}
			if !updatesSet {
				// Every record a tumbling window counts is one update: an
				// exercise that admits more records than the default
				// allows updates would otherwise fail its own reference.
				e.Budget.WindowUpdates = max(e.Budget.WindowUpdates, e.Budget.Records)
			}
		case "time_limit":
			e.HasTimeLimit = true
			e.TimeLimit = d.Duration(f)
			if e.TimeLimit <= 0 || e.TimeLimit > MaxTimeLimit {
				d.FailAt(f, "time_limit: must be above 0 and at most %s, got %s", MaxTimeLimit, yamlpos.Text(f.Value))
			}
		case "attempts":
			e.Attempts = int(d.Int(f))
			if e.Attempts < 1 || e.Attempts > MaxAttempts {
				d.FailAt(f, "attempts: must be from 1 to %d, got %s", MaxAttempts, yamlpos.Text(f.Value))
			}
		case "feedback":
			e.Feedback = d.String(f)
			if !slices.Contains(Feedbacks, e.Feedback) {
				d.FailAt(f, "feedback: unknown feedback %q; expected %s", e.Feedback, strings.Join(Feedbacks, " or "))
			}
		case "answer":
			e.Answer = d.String(f)
		case "allow":
			e.Allow = d.Strings(f)
		case "scenario":
		case "checks":
			checks = f
		}
	}
	for _, k := range []string{"id", "title", "kind", "answer", "checks"} {
		if _, ok := has[k]; !ok {
			l, c := yamlpos.Pos(root)
			d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.File, Line: l, Col: c, Msg: fmt.Sprintf("missing key %q: every exercise needs id, title, kind, answer and checks", k)})
		}
	}
	if a, ok := has["answer"]; ok {
		e.checkAnswerName(d, a)
	}
	if a, ok := has["allow"]; ok {
		e.checkAllow(d, a)
	}
	for _, k := range []string{"attempts", "feedback"} {
		if f, ok := has[k]; ok && e.Kind != "" && e.Kind != KindPrediction {
			d.FailAt(f, "%s: only a prediction exercise takes %s, not a %s exercise", k, k, e.Kind)
		}
	}
	if s, ok := has["scenario"]; ok {
		e.decodeScenario(d, s, data)
	} else if e.Kind == KindPrediction || e.Kind == KindConfiguration {
		l, c := yamlpos.Pos(root)
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.File, Line: l, Col: c, Msg: fmt.Sprintf("missing key \"scenario\": a %s exercise needs a scenario that runs the job", e.Kind)})
	}
	if checks.Value != nil {
		e.decodeChecks(d, checks)
	}
}

func isYAML(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// isPlainPath reports whether name is a relative slash path that stays
// inside its directory.
func isPlainPath(name string) bool {
	return name != "" && fs.ValidPath(name) && !strings.Contains(name, "\\")
}

// checkAnswerName checks the answer file's name against the kind.
func (e *Exercise) checkAnswerName(d *yamlpos.Decoder, f yamlpos.Entry) {
	a := e.Answer
	if a == "" {
		return
	}
	if !isPlainPath(a) || strings.Contains(a, "/") {
		d.FailAt(f, "answer: %q must be a file name in the exercise directory, without directories", a)
		return
	}
	if a == ExerciseFile || a == TaskFile {
		d.FailAt(f, "answer: %q is a file of the exercise itself; name the file the student hands in", a)
		return
	}
	var ok bool
	var want string
	switch e.Kind {
	case KindPrediction:
		ok, want = isYAML(a), "a .yaml file of answers"
	case KindConfiguration:
		ok, want = isYAML(a) || strings.HasSuffix(a, ".lab"), "a .lab file of set lines or a .yaml job file"
	case KindScript, KindRecording:
		ok, want = strings.HasSuffix(a, ".lab"), "a .lab lab script"
	default:
		return
	}
	if !ok {
		d.FailAt(f, "answer: a %s exercise takes %s, got %q", e.Kind, want, a)
	}
}

// checkAllow checks the allow list.
func (e *Exercise) checkAllow(d *yamlpos.Decoder, f yamlpos.Entry) {
	if e.Kind != KindConfiguration {
		d.FailAt(f, "allow: only a configuration exercise takes allow")
		return
	}
	if !strings.HasSuffix(e.Answer, ".lab") {
		// A job file answer: allow names the parts of the job that may
		// differ from the starter (source.watermark, operators.NAME.window,
		// connector, driver, dependencies).
		for i, item := range d.List(f) {
			if i < len(e.Allow) && !jobPart.MatchString(e.Allow[i]) {
				d.FailAt(item, "allow: %q is not a part of a job file; expected a dotted name such as source.watermark or operators.count.window", e.Allow[i])
			}
		}
		return
	}
	for i, item := range d.List(f) {
		if i >= len(e.Allow) {
			break
		}
		if err := CheckSettable(e.Allow[i]); err != nil {
			d.FailAt(item, "allow: %v", err)
		}
	}
}

// checkJobFile parses the exercise's job file.
func (e *Exercise) checkJobFile(d *yamlpos.Decoder) {
	data, err := e.ReadFile(e.Job)
	if err != nil {
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.FileName(e.Job), Msg: "missing: the exercise names this job file"})
		return
	}
	if _, err := jobspec.Parse(e.FileName(e.Job), data); err != nil {
		if je, ok := poserr.As(err, jobspec.ErrBadJob); ok {
			d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: je.File, Line: je.Line, Col: je.Col, Msg: je.Msg})
			return
		}
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.FileName(e.Job), Msg: err.Error()})
	}
}

// decodeChecks reads the checks list.
func (e *Exercise) decodeChecks(d *yamlpos.Decoder, f yamlpos.Entry) {
	items := d.List(f)
	if len(items) == 0 {
		if f.Value.Kind == yaml.SequenceNode {
			d.FailAt(f, "checks: expected at least one check")
		}
		return
	}
	names := map[string]int{}
	answers := 0
	for i, item := range items {
		c := e.decodeCheck(d, item)
		if c.Name != "" {
			if first, dup := names[c.Name]; dup {
				d.FailAt(item, "checks[%d]: the name %q is already used by checks[%d]; names must be unique", i, c.Name, first)
			}
			names[c.Name] = i
		}
		if c.Answer != "" {
			answers++
		}
		e.Checks = append(e.Checks, c)
	}
	if e.Kind == KindPrediction && answers == 0 && !e.overlay {
		d.FailAt(f, "checks: a prediction exercise needs at least one check with answer")
	}
}
