package export

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// checkPython checks the structure of a Python program without Python:
// strings (single, double, triple-quoted) and comments are closed where
// they should be, brackets balance and match, indentation is by four
// spaces, deepens exactly after a line ending in ':' and nowhere else,
// returns only to a level it left, and a compound statement (def, class,
// if, for, with, ...) ends in ':' while nothing else at the start of a
// logical line does. It catches what a generator gets wrong: a missing
// colon, a block at the wrong depth, an unclosed string or call.
func checkPython(src string) error {
	lines := strings.Split(src, "\n")
	var stack []rune   // open brackets
	levels := []int{0} // indentation levels of the open blocks
	triple := ""       // the quote of an open triple-quoted string
	continued := false // the previous physical line ended in a backslash
	opened := false    // the previous logical line ended in ':'
	var logical strings.Builder
	startLine := 0
	for i, line := range lines {
		n := i + 1
		if strings.ContainsRune(line, '\t') {
			return fmt.Errorf("line %d: a tab", n)
		}
		pos := 0
		if triple == "" && len(stack) == 0 && !continued {
			trimmed := strings.TrimLeft(line, " ")
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			indent := len(line) - len(trimmed)
			top := levels[len(levels)-1]
			switch {
			case indent%4 != 0:
				return fmt.Errorf("line %d: indentation %d is not a multiple of 4", n, indent)
			case opened && indent != top+4:
				return fmt.Errorf("line %d: the block after line %d must be indented to %d, not %d", n, startLine, top+4, indent)
			case opened:
				levels = append(levels, indent)
			case indent > top:
				return fmt.Errorf("line %d: unexpected indent", n)
			default:
				for indent < levels[len(levels)-1] {
					levels = levels[:len(levels)-1]
				}
				if indent != levels[len(levels)-1] {
					return fmt.Errorf("line %d: dedent to %d matches no outer level", n, indent)
				}
			}
			logical.Reset()
			startLine = n
			pos = indent
		}
		continued = false
		for pos < len(line) {
			c := line[pos]
			if triple != "" {
				if strings.HasPrefix(line[pos:], triple) {
					pos += 3
					logical.WriteString("S")
					triple = ""
					continue
				}
				if c == '\\' {
					pos++
				}
				pos++
				continue
			}
			switch {
			case c == '#':
				pos = len(line)
				continue
			case strings.HasPrefix(line[pos:], `"""`) || strings.HasPrefix(line[pos:], `'''`):
				triple = line[pos : pos+3]
				pos += 3
				continue
			case c == '"' || c == '\'':
				end := pos + 1
				for end < len(line) && line[end] != c {
					if line[end] == '\\' {
						end++
					}
					end++
				}
				if end >= len(line) {
					return fmt.Errorf("line %d: unterminated string", n)
				}
				logical.WriteString("S")
				pos = end + 1
				continue
			case c == '(' || c == '[' || c == '{':
				stack = append(stack, rune(c))
			case c == ')' || c == ']' || c == '}':
				open := map[byte]rune{')': '(', ']': '[', '}': '{'}[c]
				if len(stack) == 0 || stack[len(stack)-1] != open {
					return fmt.Errorf("line %d: %q closes nothing open", n, c)
				}
				stack = stack[:len(stack)-1]
			case c == '\\' && strings.TrimSpace(line[pos+1:]) == "":
				continued = true
				pos = len(line)
				continue
			}
			logical.WriteByte(c)
			pos++
		}
		if triple != "" || len(stack) > 0 || continued {
			logical.WriteByte(' ')
			continue
		}
		stmt := strings.TrimSpace(logical.String())
		opened = strings.HasSuffix(stmt, ":")
		first := strings.FieldsFunc(stmt, func(r rune) bool { return r == ' ' || r == ':' || r == '(' })
		compound := len(first) > 0 && strings.Contains(" def class if elif else for while with try except finally ", " "+first[0]+" ")
		if compound != opened {
			return fmt.Errorf("line %d: %q: a compound statement ends in ':', and only one does", startLine, stmt)
		}
	}
	switch {
	case triple != "":
		return fmt.Errorf("an unterminated %s string", triple)
	case len(stack) > 0:
		return fmt.Errorf("%d brackets left open", len(stack))
	case opened:
		return fmt.Errorf("the program ends after a line ending in ':'")
	}
	return nil
}

// TestCheckPythonCatchesBrokenPrograms: the checker is only worth what it
// refuses.
func TestCheckPythonCatchesBrokenPrograms(t *testing.T) {
	good := "import os\n\n\nclass A(object):\n    \"\"\"Doc\n    more.\"\"\"\n\n    def f(self, x):\n        if x:\n            return {\"a\": [1, (2, 3)]}  # (\n        return x \\\n            + 1\n\n\nprint(A().f(\"#\"))\n"
	if err := checkPython(good); err != nil {
		t.Fatalf("a good program refused: %v", err)
	}
	for name, bad := range map[string]string{
		"missing colon":     "def f(x)\n    return x\n",
		"colon on a call":   "print(1):\n",
		"no block":          "if x:\nprint(1)\n",
		"deep block":        "if x:\n        print(1)\n",
		"stray indent":      "x = 1\n    y = 2\n",
		"bad dedent":        "if x:\n    if y:\n        z = 1\n  w = 2\n",
		"open call":         "print(1, (2)\n",
		"wrong close":       "x = [1, 2)\n",
		"open string":       "x = \"abc\n",
		"open triple":       "x = \"\"\"abc\n",
		"tab":               "if x:\n\ty = 1\n",
		"indent of 2":       "if x:\n  y = 1\n",
		"ends after colon":  "def f():\n",
		"close nothing":     "x = 1)\n",
		"compound no colon": "for x in y\n    pass\n",
	} {
		if err := checkPython(bad); err == nil {
			t.Errorf("%s: accepted:\n%s", name, bad)
		}
	}
}

// checkSQL checks a Flink SQL script's structure: quotes and backquotes
// close, parentheses balance within each statement, and every statement
// ends with ';'.
func checkSQL(src string) error {
	depth, stmt := 0, ""
	for n, line := range strings.Split(src, "\n") {
		from := 0 // where the text of an unfinished statement starts on this line
		end := len(line)
	scan:
		for i := 0; i < len(line); i++ {
			switch c := line[i]; c {
			case '\'', '`':
				close := strings.IndexByte(line[i+1:], c)
				if close < 0 {
					return fmt.Errorf("line %d: unterminated %c", n+1, c)
				}
				i += close + 1
			case '-':
				if strings.HasPrefix(line[i:], "--") {
					end = i
					break scan
				}
			case '(':
				depth++
			case ')':
				if depth--; depth < 0 {
					return fmt.Errorf("line %d: ')' closes nothing", n+1)
				}
			case ';':
				if depth != 0 {
					return fmt.Errorf("line %d: a statement ends with %d parentheses open", n+1, depth)
				}
				stmt, from = "", i+1
			}
		}
		if from < end {
			stmt += strings.TrimSpace(line[from:end])
		}
	}
	if strings.TrimSpace(stmt) != "" {
		return fmt.Errorf("the last statement has no ';': %q", stmt)
	}
	return nil
}

func TestCheckSQLCatchesBrokenScripts(t *testing.T) {
	if err := checkSQL("SET 'a' = 'b';\nCREATE TABLE `t` (\n  `x` INT -- c\n) WITH ('k' = 'v');\n"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"SET 'a' = 'b'\n", "SELECT (1;\n", "SELECT 'a;\n", "SELECT 1);\n", "SELECT `a;\n"} {
		if checkSQL(bad) == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestExportedProgramsAreWellFormed checks every exported program of every
// test script: the Python ones with checkPython, the SQL with checkSQL,
// the compose file as YAML with its three services. This runs everywhere;
// TestExportedPythonCompiles adds Python's own parser where there is one.
func TestExportedProgramsAreWellFormed(t *testing.T) {
	for _, name := range scriptNames(t) {
		p := loadScript(t, name)
		for _, target := range Targets {
			files, err := Files(p, target)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				var err error
				switch {
				case strings.HasSuffix(f.Name, ".py"):
					err = checkPython(string(f.Data))
				case strings.HasSuffix(f.Name, ".sql"):
					err = checkSQL(string(f.Data))
				case f.Name == ComposeFile:
					err = checkCompose(f.Data)
				}
				if err != nil {
					t.Errorf("%s --to %s: %s: %v", name, target, f.Name, err)
				}
			}
		}
	}
}

// checkCompose parses the compose file and checks its cluster: a job
// manager and two task managers from one image built on FlinkImage, each
// with the export directory mounted.
func checkCompose(data []byte) error {
	var doc struct {
		Services map[string]struct {
			Image   string   `yaml:"image"`
			Command string   `yaml:"command"`
			Volumes []string `yaml:"volumes"`
			Build   struct {
				Dockerfile string `yaml:"dockerfile_inline"`
			} `yaml:"build"`
			Environment map[string]string `yaml:"environment"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	want := map[string]string{"jobmanager": "jobmanager", "taskmanager-1": "taskmanager", "taskmanager-2": "taskmanager"}
	if len(doc.Services) != len(want) {
		return fmt.Errorf("services %v, want %v", doc.Services, want)
	}
	for name, cmd := range want {
		s, ok := doc.Services[name]
		switch {
		case !ok:
			return fmt.Errorf("no service %s", name)
		case s.Command != cmd:
			return fmt.Errorf("%s: command %q, want %q", name, s.Command, cmd)
		case !strings.HasPrefix(s.Build.Dockerfile, "FROM "+FlinkImage+"\n"):
			return fmt.Errorf("%s: not built on %s", name, FlinkImage)
		case len(s.Volumes) != 1 || s.Volumes[0] != "./:/opt/streamlab":
			return fmt.Errorf("%s: volumes %v", name, s.Volumes)
		case !strings.Contains(s.Environment["FLINK_PROPERTIES"], "jobmanager.rpc.address: jobmanager"):
			return fmt.Errorf("%s: FLINK_PROPERTIES %q", name, s.Environment["FLINK_PROPERTIES"])
		}
	}
	return nil
}

// TestExportedPythonCompiles runs Python's own parser over the exported
// programs when python3 is installed; TestExportedProgramsAreWellFormed
// checks the same programs everywhere.
func TestExportedPythonCompiles(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3; TestExportedProgramsAreWellFormed checks the programs' structure")
	}
	dir := t.TempDir()
	var paths []string
	for _, name := range scriptNames(t) {
		p := loadScript(t, name)
		for _, target := range []string{PyFlink, PySpark} {
			files, _ := Files(p, target)
			path := filepath.Join(dir, strings.TrimSuffix(name, ".lab")+"-"+files[0].Name)
			if err := os.WriteFile(path, files[0].Data, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, path)
		}
	}
	prog := "import ast, sys\nfor p in sys.argv[1:]:\n    ast.parse(open(p).read(), p)\n"
	out, err := exec.Command(py, append([]string{"-c", prog}, paths...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python3 refuses an exported program: %v\n%s", err, out)
	}
}
