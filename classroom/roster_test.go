package classroom

import (
	"errors"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func TestParseRoster(t *testing.T) {
	k1, k2 := newKey(t), newKey(t)
	line := func(name string, k gossh.Signer) string {
		return name + " " + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey()))) + " laptop\n"
	}
	r, err := ParseRoster("class.txt", []byte("# the class\n\n"+line("alice", k1)+"  "+line("bob.b", k2)))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := r.Name(k2.PublicKey()); !ok || n != "bob.b" || r.Len() != 2 {
		t.Errorf("bob: %q %v, %d students", n, ok, r.Len())
	}
	if _, ok := r.Name(newKey(t).PublicKey()); ok {
		t.Error("a stranger is on the roster")
	}
	for _, c := range []struct{ text, want string }{
		{"", "class.txt:1:1: expected at least one"},
		{"alice\n", "class.txt:1:6: expected a public key"},
		{"# x\nalice ssh-ed25519 nonsense\n", "class.txt:2:7: expected a public key in the authorized_keys form"},
		{"al/ice " + line("", k1)[1:], "class.txt:1:1: expected a name of letters"},
		{line("alice", k1) + "   " + line("eve", k1), "class.txt:2:8: this key is already alice's, on line 1"},
	} {
		_, err := ParseRoster("class.txt", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.Is(err, ErrBadRoster) {
			t.Errorf("%q: %v, want %s… of kind ErrBadRoster", c.text, err, c.want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{"ann": "ann", "": "student", "a\x1b[2Jb": "a[2Jb", strings.Repeat("x", 40): strings.Repeat("x", 32)} {
		if got := displayName(in); got != want {
			t.Errorf("displayName(%q) = %q, want %q", in, got, want)
		}
	}
}
