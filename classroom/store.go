package classroom

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/userfile"
	"github.com/streamlab/streamlab/lessons"
)

// The state directory's layout:
//
//	DIR/host_ed25519                      the server's host key (made on first start)
//	DIR/students/ID/student.json          who the student is (Student)
//	DIR/students/ID/progress.json         their lessons' progress and seed (lessons.Store)
//	DIR/students/ID/answers/EX/FILE       the last answer they graded to exercise EX
//	DIR/students/ID/answers/*.lab         sessions they saved with ctrl+s
//	DIR/students/ID/lessons/              the lessons' files
//
// ID is the hex SHA-256 of the student's public key: the key is who they
// are, whatever user name they log in with.
const (
	hostKeyFile  = "host_ed25519"
	studentsDir  = "students"
	studentFile  = "student.json"
	answersDir   = "answers"
	maxStateFile = 1 << 20
)

// Student is a student as the server knows them, kept in student.json.
type Student struct {
	// ID names the student's directory; it is derived from Key.
	ID string `json:"id"`
	// Name is the roster's name for the key, else the SSH user name of
	// their last login.
	Name string `json:"name"`
	// Fingerprint is the key's SHA-256 fingerprint, as ssh-keygen -l
	// prints it; Key is the key in the authorized_keys form.
	Fingerprint string `json:"fingerprint"`
	Key         string `json:"key"`
	// FirstSeen and LastSeen are when they first and last logged in.
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
}

// StudentID is the ID of the student with key.
func StudentID(key gossh.PublicKey) string {
	sum := sha256.Sum256(key.Marshal())
	return hex.EncodeToString(sum[:])
}

var idPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// State is a server's state directory.
type State struct {
	Dir string
}

// StudentDir is the directory of student id.
func (s State) StudentDir(id string) string { return filepath.Join(s.Dir, studentsDir, id) }

// Progress is the progress store of student id.
func (s State) Progress(id string) lessons.Store { return lessons.Store{Dir: s.StudentDir(id)} }

// AnswersDir is where student id's answers are kept, one subdirectory an
// exercise (the layout `streamlab grade --answers` reads).
func (s State) AnswersDir(id string) string { return filepath.Join(s.StudentDir(id), answersDir) }

// Login records that the student with key logged in as name at now, and
// returns them.
func (s State) Login(key gossh.PublicKey, name string, now time.Time) (*Student, error) {
	id := StudentID(key)
	st, err := s.Student(id)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// A damaged record is rewritten: the progress is elsewhere.
		st = nil
	}
	if st == nil {
		st = &Student{ID: id, FirstSeen: now.UTC()}
	}
	st.Name = name
	st.Fingerprint = gossh.FingerprintSHA256(key)
	st.Key = strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key)))
	st.LastSeen = now.UTC()
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(s.StudentDir(id), studentFile), append(data, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("recording the student: %w", err)
	}
	return st, nil
}

// Student reads student id's record.
func (s State) Student(id string) (*Student, error) {
	if !idPattern.MatchString(id) {
		return nil, fmt.Errorf("%q is not a student ID", id)
	}
	data, err := untrusted.ReadPath(filepath.Join(s.StudentDir(id), studentFile), maxStateFile)
	if err != nil {
		return nil, err
	}
	var st Student
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(s.StudentDir(id), studentFile), err)
	}
	st.ID = id
	return &st, nil
}

// Students lists the IDs of the students in the state directory, sorted.
func (s State) Students() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(s.Dir, studentsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && idPattern.MatchString(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// SaveAnswer keeps student id's answer to exercise ex (its answer file
// name is file) atomically.
func (s State) SaveAnswer(id, ex, file string, data []byte) error {
	if filepath.Base(file) != file || file == "." || file == ".." || filepath.Base(ex) != ex {
		return fmt.Errorf("bad answer name %s/%s", ex, file)
	}
	return writeFileAtomic(filepath.Join(s.AnswersDir(id), ex, file), data, 0o644)
}

// HostKey returns the server's host key in PEM, making one (ed25519) on
// first start and keeping it in the state directory, readable by its
// owner only.
func (s State) HostKey() ([]byte, error) {
	path := filepath.Join(s.Dir, hostKeyFile)
	data, err := untrusted.ReadPath(path, maxStateFile)
	if err == nil {
		if _, perr := gossh.ParsePrivateKey(data); perr != nil {
			return nil, fmt.Errorf("host key %s: %w", path, perr)
		}
		return data, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("host key: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "streamlab serve")
	if err != nil {
		return nil, err
	}
	data = pem.EncodeToMemory(block)
	if err := writeFileAtomic(path, data, 0o600); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	return data, nil
}

// writeFileAtomic writes data to path atomically (internal/userfile),
// making its directory first: a reader, or a crash, sees the old file or
// the new one, never half of one.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return userfile.WriteFile(path, true, perm, data)
}
