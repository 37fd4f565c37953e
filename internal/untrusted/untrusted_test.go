package untrusted

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRefusesWhatIsNotData(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	write(t, secret, "PASSWORD=hunter2")
	write(t, filepath.Join(dir, "ok.yaml"), "a: 1")
	write(t, filepath.Join(dir, "big"), strings.Repeat("x", 101))
	must(t, os.Symlink(secret, filepath.Join(dir, "out")))
	must(t, os.Symlink("ok.yaml", filepath.Join(dir, "in")))
	must(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
	must(t, os.Symlink("/proc/self/environ", filepath.Join(dir, "environ")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.Symlink(outside, filepath.Join(dir, "subout")))
	if l, err := net.Listen("unix", filepath.Join(dir, "sock")); err == nil {
		defer l.Close()
	}

	for _, tc := range []struct {
		name string
		want error
	}{
		{"ok.yaml", nil},
		{"in", nil},
		{"out", ErrOutside},
		{"zero", ErrOutside},
		{"environ", ErrOutside},
		{"subout/secret", ErrOutside},
		{"../" + filepath.Base(outside) + "/secret", ErrOutside},
		{"fifo", ErrNotRegular},
		{"sub", ErrNotRegular},
		{"big", ErrTooLarge},
		{"missing", fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var data []byte
			var err error
			go func() { data, err = ReadFile(dir, tc.name, 100); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("ReadFile blocked")
			}
			if tc.want == nil {
				if err != nil || string(data) != "a: 1" {
					t.Fatalf("ReadFile = %q, %v; want the file", data, err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("ReadFile err = %v; want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("the error quotes the file: %v", err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "sock")); err == nil {
		if _, err := ReadFile(dir, "sock", 100); err == nil {
			t.Fatal("a socket was read")
		}
	}
}

func TestDirIsAConfinedFS(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "x"), "secret")
	must(t, os.Mkdir(filepath.Join(dir, "a"), 0o755))
	write(t, filepath.Join(dir, "a", "f"), "data")
	must(t, os.Symlink(outside, filepath.Join(dir, "b")))
	d, err := OpenDir(dir, 10)
	must(t, err)
	defer d.Close()
	if b, err := fs.ReadFile(d, "a/f"); err != nil || string(b) != "data" {
		t.Fatalf("fs.ReadFile = %q, %v", b, err)
	}
	if _, err := fs.ReadFile(d, "b/x"); !errors.Is(err, ErrOutside) {
		t.Fatalf("read through a link out: %v", err)
	}
	if _, err := fs.Stat(d, "b/x"); err == nil {
		t.Fatal("stat through a link out succeeded")
	}
	ents, err := fs.ReadDir(d, ".")
	if err != nil || len(ents) != 2 {
		t.Fatalf("ReadDir = %v, %v", ents, err)
	}
	fsys := FS(dir, 10)
	if b, err := fs.ReadFile(fsys, "a/f"); err != nil || string(b) != "data" {
		t.Fatalf("FS ReadFile = %q, %v", b, err)
	}
	if _, err := fs.ReadFile(fsys, "b/x"); !errors.Is(err, ErrOutside) {
		t.Fatalf("FS read through a link out: %v", err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		"a\x1b[2Jb":             "a\uFFFD[2Jb",
		"l\r\nn\tt":             "l\uFFFD n t",
		"\xffbad":               "\uFFFDbad",
		"rtl\u202eevil":         "rtl\uFFFDevil",
		strings.Repeat("é", 12): strings.Repeat("é", 10) + "…",
		"0123456789":            "0123456789",
	} {
		if got := Quote(in, 10); got != want {
			t.Errorf("Quote(%q) = %q; want %q", in, got, want)
		}
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	must(t, os.WriteFile(path, []byte(s), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadOwn: the user's own file may be a link anywhere, but a FIFO,
// /dev/zero or a file over the cap is refused at once.
func TestReadOwn(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(t.TempDir(), "config.yaml")
	must(t, os.WriteFile(real, []byte("seed: 3\n"), 0o600))
	link := filepath.Join(dir, "config.yaml")
	must(t, os.Symlink(real, link))
	if b, err := ReadOwn(link, 100); err != nil || string(b) != "seed: 3\n" {
		t.Errorf("a link to the user's file: %q, %v", b, err)
	}
	fifo := filepath.Join(dir, "fifo")
	must(t, syscall.Mkfifo(fifo, 0o600))
	done := make(chan error, 1)
	go func() { _, err := ReadOwn(fifo, 100); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("fifo: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a FIFO blocked ReadOwn")
	}
	if _, err := ReadOwn("/dev/zero", 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v", err)
	}
	if _, err := ReadOwn(real, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
}
