package lab

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
	"github.com/streamlab/streamlab/engine/script"
)

// Setting is one key that `set` understands: the one place its values
// are declared, which `set`, the pickers, completion, the command line's
// configuration and the README's tables all read.
type Setting struct {
	Key string
	// Values is what it takes, for help and errors; left empty, it is the
	// choices joined by " | ".
	Values string
	Doc    string
	// Choices are its named values, in the order they are offered, each
	// with what it means in a few words; a value may carry parameters
	// ("bloom n=10000 p=0.01"). None for a number, a duration or a text.
	Choices []Choice
	apply   func(s *Session, c script.Command, v script.Arg) error
}

// Choice is one named value of a setting.
type Choice struct{ Value, Doc string }

// Settings lists the keys `set` understands, in the order help shows them.
func Settings() []Setting { return settings }

// LookupSetting returns the setting named key.
func LookupSetting(key string) (Setting, bool) {
	i := slices.IndexFunc(settings, func(st Setting) bool { return st.Key == key })
	if i < 0 {
		return Setting{}, false
	}
	return settings[i], true
}

// Choices lists the words that may follow `set key`: each choice's first
// word, once, in order (nil for a key without named values).
func Choices(key string) []string {
	st, _ := LookupSetting(key)
	var out []string
	for _, c := range st.Choices {
		if w, _, _ := strings.Cut(c.Value, " "); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// The values of a setting that has choices and no parameters are its
// choices.
func init() {
	for i, st := range settings {
		if st.Values == "" {
			settings[i].Values = strings.Join(Choices(st.Key), " | ")
		}
	}
}

var settings = []Setting{
	{Key: "seed", Values: "N", Doc: "the seed of the source and the scheduler", apply: func(s *Session, c script.Command, v script.Arg) error {
		n, err := ParseSeed(v.Text)
		if err != nil {
			return err
		}
		if s.opts.Seed == nil {
			s.cfg.Seed = n
		}
		return nil
	}},
	{Key: "mode", Doc: "the output mode (Spark's rules apply)", Choices: []Choice{
		{string(engine.ModeAppend), "only new rows, each once"},
		{string(engine.ModeUpdate), "rows that changed"},
		{string(engine.ModeComplete), "the whole result every trigger"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		m := engine.Mode(v.Text)
		if !slices.Contains(engine.Modes, m) {
			return fmt.Errorf("unknown output mode %q; expected append, update or complete", v.Text)
		}
		s.cfg.Mode = m
		return nil
	}},
	{Key: "sink", Doc: "an append-only log, or a SQLite table updated in place", Choices: []Choice{
		{string(engine.SinkLog), "append-only lines"},
		{string(engine.SinkTable), "SQLite table updated in place"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		sink := engine.SinkKind(v.Text)
		if sink != engine.SinkLog && sink != engine.SinkTable {
			return fmt.Errorf("unknown sink %q; expected log or table", v.Text)
		}
		s.cfg.Sink = sink
		return nil
	}},
	{Key: "executor", Doc: "what runs the nodes", Choices: []Choice{
		{string(engine.ExecDeterministic), "one node at a time in a seeded order: reproducible"},
		{string(engine.ExecConcurrent), "a goroutine per node, for throughput"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		exec := engine.Executor(v.Text)
		if exec != engine.ExecDeterministic && exec != engine.ExecConcurrent {
			return fmt.Errorf("unknown executor %q; expected deterministic or concurrent", v.Text)
		}
		s.cfg.Executor = exec
		return nil
	}},
	{Key: "semantics", Doc: "the guarantee asked for", Choices: []Choice{
		{string(engine.AtMostOnce), "gap recovery: may lose"},
		{string(engine.AtLeastOnce), "rollback recovery: may duplicate"},
		{string(engine.ExactlyOnce), "precise recovery"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		return oneOf(&s.cfg.Semantics, v.Text, "semantics", engine.AtMostOnce, engine.AtLeastOnce, engine.ExactlyOnce)
	}},
	{Key: "ha", Doc: "the mechanism (default: the semantics' own)", Choices: []Choice{
		{string(engine.HANone), "amnesia: state is lost"},
		{string(engine.HAUpstreamBackup), "upstream replays its buffer"},
		{string(engine.HAPassiveStandby), "checkpoints, restore on failure"},
		{string(engine.HAActiveStandby), "a twin processes everything"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		return oneOf(&s.cfg.HA, v.Text, "ha", engine.HANone, engine.HAUpstreamBackup, engine.HAPassiveStandby, engine.HAActiveStandby)
	}},
	{Key: "restart", Values: "none | fixed-delay | failure-rate | exponential-delay [name=value ...]", Doc: "the restart strategy, with Flink's parameters (unset: none without checkpoints, exponential-delay with them, as Flink 2.3)", Choices: []Choice{
		{string(restart.None), "the first failure fails the job"},
		{string(restart.FixedDelay), "a fixed wait, a number of attempts"},
		{string(restart.FailureRate), "at most so many failures in an interval"},
		{string(restart.Exponential), "waits that grow after each failure"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		params := map[string]string{}
		for _, p := range c.Params {
			params[p.Name] = p.Value
		}
		st, err := restart.Parse(restart.Kind(v.Text), params)
		if err != nil {
			return err
		}
		s.cfg.Restart = st
		return nil
	}},
	{Key: "filter", Values: "none | exact | bloom n=N p=P | bloom m=M k=K | rotating n=N p=P", Doc: "the membership filter of a dedup stage before the sink", Choices: []Choice{
		{filter.KindNone, "no dedup stage"},
		{filter.KindExact, "an exact set of ids"},
		{filter.KindBloom + " n=10000 p=0.01", "Bloom filter, 1% false positives"},
		{filter.KindBloom + " n=10000 p=0.001", "Bloom filter, 0.1% false positives"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		params := map[string]string{}
		for _, p := range c.Params {
			params[p.Name] = p.Value
		}
		words := []string{v.Text}
		for _, a := range c.Args[2:] {
			words = append(words, a.Text)
		}
		spec, err := filter.ParseSpec(words, params)
		if err != nil {
			return err
		}
		s.cfg.Filter = spec
		if err := engine.CheckFilterBudget(s.cfg); err != nil {
			return errors.New(engine.ConfigReason(err))
		}
		return nil
	}},
	{Key: "deployment", Values: "standalone | managed [provision=DURATION]", Doc: "who replaces a lost task manager (kill): nobody on a standalone cluster (restart NODE starts one), a resource manager after provision (5s) when managed", Choices: []Choice{
		{string(engine.DeployStandalone), "nobody replaces a lost task manager"},
		{string(engine.DeployManaged), "a resource manager provisions a new one"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		if err := oneOf(&s.cfg.Deployment, v.Text, "deployment", engine.DeployStandalone, engine.DeployManaged); err != nil {
			return err
		}
		for _, p := range c.Params {
			d, err := time.ParseDuration(p.Value)
			if p.Name != "provision" || s.cfg.Deployment != engine.DeployManaged {
				return fmt.Errorf("deployment %s takes no parameter %q (managed takes provision=DURATION)", v.Text, p.Name)
			}
			if err != nil || d < 0 {
				return fmt.Errorf("provision must be a duration such as 5s, got %q", p.Value)
			}
			s.cfg.Provision = d
		}
		return nil
	}},
	{Key: "slot.request.timeout", Values: "DURATION", Doc: "how long a restarted task waits for a slot before the request fails with NoResourceAvailableException, a failure the restart strategy counts (Flink's default: 5m)", apply: func(s *Session, c script.Command, v script.Arg) error {
		d, err := time.ParseDuration(v.Text)
		if err != nil || d < time.Millisecond {
			return fmt.Errorf("slot.request.timeout must be a duration of at least 1ms such as 5m, got %q", v.Text)
		}
		s.cfg.SlotRequestTimeout = d
		return nil
	}},
	{Key: "jobmanager.ha", Values: "none | standby [lease=DURATION]", Doc: "the job manager's high availability: none (Flink's default: the job fails with its job manager) or standby (a new leader restarts the job after the lease, 15s by default)", Choices: []Choice{
		{string(engine.JobManagerHANone), "the job fails with its job manager"},
		{string(engine.JobManagerHAStandby), "a standby leads once the lease runs out"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		if err := oneOf(&s.cfg.JobManagerHA, v.Text, "jobmanager.ha", engine.JobManagerHANone, engine.JobManagerHAStandby); err != nil {
			return err
		}
		s.cfg.Lease = engine.DefaultLease
		for _, p := range c.Params {
			if p.Name != "lease" || s.cfg.JobManagerHA != engine.JobManagerHAStandby {
				return fmt.Errorf("jobmanager.ha %s takes no parameter %q (standby takes lease=DURATION)", v.Text, p.Name)
			}
			d, err := time.ParseDuration(p.Value)
			if err != nil || d < time.Millisecond {
				return fmt.Errorf("lease must be a duration of at least 1ms such as 15s, got %q", p.Value)
			}
			s.cfg.Lease = d
		}
		return nil
	}},
	{Key: "checkpoint.interval", Values: "N", Doc: "records between checkpoint barriers", apply: func(s *Session, c script.Command, v script.Arg) error {
		n, ok := intArg(v, 1, 100_000_000)
		if !ok {
			return fmt.Errorf("checkpoint.interval must be a record count from 1, got %q", v.Text)
		}
		s.cfg.CheckpointInterval = n
		return nil
	}},
	{Key: "sink.commit", Doc: "how an exactly-once table sink commits", Choices: []Choice{
		{string(engine.CommitTransactional), "a checkpoint's rows commit in one transaction"},
		{string(engine.CommitIdempotent), "rows are written at once, without a transaction"},
	}, apply: func(s *Session, c script.Command, v script.Arg) error {
		return oneOf(&s.cfg.SinkCommit, v.Text, "sink.commit", engine.CommitTransactional, engine.CommitIdempotent)
	}},
	{Key: "source.rate", Values: "N", Doc: "records per virtual second", apply: sourceInt(func(src *jobspec.Source, n int64) { src.Rate = int(n) }, 1, 1_000_000)},
	{Key: "source.devices", Values: "N", Doc: "devices emitting events", apply: sourceInt(func(src *jobspec.Source, n int64) { src.Devices = int(n) }, 1, 1_000_000)},
	{Key: "source.disorder", Values: "DURATION", Doc: "how far an ordinary event's time may trail its arrival", apply: sourceDuration(func(src *jobspec.Source, d time.Duration) { src.Disorder = d }, false)},
	{Key: "source.late", Values: "FRACTION", Doc: "the fraction of events that arrive late (0 to 1)", apply: func(s *Session, c script.Command, v script.Arg) error {
		f, err := strconv.ParseFloat(v.Text, 64)
		if err != nil || f < 0 || f > 1 {
			return fmt.Errorf("source.late must be a fraction between 0 and 1, got %q", v.Text)
		}
		s.spec.Source.LateFraction = f
		return nil
	}},
	{Key: "source.late_by", Values: "DURATION", Doc: "how much later than the disorder a late event may be", apply: sourceDuration(func(src *jobspec.Source, d time.Duration) { src.LateBy = d }, false)},
	{Key: "source.watermark", Values: "DURATION | none", Doc: "the bounded out-of-orderness the watermark allows", apply: sourceDuration(func(src *jobspec.Source, d time.Duration) { src.Watermark = d }, true)},
	{Key: "source.trigger", Values: "DURATION", Doc: "the processing-time trigger interval", apply: func(s *Session, c script.Command, v script.Arg) error {
		d, ok := durationArg(v, false)
		if !ok || d <= 0 {
			return fmt.Errorf("source.trigger must be a positive duration such as 1s, got %q", v.Text)
		}
		s.spec.Source.Trigger = d
		return nil
	}},
	{Key: "source.actions", Values: "A,B,...", Doc: "the actions events carry", apply: func(s *Session, c script.Command, v script.Arg) error {
		var actions []string
		for _, a := range strings.Split(v.Text, ",") {
			if a == "" {
				return fmt.Errorf("source.actions must be a comma-separated list of names, got %q", v.Text)
			}
			actions = append(actions, a)
		}
		s.spec.Source.Actions = actions
		return nil
	}},
	{Key: "window", Values: "DURATION", Doc: "the size of every event-time window (tumbling)", apply: func(s *Session, c script.Command, v script.Arg) error {
		d, ok := durationArg(v, false)
		if !ok || d <= 0 {
			return fmt.Errorf("window must be a positive duration such as 10s, got %q", v.Text)
		}
		return s.eachWindow(func(op *jobspec.Operator) { op.Window, op.Slide = d, d })
	}},
	{Key: "window.slide", Values: "DURATION", Doc: "how far sliding windows move (at most the window size)", apply: func(s *Session, c script.Command, v script.Arg) error {
		d, ok := durationArg(v, false)
		if !ok || d <= 0 {
			return fmt.Errorf("window.slide must be a positive duration such as 5s, got %q", v.Text)
		}
		return s.eachWindow(func(op *jobspec.Operator) { op.Slide = d })
	}},
}

// ParseSeed parses a seed as every place that takes one must: `set seed`,
// the --seed flag, STREAMLAB_SEED and the configuration file. A seed is a
// decimal whole number; 0x10 or 010 would read differently to different
// people, so neither is taken.
func ParseSeed(text string) (int64, error) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed must be a whole number such as 7 (decimal, at most 19 digits), got %q", text)
	}
	return n, nil
}

func (s *Session) eachWindow(f func(op *jobspec.Operator)) error {
	found := false
	for i := range s.spec.Operators {
		if s.spec.Operators[i].Kind == jobspec.KindWindowCount {
			f(&s.spec.Operators[i])
			found = true
		}
	}
	if !found {
		return fmt.Errorf("job %q has no windows", s.spec.Name)
	}
	return nil
}

func sourceInt(f func(*jobspec.Source, int64), lo, hi int64) func(*Session, script.Command, script.Arg) error {
	return func(s *Session, c script.Command, v script.Arg) error {
		n, ok := intArg(v, lo, hi)
		if !ok {
			return fmt.Errorf("expected an integer from %d to %d, got %q", lo, hi, v.Text)
		}
		f(&s.spec.Source, n)
		return nil
	}
}

func sourceDuration(f func(*jobspec.Source, time.Duration), allowNone bool) func(*Session, script.Command, script.Arg) error {
	return func(s *Session, c script.Command, v script.Arg) error {
		d, ok := durationArg(v, allowNone)
		if !ok {
			want := "a duration such as 2s or 0s"
			if allowNone {
				want += ", or none"
			}
			return fmt.Errorf("expected %s, got %q", want, v.Text)
		}
		f(&s.spec.Source, d)
		return nil
	}
}

// set applies one `set KEY VALUE` line.
func (s *Session) set(c script.Command) error {
	if len(c.Args) < 2 {
		return s.errAt(c.Line, c.Col, "set needs a key and a value, e.g. \"set mode update\"")
	}
	key, val := c.Args[0], c.Args[1]
	i := slices.IndexFunc(settings, func(st Setting) bool { return st.Key == key.Text })
	if i < 0 {
		keys := make([]string, len(settings))
		for j, st := range settings {
			keys[j] = st.Key
		}
		return s.errAt(key.Line, key.Col, "unknown setting %q; expected one of %s", key.Text, strings.Join(keys, ", "))
	}
	if err := s.configurable(c, "set "+key.Text); err != nil {
		return err
	}
	if len(c.Args) > 2 || len(c.Params) > 0 {
		at := script.Arg{Line: c.Line, Col: c.Col}
		if len(c.Args) > 2 {
			at = c.Args[2]
		} else {
			at.Line, at.Col = c.Params[0].Line, c.Params[0].Col
		}
		if len(c.Args) > 2 || !slices.Contains([]string{"restart", "filter", "deployment", "jobmanager.ha"}, key.Text) {
			return s.errAt(at.Line, at.Col, "set %s takes one value (%s)", key.Text, settings[i].Values)
		}
	}
	spec, cfg := s.spec, s.cfg
	err := settings[i].apply(s, c, val)
	if err == nil {
		err = s.spec.Validate()
	}
	if err != nil {
		s.spec, s.cfg = spec, cfg
		return s.errAt(val.Line, val.Col, "%v", err)
	}
	if err := s.checkMode(val.Line, val.Col); err != nil {
		s.spec, s.cfg = spec, cfg
		return err
	}
	s.sets = append(s.sets, c)
	return nil
}

// oneOf sets *dst to v when v is one of the allowed values: the one place
// a setting's text becomes the engine's typed value.
func oneOf[T ~string](dst *T, v, what string, allowed ...T) error {
	if !slices.Contains(allowed, T(v)) {
		words := make([]string, len(allowed))
		for i, a := range allowed {
			words[i] = string(a)
		}
		return fmt.Errorf("unknown %s %q; expected one of %s", what, v, strings.Join(words, ", "))
	}
	*dst = T(v)
	return nil
}
