package bridge

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// subscriptionSize is how many of the engine's events the bridge's
// subscription holds between two frames.
const subscriptionSize = 4096

// sessionFile names the session in the engine's error messages when it
// has no directory of its own (the sandbox).
const sessionFile = "lab"

// place is where a session runs: its seed, and the directory its script
// lives in (a lesson's or an exercise's workspace; none in the sandbox).
type place struct {
	seed int64
	dir  string
}

// file is the session's script name: job files a line names resolve
// relative to its directory (a lesson's workspace).
func (p place) file() string {
	if p.dir == "" {
		return sessionFile
	}
	return filepath.Join(p.dir, sessionFile+".lab")
}

// prelude is how every session on job starts: the job and the seed (and
// the executor when it is not the default), so a saved script reproduces
// the run whatever the reader's configuration.
func (p place) prelude(job string, executor engine.Executor) []string {
	lines := []string{"job " + job, fmt.Sprintf("set seed %d", p.seed)}
	if executor != "" && executor != engine.ExecDeterministic {
		lines = append(lines, "set executor "+string(executor))
	}
	return lines
}

// file is the current session's script name.
func (b *Bridge) file() string { return b.place.file() }

// basePrelude is how a session on job starts in the current place.
func (b *Bridge) basePrelude(job string) []string { return b.place.prelude(job, b.opts.Executor) }

// open replaces the session with a fresh one configured by prelude. On an
// error the old session stays as it was.
func (b *Bridge) open(prelude []string) error {
	sess := lab.NewSession(b.file(), lab.Options{DBPath: b.opts.DB, Executor: b.opts.Executor, MemoryBudget: b.opts.MemoryBudget})
	// Subscribed before anything runs: the events of whichever command
	// starts the job (a run at ×max, a scenario's, a kill) are heard too.
	sub := sess.Subscribe(subscriptionSize)
	settings := map[string]string{}
	for i, line := range prelude {
		c, err := script.ParseLine(b.file(), i+1, line)
		if err == nil {
			err = sess.Exec(b.runContext(), c)
		}
		if err != nil {
			sess.Close()
			return err
		}
		noteSetting(settings, c)
	}
	b.closeSession()
	b.sess, b.sub, b.gen = sess, sub, b.gen+1
	b.rec.begin(prelude, b.effectiveSettings(settings))
	b.preview = nil
	b.pace.newSession()
	b.broken = ""
	b.probe.on = false // the UI picks its rows afresh in a new session
	b.dirty = true
	return nil
}

// closeSession releases the current session and its bus subscription.
func (b *Bridge) closeSession() {
	if b.sess == nil {
		return
	}
	if b.sub != nil {
		b.sess.Unsubscribe(b.sub)
	}
	b.sess.Close()
	b.sess, b.job, b.sub = nil, nil, nil
}

// attach notices a runtime the session has just created (its events
// already come through the subscription open took).
func (b *Bridge) attach() {
	if b.job != nil || !b.sess.Started() {
		return
	}
	b.job = b.sess.Running()
	b.preview = nil
	if rep, err := b.sess.Report(); err == nil { // nothing admitted yet: cheap
		b.guarantee = rep.Config.Note
	}
	b.note(Result{Info: fmt.Sprintf("job %s started", b.job.Spec().Name)})
}

// ensureRuntime makes the session create its runtime without admitting
// anything (a report does exactly that), so the bridge can admit and step
// by itself.
func (b *Bridge) ensureRuntime() error {
	if b.job != nil {
		return nil
	}
	if err := b.sess.Start(); err != nil {
		return err
	}
	b.attach()
	return nil
}

// exec runs one parsed command on the session and records it when it
// succeeds. A failing line is not recorded: the saved script must replay.
func (b *Bridge) exec(c script.Command) error {
	if err := b.sess.Exec(b.runContext(), c); err != nil {
		return err
	}
	b.attach()
	b.record(c.String())
	switch c.Verb {
	case script.VerbSet, script.VerbJob:
		settings := maps.Clone(b.rec.settings)
		noteSetting(settings, c)
		b.rec.configured(c.String(), b.effectiveSettings(settings))
		b.preview = nil
	}
	return nil
}

// record appends a line to the session's script.
func (b *Bridge) record(line string) {
	b.rec.add(line)
	b.dirty = true
}

// noteSetting remembers what a job or set line chose.
func noteSetting(m map[string]string, c script.Command) {
	switch c.Verb {
	case script.VerbJob:
		m["job"] = c.Args[0].Text
	case script.VerbSet:
		rest := strings.TrimSpace(strings.TrimPrefix(c.String(), "set "+c.Args[0].Text))
		m[c.Args[0].Text] = rest
	}
}

// effectiveSettings completes what was set with the session's defaults.
func (b *Bridge) effectiveSettings(set map[string]string) map[string]string {
	cfg := b.sess.Config()
	out := map[string]string{
		"job": b.sess.Spec().Name, "mode": string(cfg.Mode), "sink": string(cfg.Sink),
		"executor": string(cfg.Executor), "seed": fmt.Sprint(cfg.Seed),
		"semantics": "at-most-once", "ha": "none", "filter": "none", "restart": "none",
	}
	for k, v := range set {
		switch k {
		case "job", "mode", "sink", "executor", "seed": // the session's own word wins
		default:
			out[k] = v
		}
	}
	return out
}

// previewSnapshot pictures the job as configured before it has run
// (lab.Session.Preview), with the sink the settings name. It is cached
// until a setting changes.
func (b *Bridge) previewSnapshot() engine.Snapshot {
	if b.preview != nil {
		return *b.preview
	}
	var s engine.Snapshot
	b.guarantee = ""
	if snap, ok := b.sess.Preview(); ok {
		s = snap
		if _, _, note, err := engine.Guarantee(b.sess.Config(), b.sess.Spec()); err == nil {
			b.guarantee = note
		}
	} else {
		s = engine.Snapshot{Job: b.sess.Spec().Name, State: "invalid"}
	}
	s.Sink = b.sess.Config().Sink
	s.Rows = nil
	b.preview = &s
	return s
}

// runContext is the context engine runs use: with a Yield hook, one
// that calls it each time the engine looks at it.
func (b *Bridge) runContext() context.Context {
	if b.opts.Yield == nil {
		return b.ctx
	}
	return yieldingContext{b.ctx, b.opts.Yield}
}

// yieldingContext calls yield whenever its Err is read, which a run does
// every few thousand scheduler steps: a server makes long runs take turns
// there. Only the pacing changes, never what the run does.
type yieldingContext struct {
	context.Context
	yield func()
}

func (c yieldingContext) Err() error {
	c.yield()
	return c.Context.Err()
}
