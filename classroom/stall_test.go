package classroom

import (
	"io"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// connectStalled logs in with a w×h terminal, opens the sandbox and sets
// time running, then reads nothing more: a client gone without a word,
// whose SSH window the lab's frames soon fill, so that the lab's next
// write waits for ever.
func connectStalled(t *testing.T, addr string, key gossh.Signer, w, h int) *gossh.Client {
	t.Helper()
	conn, err := dial(addr, "ann", key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdoutPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	for _, keys := range []string{keyEnter, keyEnter, " ", ">", ">"} {
		time.Sleep(300 * time.Millisecond)
		if _, err := io.WriteString(stdin, keys); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// TestStalledConnectionIsTakenOver checks that a student whose old
// connection stopped reading (its lab blocked writing a frame) can log in
// again: the old lab is closed under its stalled writes, leaves, and the
// new connection has the lab.
func TestStalledConnectionIsTakenOver(t *testing.T) {
	ts := startServer(t, Config{State: State{Dir: t.TempDir()}})
	defer ts.stop(t)
	key := newKey(t)
	connectStalled(t, ts.addr, key, maxWidth, maxHeight)
	waitUntil(t, func() bool { return ts.Open() == 1 }, "the stalled lab to open")
	time.Sleep(5 * time.Second) // its frames fill the window
	s := connect(t, ts.addr, "ann", key, 120, 40)
	s.waitFor(0, `Lessons 0/\d+`)
	if ts.Open() != 1 {
		t.Errorf("%d labs open, want the new one only", ts.Open())
	}
}

// TestStalledLabClosesAfterIdleTimeout checks that a lab whose client is
// gone without a word closes once no key has come for the idle timeout,
// though its last frame can never be written.
func TestStalledLabClosesAfterIdleTimeout(t *testing.T) {
	ts := startServer(t, Config{State: State{Dir: t.TempDir()}, IdleTimeout: 3 * time.Second})
	defer ts.stop(t)
	key := newKey(t)
	connectStalled(t, ts.addr, key, maxWidth, maxHeight)
	waitUntil(t, func() bool { return ts.Open() == 1 }, "the stalled lab to open")
	// The server's own connection timeout (a minute past the idle
	// timeout) is past this wait: only the lab's closing can end it.
	waitUntil(t, func() bool { return ts.Open() == 0 }, "the stalled lab to close after its idle timeout")
}
