package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cast"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/assets"
	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// Config is streamlab's configuration after the defaults, the configuration
// file, STREAMLAB_* environment variables and flags have been merged, in
// increasing order of precedence. Packages below main take this struct (or
// the fields they need); only main knows about viper.
type Config struct {
	// Seed seeds the source log and every random choice.
	Seed int64 `mapstructure:"seed"`
	// Format is how `streamlab run` prints its report: text or json.
	Format string `mapstructure:"format"`
	// Theme is the terminal lab's color theme: default or mono.
	Theme string `mapstructure:"theme"`
	// Mouse turns on mouse support in the terminal lab.
	Mouse bool `mapstructure:"mouse"`
	// Speed is the terminal lab's playback speed, virtual seconds per real
	// second.
	Speed float64 `mapstructure:"speed"`
	// Job is the built-in job the sandbox opens with.
	Job string `mapstructure:"job"`
	// Executor is deterministic or concurrent.
	Executor string `mapstructure:"executor"`
	// DB keeps the table sink's SQLite database at this path; empty keeps it
	// in memory.
	DB string `mapstructure:"db"`

	// The classroom server's settings (`streamlab serve`; State also for
	// `streamlab class status`). Addr is where it listens; State keeps the
	// host key and the students' files (empty: classroom/ in the learner's
	// state directory); Roster, when set, admits only its keys; MaxSessions
	// bounds the labs open at once; IdleTimeout closes a lab left without a
	// key pressed that long.
	Addr        string        `mapstructure:"addr"`
	State       string        `mapstructure:"state"`
	Roster      string        `mapstructure:"roster"`
	MaxSessions int           `mapstructure:"max-sessions"`
	IdleTimeout time.Duration `mapstructure:"idle-timeout"`

	// SeedSet reports whether the seed was given by a flag or the
	// environment. Only then does it override a lab script's `set seed`;
	// a seed in the configuration file is a default for the terminal lab.
	SeedSet bool `mapstructure:"-"`
	// File is the configuration file that was read; empty when there was none.
	File string `mapstructure:"-"`
}

// configKeys are the configuration keys, as they appear in the configuration
// file, as flag names and (upper-cased, after STREAMLAB_) in the environment.
var configKeys = []string{"seed", "format", "theme", "mouse", "speed", "job", "executor", "db",
	"addr", "state", "roster", "max-sessions", "idle-timeout"}

// envPrefix prefixes every configuration key in the environment.
const envPrefix = "STREAMLAB"

// configEnv names the environment variable that, like --config, names the
// configuration file.
const configEnv = "STREAMLAB_CONFIG"

var envKeyReplacer = strings.NewReplacer(".", "_", "-", "_")

// Allowed values of the enumerated keys.
var (
	allFormats    = []string{"text", "json", "junit", "tap", "gradescope", "classroom"}
	reportFormats = []string{"text", "json"}
	themes        = []string{"default", "mono"}
	executors     = lab.Choices("executor")
)

// envName is the environment variable that sets key.
func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(envKeyReplacer.Replace(key))
}

// defaultConfigPath is where streamlab looks for its configuration file when
// neither --config nor STREAMLAB_CONFIG names one: streamlab/config.yaml in
// the user's configuration directory ($XDG_CONFIG_HOME or ~/.config on
// Linux, ~/Library/Application Support on macOS, %AppData% on Windows).
// It is empty when there is no such directory.
func defaultConfigPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "streamlab", "config.yaml")
}

// builtinDefaults reads the embedded default configuration.
func builtinDefaults() (*viper.Viper, error) {
	d := viper.New()
	d.SetConfigType("yaml")
	if err := d.ReadConfig(bytes.NewReader(assets.DefaultConfig)); err != nil {
		return nil, fmt.Errorf("built-in default configuration: %w", err)
	}
	return d, nil
}

// defaultConfig is the built-in configuration, before any file, environment
// variable or flag; its values are the flags' defaults.
func defaultConfig() (Config, error) {
	d, err := builtinDefaults()
	if err != nil {
		return Config{}, err
	}
	var cfg Config
	if err := d.Unmarshal(&cfg); err != nil {
		return Config{}, fmt.Errorf("built-in default configuration: %w", err)
	}
	return cfg, nil
}

// loadConfig merges the built-in defaults, the configuration file, the
// environment and the flags in flags (those named like a configuration key;
// flags may be nil) into a Config, and checks every value. formats are the
// report formats the command accepts; nil accepts every format streamlab
// knows.
//
// The configuration file is path when it is not empty, else the file named by
// STREAMLAB_CONFIG, else defaultConfigPath(). A file named explicitly must
// exist; the default one may be absent. Any error is bad input: it names
// where the offending value came from.
func loadConfig(flags *pflag.FlagSet, path string, formats []string) (Config, error) {
	v := viper.New()
	d, err := builtinDefaults()
	if err != nil {
		return Config{}, err
	}
	for _, k := range d.AllKeys() {
		v.SetDefault(k, d.Get(k))
	}
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(envKeyReplacer)
	v.AutomaticEnv()
	if flags != nil {
		for _, k := range configKeys {
			if f := flags.Lookup(k); f != nil {
				if err := v.BindPFlag(k, f); err != nil {
					return Config{}, err
				}
			}
		}
	}

	explicit := path != ""
	if !explicit {
		if p := os.Getenv(configEnv); p != "" {
			path, explicit = p, true
		} else {
			path = defaultConfigPath()
		}
	}
	var file *configFile
	if path != "" {
		file, err = readConfigFile(v, path, explicit)
		if err != nil {
			return Config{}, err
		}
	}

	src := sources{v: v, flags: flags, file: file}
	if err := checkConfig(v, src); err != nil {
		return Config{}, err
	}
	var cfg Config
	if err := v.Unmarshal(&cfg); err != nil {
		return Config{}, fmt.Errorf("configuration: %w", err)
	}
	if formats == nil {
		formats = allFormats
	}
	if err := validateConfig(cfg, src, formats); err != nil {
		return Config{}, err
	}
	cfg.SeedSet = src.flagChanged("seed") || os.Getenv(envName("seed")) != ""
	if file != nil {
		cfg.File = file.path
	}
	return cfg, nil
}

// configFile is a configuration file that was read, with where each
// top-level key sits in it (YAML files only).
type configFile struct {
	path string
	pos  map[string]string // key → "line:column"
}

// at names the place of key in the file: "path:line:col" when known.
func (f *configFile) at(key string) string {
	if p, ok := f.pos[key]; ok {
		return f.path + ":" + p
	}
	return f.path
}

// maxConfigBytes bounds the configuration file: a few dozen lines in use.
const maxConfigBytes = 1 << 20

// readConfigFile reads the configuration file at path into v. A missing file
// is an error only when the user named it.
func readConfigFile(v *viper.Viper, path string, explicit bool) (*configFile, error) {
	// Not through a plain read: --config FIFO blocked the program past
	// its first SIGTERM, and /dev/zero grew without bound.
	b, err := untrusted.ReadOwn(path, maxConfigBytes)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("configuration file %s: %w", path, err)
	}
	typ := "yaml"
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".json", ".toml":
		typ = ext[1:]
	}
	v.SetConfigType(typ)
	if err := v.ReadConfig(bytes.NewReader(b)); err != nil {
		var pe viper.ConfigParseError
		if errors.As(err, &pe) {
			err = pe.Unwrap()
		}
		return nil, fmt.Errorf("configuration file %s: %w", path, err)
	}
	f := &configFile{path: path, pos: map[string]string{}}
	if typ == "yaml" {
		f.pos = keyPositions(b)
	}
	return f, nil
}

// keyPositions is where each top-level key of a YAML configuration file
// is ("line:column"), for messages. The file is one viper has read, which
// takes anchors and tags, so it is parsed as viper did, not refused as
// yamlpos.Parse would; a file whose body is not a mapping has none.
func keyPositions(b []byte) map[string]string {
	pos := map[string]string{}
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil || len(doc.Content) != 1 {
		return pos
	}
	keys := &yamlpos.Decoder{}
	for _, e := range keys.MappingAll(yamlpos.Root("configuration", doc.Content[0]), "configuration", nil) {
		pos[strings.ToLower(e.Key)] = fmt.Sprintf("%d:%d", e.KeyNode.Line, e.KeyNode.Column)
	}
	return pos
}

// sources tells where a configuration value came from, for error messages.
type sources struct {
	v     *viper.Viper
	flags *pflag.FlagSet
	file  *configFile
}

func (s sources) flagChanged(key string) bool {
	if s.flags == nil {
		return false
	}
	f := s.flags.Lookup(key)
	return f != nil && f.Changed
}

// of names the source of key's value: the flag, the environment variable,
// the file (with line and column when known) or the built-in default.
func (s sources) of(key string) string {
	switch {
	case s.flagChanged(key):
		return "--" + key
	case os.Getenv(envName(key)) != "":
		return envName(key)
	case s.file != nil && s.v.InConfig(key):
		return s.file.at(key) + ": " + key
	default:
		return "built-in default " + key
	}
}

// checkConfig rejects unknown keys in the configuration file and values of
// the wrong type, naming where each came from.
func checkConfig(v *viper.Viper, src sources) error {
	for _, k := range v.AllKeys() {
		top, _, _ := strings.Cut(k, ".")
		if !slices.Contains(configKeys, top) || top != k {
			where := "configuration"
			if src.file != nil {
				where = src.file.at(top)
			}
			known := slices.Clone(configKeys)
			slices.Sort(known)
			return fmt.Errorf("%s: unknown key %q; known keys: %s", where, k, strings.Join(known, ", "))
		}
	}
	for _, k := range configKeys {
		val := v.Get(k)
		var err error
		var want string
		switch k {
		case "seed":
			want = "a whole number"
			if f, ok := val.(float64); ok && f != math.Trunc(f) {
				err = errors.New("fraction")
			} else if text, ok := val.(string); ok {
				// The environment and a file's quoted value: the same rule as `set seed`.
				var n int64
				if n, err = lab.ParseSeed(strings.TrimSpace(text)); err == nil {
					v.Set(k, n)
				}
			} else {
				_, err = cast.ToInt64E(val)
			}
		case "speed":
			want = "a number"
			_, err = cast.ToFloat64E(val)
		case "mouse":
			want = "true or false"
			_, err = cast.ToBoolE(val)
		case "max-sessions":
			want = "a whole number"
			if f, ok := val.(float64); ok && f != math.Trunc(f) {
				err = errors.New("fraction")
			} else {
				_, err = cast.ToIntE(val)
			}
		case "idle-timeout":
			want = "a duration such as 30m"
			_, err = cast.ToDurationE(val)
		default:
			want = "a string"
			switch val.(type) {
			case map[string]any, []any:
				err = errors.New("not a scalar")
			default:
				_, err = cast.ToStringE(val)
			}
		}
		if err != nil {
			return fmt.Errorf("%s = %v: want %s", src.of(k), val, want)
		}
	}
	return nil
}

// engineExecutor is the executor setting as the engine's type: the text
// is checked against the lab's choices when the config is decoded.
func (c Config) engineExecutor() engine.Executor { return engine.Executor(c.Executor) }

// validateConfig checks the values of a decoded Config.
func validateConfig(cfg Config, src sources, formats []string) error {
	oneOf := func(key, val string, allowed []string) error {
		if slices.Contains(allowed, val) {
			return nil
		}
		return fmt.Errorf("%s = %q: want %s", src.of(key), val, orList(allowed))
	}
	if err := oneOf("format", cfg.Format, formats); err != nil {
		return err
	}
	if err := oneOf("theme", cfg.Theme, themes); err != nil {
		return err
	}
	if err := oneOf("executor", cfg.Executor, executors); err != nil {
		return err
	}
	if !(cfg.Speed > 0) || math.IsInf(cfg.Speed, 0) {
		return fmt.Errorf("%s = %v: want a number above 0", src.of("speed"), cfg.Speed)
	}
	if cfg.MaxSessions < 1 {
		return fmt.Errorf("%s = %d: want at least 1", src.of("max-sessions"), cfg.MaxSessions)
	}
	if cfg.IdleTimeout < time.Second {
		return fmt.Errorf("%s = %s: want at least 1s", src.of("idle-timeout"), cfg.IdleTimeout)
	}
	if _, ok := jobspec.Builtin(cfg.Job); !ok {
		return fmt.Errorf("%s = %q: unknown job, known: %s", src.of("job"), cfg.Job, strings.Join(jobspec.Names(), ", "))
	}
	return nil
}

// orList formats allowed values as "a, b or c".
func orList(vals []string) string {
	switch len(vals) {
	case 0:
		return ""
	case 1:
		return vals[0]
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}

// seedOverride is the seed that overrides a script's or an exercise's own:
// only one given by a flag or the environment does, so a script gives the
// same report unless asked otherwise on the command line.
func (cfg Config) seedOverride() *int64 {
	if !cfg.SeedSet {
		return nil
	}
	seed := cfg.Seed
	return &seed
}

// seedFlag is the value of every --seed flag: it takes a seed by the same
// rule as `set seed` and STREAMLAB_SEED (lab.ParseSeed), where pflag's own
// int64 would also take 0x10 and read 010 as 8.
type seedFlag struct{ n *int64 }

func (f seedFlag) String() string {
	if f.n == nil {
		return "0"
	}
	return strconv.FormatInt(*f.n, 10)
}

func (f seedFlag) Set(s string) error {
	n, err := lab.ParseSeed(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}

func (f seedFlag) Type() string { return "int64" }

// unifySeedFlags gives every command's --seed flag the one seed rule.
func unifySeedFlags(cmd *cobra.Command) {
	if f := cmd.Flags().Lookup("seed"); f != nil && f.Value.Type() == "int64" {
		n, _ := strconv.ParseInt(f.Value.String(), 10, 64)
		f.Value = seedFlag{&n}
	}
	for _, sub := range cmd.Commands() {
		unifySeedFlags(sub)
	}
}
