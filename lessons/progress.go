package lessons

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/userfile"
)

// StateDirEnv names the environment variable that overrides where progress
// is kept (for tests and for several learners on one account).
const StateDirEnv = "STREAMLAB_STATE_DIR"

// progressFile is the name of the progress file in the state directory.
const progressFile = "progress.json"

// StateDir is the directory streamlab keeps the learner's progress in:
// $STREAMLAB_STATE_DIR when set; else $XDG_STATE_HOME/streamlab; else
// ~/.local/state/streamlab (on Windows %LocalAppData%\streamlab).
func StateDir() (string, error) {
	if d := os.Getenv(StateDirEnv); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "streamlab"), nil
	}
	if runtime.GOOS == "windows" {
		if d, err := os.UserCacheDir(); err == nil {
			return filepath.Join(d, "streamlab"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no state directory for progress: %w; set %s", err, StateDirEnv)
	}
	return filepath.Join(home, ".local", "state", "streamlab"), nil
}

// Progress is what the learner has done, as saved in progress.json.
type Progress struct {
	// Seed is the learner's own seed for lessons, chosen once (see
	// EnsureSeed), so that checks whose answer depends on the seed differ
	// from one learner to the next.
	Seed    int64                      `json:"seed,omitempty"`
	Lessons map[string]*LessonProgress `json:"lessons,omitempty"`

	// unknown keeps the fields this version does not know (a newer
	// streamlab's), so that saving writes them back instead of dropping
	// them.
	unknown map[string]json.RawMessage
}

// Clone copies p deeply, unknown fields included.
func (p *Progress) Clone() Progress {
	c := *p
	c.Lessons = make(map[string]*LessonProgress, len(p.Lessons))
	for id, lp := range p.Lessons {
		v := *lp
		c.Lessons[id] = &v
	}
	return c
}

// UnmarshalJSON reads the known fields and keeps the others.
func (p *Progress) UnmarshalJSON(b []byte) error {
	type plain Progress
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	unknown, err := unknownFields(b, "seed", "lessons")
	*p = Progress(v)
	p.unknown = unknown
	return err
}

// MarshalJSON writes the known fields and the unknown ones kept.
func (p Progress) MarshalJSON() ([]byte, error) {
	type plain Progress
	return withUnknown(plain(p), p.unknown)
}

// LessonProgress is one lesson's progress.
type LessonProgress struct {
	// Steps is how many steps are done (they are done in order).
	Steps int `json:"steps"`
	// Checked is set once the final check was answered right.
	Checked bool `json:"checked"`

	unknown map[string]json.RawMessage // as in Progress
}

// UnmarshalJSON reads the known fields and keeps the others.
func (lp *LessonProgress) UnmarshalJSON(b []byte) error {
	type plain LessonProgress
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	unknown, err := unknownFields(b, "steps", "checked")
	*lp = LessonProgress(v)
	lp.unknown = unknown
	return err
}

// MarshalJSON writes the known fields and the unknown ones kept.
func (lp LessonProgress) MarshalJSON() ([]byte, error) {
	type plain LessonProgress
	return withUnknown(plain(lp), lp.unknown)
}

// unknownFields returns the members of the JSON object b not named known.
func unknownFields(b []byte, known ...string) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for _, k := range known {
		delete(all, k)
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

// withUnknown marshals v, an object, with the unknown members added.
func withUnknown(v any, unknown map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(unknown) == 0 {
		return b, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, raw := range unknown {
		if _, ok := all[k]; !ok {
			all[k] = raw
		}
	}
	return json.Marshal(all)
}

// Lesson returns the progress of lesson id, creating it.
func (p *Progress) Lesson(id string) *LessonProgress {
	if p.Lessons == nil {
		p.Lessons = map[string]*LessonProgress{}
	}
	lp := p.Lessons[id]
	if lp == nil {
		lp = &LessonProgress{}
		p.Lessons[id] = lp
	}
	return lp
}

// Done reports whether lesson l is finished: every step and the check.
func (p *Progress) Done(l *Lesson) bool {
	lp := p.Lessons[l.ID]
	return lp != nil && lp.Steps >= len(l.Steps) && lp.Checked
}

// Status describes lesson l's progress in a few words: "not started",
// "step 2 of 4", "check to answer", "done".
func (p *Progress) Status(l *Lesson) string {
	lp := p.Lessons[l.ID]
	switch {
	case lp == nil || (lp.Steps == 0 && !lp.Checked):
		return "not started"
	case lp.Steps < len(l.Steps):
		return fmt.Sprintf("step %d of %d", lp.Steps+1, len(l.Steps))
	case !lp.Checked:
		return "check to answer"
	}
	return "done"
}

// Next returns the first lesson of ls that is not done, or the last one
// when all are.
func (p *Progress) Next(ls []*Lesson) *Lesson {
	for _, l := range ls {
		if !p.Done(l) {
			return l
		}
	}
	return ls[len(ls)-1]
}

// StepsDone records that the first n steps of lesson id are done; progress
// never goes back (only Reset does that).
func (p *Progress) StepsDone(id string, n int) {
	lp := p.Lesson(id)
	lp.Steps = max(lp.Steps, n)
}

// CheckPassed records that lesson id's check was answered right.
func (p *Progress) CheckPassed(id string) { p.Lesson(id).Checked = true }

// Reset forgets lesson id's progress.
func (p *Progress) Reset(id string) { delete(p.Lessons, id) }

// ResetAll forgets every lesson's progress; the learner's seed stays.
func (p *Progress) ResetAll() { p.Lessons = nil }

// EnsureSeed gives the learner a seed when they have none, from newSeed
// (which must not return 0), and reports whether it did.
func (p *Progress) EnsureSeed(newSeed func() int64) bool {
	if p.Seed != 0 {
		return false
	}
	for p.Seed == 0 {
		p.Seed = newSeed()
	}
	return true
}

// ErrDamaged is matched by the error Store.Load returns when the progress
// file could not be read as progress; Load has then moved it aside.
var ErrDamaged = errors.New("damaged progress file")

// DamagedError says which progress file was damaged and where it went.
type DamagedError struct {
	Path, MovedTo string
	Err           error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s is damaged (%v); moved it to %s and started afresh", e.Path, e.Err, e.MovedTo)
}

// Is makes every DamagedError an ErrDamaged.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// Unwrap returns the decoding error.
func (e *DamagedError) Unwrap() error { return e.Err }

// Store keeps Progress in Dir/progress.json.
type Store struct {
	Dir string
}

// maxProgressBytes bounds the progress file: a few kilobytes in use.
const maxProgressBytes = 4 << 20

// Path is the progress file.
func (s Store) Path() string { return filepath.Join(s.Dir, progressFile) }

// Load reads the progress. A missing file is no progress. A damaged file
// is renamed aside to progress.json.bad-N and Load returns empty progress
// with a *DamagedError for the caller to show as a warning; the progress
// it returns is usable whatever the error, so a damaged file never stops
// the learner.
func (s Store) Load() (*Progress, error) {
	p := &Progress{}
	// A FIFO there would hang the lab, /dev/zero fill its memory.
	data, err := untrusted.ReadOwn(s.Path(), maxProgressBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return p, nil
	case err != nil:
		return p, fmt.Errorf("reading progress: %w", err)
	}
	if err := decodeProgress(data, p); err != nil {
		moved, mvErr := s.moveAside()
		if mvErr != nil {
			return &Progress{}, fmt.Errorf("%s is damaged (%v), and moving it aside failed: %w", s.Path(), err, mvErr)
		}
		return &Progress{}, &DamagedError{Path: s.Path(), MovedTo: moved, Err: err}
	}
	return p, nil
}

// decodeProgress reads progress strictly: one JSON object whose known
// fields have the known shape, with sane numbers.
func decodeProgress(data []byte, p *Progress) error {
	// Unknown fields are kept (see Progress.unknown), not an error: a file
	// written by a newer streamlab must not cost the learner their seed.
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(p); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("text after the JSON object")
	}
	for id, lp := range p.Lessons {
		if lp == nil || lp.Steps < 0 {
			return fmt.Errorf("lesson %q: bad progress", id)
		}
	}
	return nil
}

// moveAside renames the progress file to the first free progress.json.bad-N.
func (s Store) moveAside() (string, error) {
	for n := 1; n < 10_000; n++ {
		to := s.Path() + ".bad-" + strconv.Itoa(n)
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			return to, os.Rename(s.Path(), to)
		}
	}
	return "", errors.New("too many damaged progress files")
}

// Save writes the progress atomically (internal/userfile): a crash leaves
// the old progress.json or the new one, never half of one.
func (s Store) Save(p *Progress) error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	err = userfile.WriteFile(s.Path(), true, 0o644, append(data, '\n'))
	if err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	return nil
}

// Workspace is the directory where lesson l's files are written for the
// learner, so that the job files its steps name can be opened in the lab
// (and in an editor): Dir/lessons/ID.
func (s Store) Workspace(l *Lesson) string { return filepath.Join(s.Dir, "lessons", l.ID) }
