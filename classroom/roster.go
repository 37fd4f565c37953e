package classroom

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/untrusted"
)

// MaxRosterSize bounds a roster file: 10 000 students with long RSA keys
// fit well within it.
const MaxRosterSize = 16 << 20

// Roster is the class list: the students admitted, by public key.
type Roster struct {
	byKey map[string]string // key.Marshal() → name
	names []string
}

// Len is the number of students on the roster.
func (r *Roster) Len() int { return len(r.names) }

// Name returns the name the roster gives key, and whether key is on it.
func (r *Roster) Name(key gossh.PublicKey) (string, bool) {
	name, ok := r.byKey[string(key.Marshal())]
	return name, ok
}

// LoadRoster reads a roster file: one student a line, a name and a public
// key in the authorized_keys form (`alice ssh-ed25519 AAAA… comment`);
// blank lines and lines starting with # are ignored. An error names the
// file, the line and the column.
func LoadRoster(path string) (*Roster, error) {
	data, err := untrusted.ReadPath(path, MaxRosterSize)
	if err != nil {
		return nil, fmt.Errorf("roster: %w", err)
	}
	return ParseRoster(path, data)
}

// ErrBadRoster is matched (errors.Is) by every error ParseRoster returns;
// each is a *poserr.Error at the line and column of the mistake.
var ErrBadRoster = errors.New("bad roster")

// ParseRoster parses a roster's text; file names it in errors.
func ParseRoster(file string, data []byte) (*Roster, error) {
	bad := func(line, col int, format string, args ...any) error {
		return poserr.New(ErrBadRoster, file, line, col, fmt.Sprintf(format, args...))
	}
	r := &Roster{byKey: map[string]string{}}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimLeft(text, " \t")
		col := len(text) - len(trimmed) + 1
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		name, rest, _ := strings.Cut(trimmed, " ")
		if err := checkName(name); err != nil {
			return nil, bad(line, col, "%v", err)
		}
		rest = strings.TrimLeft(rest, " \t")
		keyCol := len(text) - len(rest) + 1 // where the key starts, or the line ends
		if rest == "" {
			return nil, bad(line, keyCol, "expected a public key after the name %q (like `alice ssh-ed25519 AAAA…`)", name)
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey([]byte(rest))
		if err != nil {
			return nil, bad(line, keyCol, "expected a public key in the authorized_keys form: %v", err)
		}
		k := string(key.Marshal())
		if prev, dup := seen[k]; dup {
			return nil, bad(line, keyCol, "this key is already %s's, on line %d", r.byKey[k], prev)
		}
		seen[k] = line
		r.byKey[k] = name
		r.names = append(r.names, name)
	}
	if err := sc.Err(); err != nil {
		return nil, bad(line+1, 1, "%v", err)
	}
	if len(r.names) == 0 {
		return nil, bad(1, 1, "expected at least one `name ssh-public-key` line")
	}
	return r, nil
}

// checkName accepts a student's name: 1 to 64 letters, digits and . _ - @.
func checkName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("expected a name of 1 to 64 characters, got %q", name)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-@", c)) {
			return fmt.Errorf("expected a name of letters, digits and . _ - @, got %q", name)
		}
	}
	return nil
}
