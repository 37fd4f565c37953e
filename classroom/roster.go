package classroom

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	gossh "golang.org/x/crypto/ssh"

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

// ParseRoster parses a roster's text; file names it in errors.
func ParseRoster(file string, data []byte) (*Roster, error) {
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
			return nil, fmt.Errorf("%s:%d:%d: %v", file, line, col, err)
		}
		rest = strings.TrimLeft(rest, " \t")
		keyCol := len(text) - len(rest) + 1 // where the key starts, or the line ends
		if rest == "" {
			return nil, fmt.Errorf("%s:%d:%d: expected a public key after the name %q (like `alice ssh-ed25519 AAAA…`)", file, line, keyCol, name)
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey([]byte(rest))
		if err != nil {
			return nil, fmt.Errorf("%s:%d:%d: expected a public key in the authorized_keys form: %v", file, line, keyCol, err)
		}
		k := string(key.Marshal())
		if prev, dup := seen[k]; dup {
			return nil, fmt.Errorf("%s:%d:%d: this key is already %s's, on line %d", file, line, keyCol, r.byKey[k], prev)
		}
		seen[k] = line
		r.byKey[k] = name
		r.names = append(r.names, name)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d:1: %v", file, line+1, err)
	}
	if len(r.names) == 0 {
		return nil, fmt.Errorf("%s:1:1: expected at least one `name ssh-public-key` line", file)
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
