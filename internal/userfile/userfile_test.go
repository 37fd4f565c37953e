package userfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteNeverLosesAFile(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "script.lab")
	must(t, os.WriteFile(outside, []byte("keep me"), 0o600))
	link := filepath.Join(dir, "link")
	must(t, os.Symlink(outside, link))
	existing := filepath.Join(dir, "existing")
	must(t, os.WriteFile(existing, []byte("old"), 0o644))

	if err := WriteFile(existing, false, 0o644, []byte("new")); !errors.Is(err, ErrExists) {
		t.Fatalf("overwrite without asking: %v", err)
	}
	if err := WriteFile(link, false, 0o644, []byte("new")); !errors.Is(err, ErrExists) {
		t.Fatalf("write to a link without asking: %v", err)
	}
	if err := WriteFile(dir, true, 0o644, []byte("new")); err == nil {
		t.Fatal("wrote over a directory")
	}
	must(t, WriteFile(link, true, 0o644, []byte("new")))
	if b, _ := os.ReadFile(outside); string(b) != "keep me" {
		t.Fatalf("wrote through the link: target now %q", b)
	}
	if st, _ := os.Stat(outside); st.Mode().Perm() != 0o600 {
		t.Fatalf("the link's target changed mode: %v", st.Mode())
	}
	if st, _ := os.Lstat(link); !st.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by a file: %v", st.Mode())
	}
	must(t, WriteFile(existing, true, 0o644, []byte("new")))
	if b, _ := os.ReadFile(existing); string(b) != "new" {
		t.Fatalf("forced overwrite: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("left temporary files behind: %v", ents)
	}
}

func TestCreateOnlyWhenAbsent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "job.yaml")
	wrote, err := Create(p, 0o644, []byte("v1"))
	if err != nil || !wrote {
		t.Fatalf("first Create = %v, %v", wrote, err)
	}
	must(t, os.WriteFile(p, []byte("learner's edit"), 0o644))
	wrote, err = Create(p, 0o644, []byte("v1"))
	if err != nil || wrote {
		t.Fatalf("second Create = %v, %v; want nothing written", wrote, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "learner's edit" {
		t.Fatalf("the edit was lost: %q", b)
	}
	outside := filepath.Join(t.TempDir(), "x")
	must(t, os.Symlink(outside, filepath.Join(dir, "dangling")))
	if wrote, _ := Create(filepath.Join(dir, "dangling"), 0o644, []byte("x")); wrote {
		t.Fatal("Create wrote through a dangling link")
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Fatal("a file appeared at the link's target")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReplacingKeepsPermissions: a file the user made private stays
// private when it is replaced; a new file gets the permissions asked for.
func TestReplacingKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "report.json")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(private, true, 0o644, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(private); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("replaced: %v, %v", st.Mode(), err)
	}
	fresh := filepath.Join(dir, "new.json")
	if err := WriteFile(fresh, false, 0o640, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(fresh); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("new: %v, %v", st.Mode(), err)
	}
}

// TestRefusalNamesThePath: Write's own refusals read "path: reason" and
// carry the path and the reason apart, for a caller that names the path.
func TestRefusalNamesThePath(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing")
	must(t, os.WriteFile(existing, []byte("old"), 0o644))
	for _, tt := range []struct {
		path, reason string
	}{
		{existing, "already exists (use --force to replace it)"},
		{dir, "is a directory; give a file name"},
	} {
		err := WriteFile(tt.path, tt.path == dir, 0o644, []byte("new"))
		var pe *PathError
		if !errors.As(err, &pe) || pe.Path != tt.path || pe.Err.Error() != tt.reason || err.Error() != tt.path+": "+tt.reason {
			t.Errorf("WriteFile(%s) = %v, want %s: %s as a *PathError", tt.path, err, tt.path, tt.reason)
		}
	}
}

// TestWriteFirstFreeNeverReplaces: each write takes the next free path,
// whatever stands at a taken one (a file, a dangling link) stays, and with
// every path taken nothing is written.
func TestWriteFirstFreeNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "1.yaml"), filepath.Join(dir, "2.yaml"), filepath.Join(dir, "3.yaml")}
	must(t, os.Symlink(filepath.Join(dir, "nowhere"), paths[1]))
	for _, want := range []int{0, 2} {
		i, err := WriteFirstFree(paths, 0o640, []byte(fmt.Sprint(want)))
		if err != nil || i != want {
			t.Fatalf("WriteFirstFree = %d, %v; want %d", i, err, want)
		}
		if b, _ := os.ReadFile(paths[i]); string(b) != fmt.Sprint(want) {
			t.Fatalf("%s holds %q", paths[i], b)
		}
		if st, _ := os.Stat(paths[i]); st.Mode().Perm() != 0o640 {
			t.Fatalf("%s has mode %v", paths[i], st.Mode())
		}
	}
	if i, err := WriteFirstFree(paths, 0o640, []byte("more")); !errors.Is(err, ErrAllTaken) || i != -1 {
		t.Fatalf("with every path taken: %d, %v", i, err)
	}
	if st, err := os.Lstat(paths[1]); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v, %v", st, err)
	}
	if b, _ := os.ReadFile(paths[0]); string(b) != "0" {
		t.Fatalf("the first file was replaced: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Fatalf("left temporary files behind: %v", ents)
	}
}
