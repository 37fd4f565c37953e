package bridge

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// sessionFile names the session in the engine's error messages when it
// has no directory of its own (the sandbox).
const sessionFile = "lab"

// file is the session's script name: job files a line names resolve
// relative to its directory (a lesson's workspace).
func (b *Bridge) file() string {
	if b.dir == "" {
		return sessionFile
	}
	return filepath.Join(b.dir, sessionFile+".lab")
}

// basePrelude is how every session on job starts: the job and the seed
// (and the executor when it is not the default), so a saved script
// reproduces the run whatever the reader's configuration.
func (b *Bridge) basePrelude(job string) []string {
	lines := []string{"job " + job, fmt.Sprintf("set seed %d", b.seed)}
	if b.opts.Executor != "" && b.opts.Executor != engine.ExecDeterministic {
		lines = append(lines, "set executor "+b.opts.Executor)
	}
	return lines
}

// open replaces the session with a fresh one configured by prelude. On an
// error the old session stays as it was.
func (b *Bridge) open(prelude []string) error {
	sess := lab.NewSession(b.file(), lab.Options{DBPath: b.opts.DB, Executor: b.opts.Executor, MemoryBudget: b.opts.MemoryBudget})
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
	b.sess, b.gen = sess, b.gen+1
	b.prelude = append([]string(nil), prelude...)
	b.rec = append([]string(nil), prelude...) // a new array: old frames keep theirs
	b.settings = b.effectiveSettings(settings)
	b.lineNo = headerLines + len(prelude)
	b.preview = nil
	if b.pace.typed && b.pace.wasPaused {
		b.paused = true // a run that was playing is gone with its session
	}
	b.pace = pacer{}
	b.broken = ""
	b.probing = false // the UI picks its rows afresh in a new session
	b.dirty = true
	return nil
}

// closeSession releases the current session and its bus subscription.
func (b *Bridge) closeSession() {
	if b.sess == nil {
		return
	}
	if b.rt != nil && b.sub != nil {
		b.rt.Bus().Unsubscribe(b.sub)
	}
	b.sess.Close()
	b.sess, b.rt, b.sub = nil, nil, nil
}

// attach notices a runtime the session has just created and subscribes to
// its bus.
func (b *Bridge) attach() {
	rt := b.sess.Runtime()
	if rt == nil || rt == b.rt {
		return
	}
	b.rt = rt
	b.sub = rt.Bus().Subscribe(4096)
	b.preview = nil
	b.guarantee = rt.Report().Config.Note // nothing admitted yet: cheap
	b.note(Result{Info: fmt.Sprintf("job %s started", rt.Spec().Name)})
}

// ensureRuntime makes the session create its runtime without admitting
// anything (a report does exactly that), so the bridge can admit and step
// by itself.
func (b *Bridge) ensureRuntime() error {
	if b.rt != nil {
		return nil
	}
	if _, err := b.sess.Report(); err != nil {
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
		b.prelude = append(b.prelude, c.String())
		settings := map[string]string{}
		for k, v := range b.settings {
			settings[k] = v
		}
		noteSetting(settings, c)
		b.settings = b.effectiveSettings(settings)
		b.preview = nil
	}
	return nil
}

// record appends a line to the session's script.
func (b *Bridge) record(line string) {
	b.rec = append(b.rec, line)
	b.lineNo++
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
		"job": b.sess.Spec().Name, "mode": string(cfg.Mode), "sink": cfg.Sink,
		"executor": cfg.Executor, "seed": fmt.Sprint(cfg.Seed),
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

// previewSnapshot pictures the job as configured before it has run: the
// session has no runtime yet, so a throwaway one (log sink, no ledger)
// supplies the stages and nodes. It is cached until a setting changes.
func (b *Bridge) previewSnapshot() engine.Snapshot {
	if b.preview != nil {
		return *b.preview
	}
	cfg := b.sess.Config()
	sink := cfg.Sink
	cfg.Sink, cfg.DBPath, cfg.NoLedger = engine.SinkLog, "", true
	var s engine.Snapshot
	b.guarantee = ""
	if rt, err := engine.New(b.sess.Spec(), cfg); err == nil {
		s = rt.Snapshot()
		rt.Close()
		if _, _, note, err := engine.Guarantee(b.sess.Config(), b.sess.Spec()); err == nil {
			b.guarantee = note
		}
	} else {
		s = engine.Snapshot{Job: b.sess.Spec().Name, State: "invalid"}
	}
	s.Sink = sink
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
