package tui

import (
	"fmt"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the master (the terminal's side) and
// the slave (the lab's).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// A terminal that never answers costs the start queryTimeout, not five
// seconds; one that answers is asked nothing more.
func TestQueryTimesOut(t *testing.T) {
	_, slave := openPTY(t)
	start := time.Now()
	if answersQueries(slave, slave) {
		t.Fatal("a terminal that says nothing answered")
	}
	if d := time.Since(start); d > 10*queryTimeout {
		t.Fatalf("waited %v for a silent terminal", d)
	}

	master, slave := openPTY(t)
	go func() {
		buf := make([]byte, 16)
		if n, _ := master.Read(buf); n > 0 {
			master.WriteString("\x1b[12;1R")
		}
	}()
	if !answersQueries(slave, slave) {
		t.Fatal("a terminal that answers was taken for a silent one")
	}
}
