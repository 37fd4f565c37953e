package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
)

// isolate keeps a test away from the user's configuration: no STREAMLAB_*
// variables, and configuration directories that are empty.
func isolate(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, envPrefix+"_") {
			t.Setenv(k, "")
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AppData", filepath.Join(home, "AppData"))
}

type result struct {
	code           int
	stdout, stderr string
}

// streamlab runs the command line with args and stdin as its input.
func streamlab(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVersion(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := streamlab(t, "", args...)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("%v: want 3 lines, got %q", args, r.stdout)
		}
		for i, key := range []string{"version", "commit", "go"} {
			f := strings.Fields(lines[i])
			if len(f) < 2 || f[0] != key {
				t.Errorf("%v: line %d = %q, want %q and a value", args, i+1, lines[i], key)
			}
		}
		if !strings.Contains(lines[2], runtime.Version()) {
			t.Errorf("%v: go line %q lacks %s", args, lines[2], runtime.Version())
		}
	}
}

func TestVersionStamped(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1.2.3", "abc1234"
	ver, com, _ := versionInfo()
	if ver != "v1.2.3" || com != "abc1234" {
		t.Errorf("versionInfo() = %q, %q; want the -X values", ver, com)
	}
}

func TestExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.lab")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string // substrings
	}{
		{"home screen without a terminal", nil, 2, []string{"needs a terminal", "streamlab run"}},
		{"lab default job without a terminal", []string{"lab"}, 2, []string{"needs a terminal"}},
		{"lab known job without a terminal", []string{"lab", "passthrough"}, 2, []string{"needs a terminal"}},
		{"lab unknown job", []string{"lab", "nosuch"}, 2, []string{`unknown job "nosuch"`, "clicks", "passthrough"}},
		{"lab two jobs", []string{"lab", "clicks", "passthrough"}, 2, []string{"streamlab lab --help"}},
		{"unknown command", []string{"frobnicate"}, 2, []string{`unknown command "frobnicate"`}},
		{"unknown flag", []string{"run", "--sed", "3"}, 2, []string{"--sed", "streamlab run --help"}},
		{"bad seed flag", []string{"run", "--seed", "x"}, 2, []string{"--seed"}},
		{"run bad format", []string{"run", "--format", "xml", "x.lab"}, 2, []string{`"xml"`, "text or json"}},
		{"run grade-only format", []string{"run", "--format", "junit", "x.lab"}, 2, []string{`"junit"`, "text or json"}},
		{"run bad executor", []string{"run", "--executor", "fast", "x.lab"}, 2, []string{"--executor", "deterministic or concurrent"}},
		{"run missing file", []string{"run", missing}, 2, []string{missing}},
		{"run directory", []string{"run", t.TempDir()}, 2, []string{"cannot read"}},
		{"run two files", []string{"run", "a.lab", "b.lab"}, 2, nil},
		{"lesson unknown", []string{"lesson", "42"}, 2, []string{`unknown lesson "42"`, "1 streams"}},
		{"lesson two ids", []string{"lesson", "1", "2"}, 2, []string{"streamlab lesson --help"}},
		{"lessons stray word", []string{"lessons", "frob"}, 2, nil},
		{"grade unknown exercise", []string{"grade", "--answers", ".", "--format", "junit", "--seed", "3", "--out", "x.xml", "e1"}, 2, []string{`no such exercise "e1"`}},
		{"exercise list", []string{"exercise", "list"}, 0, nil},
		{"exercise show unknown", []string{"exercise", "show", "e1"}, 2, []string{`no such exercise "e1"`}},
		{"exercise start unknown", []string{"exercise", "start", "e1"}, 2, []string{`no such exercise "e1"`}},
		{"exercise lint missing pack", []string{"exercise", "lint", "pack"}, 2, []string{"pack: cannot read exercise pack"}},
		{"exercise alone", []string{"exercise"}, 2, []string{"subcommand"}},
		{"exercise unknown", []string{"exercise", "frob"}, 2, nil},
		{"help", []string{"--help"}, 0, nil},
		{"run help", []string{"run", "--help"}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			r := streamlab(t, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\nstderr: %s", r.code, tt.code, r.stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q lacks %q", r.stderr, s)
				}
			}
			if tt.code == 2 && !strings.HasPrefix(r.stderr, "streamlab: ") {
				t.Errorf("stderr %q does not start with \"streamlab: \"", r.stderr)
			}
		})
	}
}

func TestHelpGoesToStdout(t *testing.T) {
	isolate(t)
	r := streamlab(t, "", "run", "--help")
	if !strings.Contains(r.stdout, "--dump-source") || r.stderr != "" {
		t.Errorf("run --help: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

func TestBadConfiguration(t *testing.T) {
	tests := []struct {
		name   string
		file   string // configuration file content ("" for none)
		env    map[string]string
		args   []string
		stderr []string
	}{
		{"malformed file", "seed: [1,\n", nil, nil, []string{"config.yaml", "yaml"}},
		{"unknown key", "seed: 2\nsede: 3\n", nil, nil, []string{"config.yaml:2:1", `unknown key "sede"`}},
		{"wrong type in file", "mouse: maybe\n", nil, nil, []string{"config.yaml:1:1", "mouse", "true or false"}},
		{"fractional seed", "seed: 1.5\n", nil, nil, []string{"seed", "whole number"}},
		{"bad theme in env", "", map[string]string{"STREAMLAB_THEME": "blue"}, nil, []string{"STREAMLAB_THEME", "default or mono"}},
		{"bad seed in env", "", map[string]string{"STREAMLAB_SEED": "abc"}, nil, []string{"STREAMLAB_SEED", "whole number"}},
		{"unknown job in env", "", map[string]string{"STREAMLAB_JOB": "nosuch"}, []string{"lab"}, []string{"STREAMLAB_JOB", "clicks"}},
		{"zero speed flag", "", nil, []string{"lab", "--speed", "0"}, []string{"--speed", "above 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			args := tt.args
			if tt.file != "" {
				args = append([]string{"--config", writeFile(t, "config.yaml", tt.file)}, args...)
			}
			r := streamlab(t, "", args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\nstderr: %s", r.code, r.stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr %q lacks %q", r.stderr, s)
				}
			}
		})
	}
}

func TestMissingConfigFile(t *testing.T) {
	isolate(t)
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	// Named explicitly, a missing file is an error …
	if r := streamlab(t, "", "--config", missing); r.code != 2 || !strings.Contains(r.stderr, missing) {
		t.Errorf("--config missing: exit %d, stderr %q; want 2 naming the file", r.code, r.stderr)
	}
	t.Setenv(configEnv, missing)
	if r := streamlab(t, ""); r.code != 2 || !strings.Contains(r.stderr, missing) {
		t.Errorf("%s missing: exit %d, stderr %q; want 2 naming the file", configEnv, r.code, r.stderr)
	}
	// … but the default location may be empty.
	t.Setenv(configEnv, "")
	// (Without a terminal the lab then declines to start, which is not
	// about configuration.)
	if r := streamlab(t, ""); strings.Contains(r.stderr, "config") || !strings.Contains(r.stderr, "needs a terminal") {
		t.Errorf("no configuration file: exit %d, stderr %q", r.code, r.stderr)
	}
}

// parseFlags returns a flag set like a command's, parsed from args.
func parseFlags(t *testing.T, args ...string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.Int64("seed", 1, "")
	fs.String("theme", "default", "")
	fs.Bool("mouse", true, "")
	fs.Float64("speed", 1, "")
	fs.String("format", "text", "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestLoadConfigDefaults(t *testing.T) {
	isolate(t)
	got, err := loadConfig(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Seed: 1, Format: "text", Theme: "default", Mouse: true, Speed: 1, Job: "clicks", Executor: "deterministic", DB: "",
		Addr: ":2222", MaxSessions: 200, IdleTimeout: 30 * time.Minute}
	if got != want {
		t.Errorf("defaults:\n got %+v\nwant %+v", got, want)
	}
}

func TestLoadConfigPrecedence(t *testing.T) {
	file := "seed: 5\ntheme: mono\nspeed: 2.5\nmouse: false\ndb: file.db\n"
	tests := []struct {
		name    string
		file    bool
		env     map[string]string
		args    []string
		want    func(*Config)
		seedSet bool
	}{
		{"defaults", false, nil, nil, func(c *Config) {}, false},
		{"file over defaults", true, nil, nil, func(c *Config) {
			c.Seed, c.Theme, c.Speed, c.Mouse, c.DB = 5, "mono", 2.5, false, "file.db"
		}, false},
		{"env over file", true, map[string]string{"STREAMLAB_SEED": "9", "STREAMLAB_MOUSE": "true", "STREAMLAB_EXECUTOR": "concurrent"}, nil, func(c *Config) {
			c.Seed, c.Theme, c.Speed, c.Mouse, c.DB, c.Executor = 9, "mono", 2.5, true, "file.db", "concurrent"
		}, true},
		{"flag over env", true, map[string]string{"STREAMLAB_SEED": "9", "STREAMLAB_THEME": "default"}, []string{"--seed", "11", "--theme", "mono", "--format", "json"}, func(c *Config) {
			c.Seed, c.Theme, c.Speed, c.Mouse, c.DB, c.Format = 11, "mono", 2.5, false, "file.db", "json"
		}, true},
		{"unset flag leaves env", false, map[string]string{"STREAMLAB_SPEED": "4"}, []string{"--seed", "3"}, func(c *Config) {
			c.Seed, c.Speed = 3, 4
		}, true},
		{"env without file", false, map[string]string{"STREAMLAB_SEED": "9", "STREAMLAB_DB": "/tmp/x.db"}, nil, func(c *Config) {
			c.Seed, c.DB = 9, "/tmp/x.db"
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			path := ""
			if tt.file {
				path = writeFile(t, "config.yaml", file)
			}
			got, err := loadConfig(parseFlags(t, tt.args...), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := defaultConfig()
			if err != nil {
				t.Fatal(err)
			}
			tt.want(&want)
			want.SeedSet, want.File = tt.seedSet, path
			if got != want {
				t.Errorf("\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestLoadConfigDefaultLocation(t *testing.T) {
	isolate(t)
	p := defaultConfigPath()
	if p == "" {
		t.Skip("no user configuration directory")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("theme: mono\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := loadConfig(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Theme != "mono" || got.File != p {
		t.Errorf("got theme %q from %q, want mono from %q", got.Theme, got.File, p)
	}
	// STREAMLAB_CONFIG names another file instead.
	other := writeFile(t, "other.json", `{"theme": "default", "seed": 4}`)
	t.Setenv(configEnv, other)
	got, err = loadConfig(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Theme != "default" || got.Seed != 4 || got.File != other || got.SeedSet {
		t.Errorf("got %+v, want theme default and seed 4 from %s, seed not set explicitly", got, other)
	}
}

// The keys in Config, configKeys and the embedded defaults must agree.
func TestConfigKeysAgree(t *testing.T) {
	var tags []string
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		if tag := typ.Field(i).Tag.Get("mapstructure"); tag != "-" {
			tags = append(tags, tag)
		}
	}
	d, err := builtinDefaults()
	if err != nil {
		t.Fatal(err)
	}
	embedded := d.AllKeys()
	keys := slices.Clone(configKeys)
	slices.Sort(tags)
	slices.Sort(embedded)
	slices.Sort(keys)
	if !slices.Equal(tags, keys) || !slices.Equal(embedded, keys) {
		t.Errorf("Config fields %v, configKeys %v, config.default.yaml %v: want the same", tags, keys, embedded)
	}
}

func TestFinishRun(t *testing.T) {
	report := func(oks ...bool) *engine.Report {
		r := &engine.Report{Job: engine.JobReport{Name: "clicks", State: "finished"}}
		for i, ok := range oks {
			r.Expectations = append(r.Expectations, engine.Expectation{Line: i + 1, Expr: "sink.lost == 0", OK: ok, Actual: "0"})
		}
		return r
	}
	tests := []struct {
		name   string
		format string
		rep    *engine.Report
		err    error
		code   int // 0: nil error
		out    string
	}{
		{"all hold", "text", report(true, true), nil, 0, "job         clicks"},
		{"no expects", "json", report(), nil, 0, `"name": "clicks"`},
		{"one fails", "text", report(true, false), nil, 1, "FAIL line 2"},
		{"bad input", "text", nil, errors.Join(lab.ErrBadInput, errors.New("x.lab:3:5: unknown verb")), 2, ""},
		{"job error", "text", nil, errors.New("engine broke"), 1, ""},
		{"job error with report", "json", report(true), errors.New("engine broke"), 1, `"state": "finished"`},
		{"no report", "text", nil, nil, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := finishRun(&out, tt.format, tt.rep, tt.err)
			code := 0
			if err != nil {
				var ee *exitError
				if !errors.As(err, &ee) {
					t.Fatalf("error %v is not an *exitError", err)
				}
				code = ee.code
			}
			if code != tt.code {
				t.Errorf("exit %d (%v), want %d", code, err, tt.code)
			}
			if !strings.Contains(out.String(), tt.out) {
				t.Errorf("output %q lacks %q", out.String(), tt.out)
			}
		})
	}
}

func TestFinishRunNamesFailedExpect(t *testing.T) {
	rep := &engine.Report{Expectations: []engine.Expectation{
		{Line: 4, Expr: "duplicates > 0", OK: true, Actual: "3"},
		{Line: 7, Expr: "sink.lost == 0", OK: false, Actual: "12"},
		{Line: 9, Expr: "correct == true", OK: false, Actual: "false"},
	}}
	err := finishRun(&bytes.Buffer{}, "text", rep, nil)
	if err == nil {
		t.Fatal("want an error")
	}
	for _, s := range []string{"line 7", "sink.lost == 0", "actual 12", "2 of 3"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
}

func TestReadScriptFromStdin(t *testing.T) {
	c := &cli{stdin: strings.NewReader("job clicks\n")}
	for _, implicit := range []bool{true, false} {
		c.stdin = strings.NewReader("job clicks\n")
		b, err := c.readScript("-", implicit)
		if err != nil || string(b) != "job clicks\n" {
			t.Errorf("readScript(-, %t) = %q, %v", implicit, b, err)
		}
	}
}

// TestRunScript runs small lab scripts through the whole command line.
func TestRunScript(t *testing.T) {
	const holds = "job clicks\nset seed 5\nrun 200\nexpect sink.lost == 0\nreport\n"
	tests := []struct {
		name     string
		script   string
		file     string // configuration file content
		env      map[string]string
		args     []string
		code     int
		seed     int64 // job.seed in the JSON report, when code is 0
		stderr   string
		readFile bool // pass the script as a file rather than on stdin
	}{
		{name: "expect holds", script: holds, code: 0, seed: 5},
		{name: "expect holds from a file", script: holds, code: 0, seed: 5, readFile: true},
		{name: "expect fails", script: "job clicks\nrun 200\nexpect sink.lost > 0\n", code: 1, stderr: "line 3"},
		{name: "unknown verb", script: "job clicks\nfrobnicate\n", code: 2, stderr: "-:2:"},
		{name: "seed flag overrides script", script: holds, args: []string{"--seed", "7"}, code: 0, seed: 7},
		{name: "seed env overrides script", script: holds, env: map[string]string{"STREAMLAB_SEED": "8"}, code: 0, seed: 8},
		{name: "seed in file does not", script: holds, file: "seed: 9\n", code: 0, seed: 5},
		{name: "format from env", script: holds, env: map[string]string{"STREAMLAB_FORMAT": "json"}, code: 0, seed: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			args := []string{"run", "--format", "json"}
			if tt.env["STREAMLAB_FORMAT"] != "" {
				args = args[:1]
			}
			if tt.file != "" {
				args = append(args, "--config", writeFile(t, "config.yaml", tt.file))
			}
			args = append(args, tt.args...)
			stdin := tt.script
			if tt.readFile {
				args, stdin = append(args, writeFile(t, "s.lab", tt.script)), ""
			}
			r := streamlab(t, stdin, args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.stderr)
			}
			if tt.code != 0 {
				return
			}
			var rep engine.Report
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("stdout is not a JSON report: %v\n%s", err, r.stdout)
			}
			if rep.Job.Seed != tt.seed {
				t.Errorf("job.seed = %d, want %d", rep.Job.Seed, tt.seed)
			}
		})
	}
}
