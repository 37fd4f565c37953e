package tui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

func TestPlainTerminal(t *testing.T) {
	for _, tc := range []struct {
		env   map[string]string
		plain bool
	}{
		{map[string]string{"TERM": "xterm-256color", "LANG": "en_US.UTF-8"}, false},
		{map[string]string{"TERM": "dumb", "LANG": "en_US.UTF-8"}, true},
		{map[string]string{"TERM": "xterm", "LANG": "C"}, true},
		{map[string]string{"TERM": "xterm", "LANG": "POSIX"}, true},
		{map[string]string{"TERM": "xterm", "LANG": "de_DE.ISO-8859-1"}, true},
		{map[string]string{"TERM": "xterm", "LC_ALL": "C", "LANG": "en_US.UTF-8"}, true},
		{map[string]string{"TERM": "xterm", "LC_ALL": "en_US.utf8", "LANG": "C"}, false},
		{map[string]string{"TERM": "xterm", "LC_CTYPE": "C.UTF-8"}, false},
		{map[string]string{"TERM": "xterm"}, false},
	} {
		if got := plainTerminal(func(k string) string { return tc.env[k] }); got != tc.plain {
			t.Errorf("%v: plain = %v, want %v", tc.env, got, tc.plain)
		}
	}
	if opts := programOptions(true, nil, nil); len(opts) != 0 {
		t.Errorf("a plain terminal gets %d program options; want none (no alternate screen)", len(opts))
	}
	if opts := programOptions(false, nil, nil); len(opts) != 1 {
		t.Errorf("a full terminal gets %d program options; want the alternate screen", len(opts))
	}
}

// The plain layout is the lab's own, cell for cell, in ASCII.
func TestASCIILayout(t *testing.T) {
	s := newSession(t, "clicks")
	m, _ := labModel(t, 100, 30, s)
	m = s.run(m, time.Second)
	var am tea.Model = forTerminal(m, true)
	next, _ := am.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	am = next
	fancy := strings.Split(fromTerminal(am).View(), "\n")
	plainView := am.View()
	lines := strings.Split(plainView, "\n")
	if len(lines) != len(fancy) {
		t.Fatalf("%d lines, want %d", len(lines), len(fancy))
	}
	for i, l := range lines {
		if s := ansi.Strip(l); !isASCII(s) {
			t.Fatalf("line %d is not ASCII: %q", i+1, s)
		}
		// "?" stands for a character the map does not know; the lab
		// draws none of its own.
		if strings.Contains(ansi.Strip(l), "?") && !strings.Contains(ansi.Strip(fancy[i]), "?") {
			t.Errorf("line %d has a character without ASCII: %q", i+1, ansi.Strip(fancy[i]))
		}
		if w, want := ansi.StringWidth(l), ansi.StringWidth(fancy[i]); w != want {
			t.Errorf("line %d is %d cells wide, the lab's is %d", i+1, w, want)
		}
	}
	if _, ok := fromTerminal(am).(Model); !ok {
		t.Fatal("fromTerminal does not give back the lab's model")
	}
	if got := toASCII("\x1b[1m┌─┐│█…→\x1b]8;;x\x07✓\x1b[0m"); got != "\x1b[1m+-+|#.>\x1b]8;;x\x07v\x1b[0m" {
		t.Errorf("toASCII = %q", got)
	}
}

func TestTooSmallFits40x10(t *testing.T) {
	for _, size := range [][2]int{{40, 10}, {60, 20}, {79, 23}, {20, 5}} {
		w, h := size[0], size[1]
		out := tooSmallText(w, h, lipgloss.NewStyle())
		lines := strings.Split(out, "\n")
		if len(lines) > h {
			t.Errorf("%d×%d: %d lines", w, h, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("%d×%d: line %q is wider", w, h, l)
			}
		}
		if w >= 40 && !strings.Contains(out, "q quits") {
			t.Errorf("%d×%d: the message is cut:\n%s", w, h, out)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Every character the lab's code, a lesson's text, the engine's messages
// (the events pane shows them) or an exercise's text can draw has an ASCII
// stand-in of its width, so a plain terminal never shows "?" where the lab
// meant a glyph (a restarting node was once "? restarting").
func TestEveryGlyphTheLabDrawsHasASCII(t *testing.T) {
	var missing []string
	seen := map[rune]bool{}
	check := func(path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range string(b) {
			if r < utf8.RuneSelf || seen[r] {
				continue
			}
			seen[r] = true
			if strings.Contains(asciiRune(r), "?") {
				missing = append(missing, fmt.Sprintf("%q (%U, first in %s)", r, r, path))
			}
		}
	}
	for _, root := range []string{".", "../lessons/content", "../engine", "../exercises/builtin"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			name := d.Name()
			if !d.IsDir() && (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".yaml")) {
				check(path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d non-ASCII characters found: the walk missed the sources", len(seen))
	}
	for _, m := range missing {
		t.Errorf("no ASCII for %s", m)
	}
}
