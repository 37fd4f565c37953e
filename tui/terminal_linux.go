package tui

import (
	"bytes"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// answersQueries reports whether the terminal answers a cursor position
// request ("\x1b[6n") within queryTimeout. It reads the answer, so none is
// left for the lab's input.
func answersQueries(in, out *os.File) bool {
	fd := int(in.Fd())
	saved, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return false // not a terminal: nothing to ask
	}
	raw := *saved
	raw.Lflag &^= unix.ECHO | unix.ICANON
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &raw); err != nil {
		return false
	}
	defer unix.IoctlSetTermios(fd, unix.TCSETS, saved)
	if _, err := out.WriteString("\x1b[6n"); err != nil {
		return false
	}
	deadline := time.Now().Add(queryTimeout)
	var buf [64]byte
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		var fds unix.FdSet
		fds.Set(fd)
		tv := unix.NsecToTimeval(int64(left))
		n, err := unix.Select(fd+1, &fds, nil, nil, &tv)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return false
		}
		m, err := unix.Read(fd, buf[:])
		if err != nil || m == 0 {
			return false
		}
		if bytes.IndexByte(buf[:m], 'R') >= 0 {
			return true
		}
	}
}
