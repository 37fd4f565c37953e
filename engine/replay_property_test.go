package engine_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// replayFile is a replayed source: its events, one JSON line each.
type replayFile struct {
	lines []string
	// repeats says some ids occur more than once.
	repeats bool
}

func (f replayFile) write(t fataler, dir string) string {
	path := filepath.Join(dir, fmt.Sprintf("replay%d.jsonl", dbCount.Add(1)))
	body := strings.Join(f.lines, "\n")
	if len(f.lines) > 0 {
		body += "\n"
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// drawReplay draws a file to replay instead of the generated log: empty,
// or up to 400 events arriving at the source's rate, their times behind
// their arrival by up to a minute (disordered, some late), a few at the
// ends of the event-time range, and, where allowed, ids that repeat.
func drawReplay(t *rapid.T, spec jobspec.Spec, repeatIDs bool) replayFile {
	n := rapid.SampledFrom([]int{0, 1, 7, 120, 400}).Draw(t, "file events")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "file seed"), 0))
	disorder := rapid.Int64Range(0, 60_000).Draw(t, "file disorder")
	extremes := rapid.SampledFrom([]int{0, 0, 50}).Draw(t, "extremes in 1000")
	ids := uint64(0)
	if repeatIDs && rapid.Bool().Draw(t, "repeat ids") {
		ids = uint64(rapid.IntRange(1, 20).Draw(t, "distinct ids"))
	}
	var f replayFile
	seen := map[uint64]bool{}
	base := spec.Source.Start.UnixMilli()
	for i := range n {
		tm := base + int64(i)*1000/int64(spec.Source.Rate) - rng.Int64N(disorder+1)
		if rng.IntN(1000) < extremes {
			tm = []int64{jobspec.MinEventTime, jobspec.MaxEventTime}[rng.IntN(2)]
		}
		id := uint64(i) * 0x9e3779b97f4a7c15 // distinct for distinct i
		if ids > 0 {
			id = rng.Uint64N(ids)
		}
		f.repeats = f.repeats || seen[id]
		seen[id] = true
		action := spec.Source.Actions[rng.IntN(len(spec.Source.Actions))]
		f.lines = append(f.lines, fmt.Sprintf(`{"id":%d,"time":%d,"action":%q,"device":%d}`, id, tm, action, rng.IntN(3)))
	}
	return f
}

// Replayed files, drawn and from the corpus of files that once went wrong,
// run without failures on both executors: the table equals the reference
// model's from the dump, the ledger finds it correct, an empty file is a
// finished, empty stream, and a time outside the years 1 to 9999 is
// refused at its line. Ids repeat only where the table does not key
// events by id (the model writes each event; a test in engine/lab checks the
// keyed table, TestRecordsSharingAnIdAreOneRowOfAKeyedTable).
func TestReplayedFilesMatchTheModel(t *testing.T) {
	dir := t.TempDir()
	check := func(t fataler, spec jobspec.Spec, file replayFile, cfg engine.Config, sched []admission) {
		spec.Source.File = file.write(t, dir)
		m := runAgainstModel(t, dir, spec, cfg, sched)
		m.check(t, fmt.Sprintf("%d events, %s %s %+v", len(file.lines), cfg.Mode, cfg.Executor, spec.Operators))
		s := m.rep.Sink
		if !s.Correct || s.Lost != 0 || s.Duplicates != 0 || s.Pending != 0 {
			t.Fatalf("a failure-free run of %d replayed events: sink %+v", len(file.lines), s)
		}
		if len(file.lines) == 0 && (engine.JobStateOf(m.rep.Job) != engine.StateFinished || m.rep.Source.Records != 0 || s.Rows != 0) {
			t.Fatalf("an empty file: job %s, source %+v, sink %+v", m.rep.Job.State, m.rep.Source, s)
		}
		if m.rep.Source.Records == int64(len(file.lines)) && engine.JobStateOf(m.rep.Job) != engine.StateFinished {
			t.Fatalf("all %d events read, yet the job is %s", len(file.lines), m.rep.Job.State)
		}
	}

	clicks, _ := jobspec.Builtin("clicks")
	passthrough, _ := jobspec.Builtin("passthrough")
	at := func(ms int64) int64 { return clicks.Source.Start.UnixMilli() + ms }
	line := func(id, ms int64, action string) string {
		return fmt.Sprintf(`{"id":%d,"time":%d,"action":%q}`, id, ms, action)
	}
	oneID := replayFile{repeats: true}
	for i := range int64(50) {
		oneID.lines = append(oneID.lines, line(7, at(i*10), "open"))
	}
	corpus := []struct {
		name string
		spec jobspec.Spec
		file replayFile
		mode engine.Mode
	}{
		{"empty file", clicks, replayFile{}, engine.ModeUpdate},
		{"empty file, events", passthrough, replayFile{}, engine.ModeAppend},
		{"one id 50 times, appended", passthrough, oneID, engine.ModeAppend},
		{"one id 50 times, counted", clicks, oneID, engine.ModeUpdate},
		{"the ends of the time range", clicks, replayFile{lines: []string{line(1, jobspec.MinEventTime, "open"),
			line(2, at(0), "close"), line(3, jobspec.MaxEventTime, "open"), line(4, at(5), "open")}}, engine.ModeComplete},
		{"15 s behind the newest, in one batch", clicks, replayFile{lines: []string{line(1, at(0), "open"),
			line(2, at(20_000), "open"), line(3, at(5_000), "open")}}, engine.ModeAppend},
	}
	for _, c := range corpus {
		for _, exec := range []engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent} {
			t.Run(c.name+"/"+string(exec), func(t *testing.T) {
				cfg := engine.DefaultConfig()
				cfg.Seed, cfg.Mode, cfg.Executor = 3, c.mode, exec
				check(t, c.spec, c.file, cfg, []admission{{n: 30}, {n: 500}, {d: 20 * time.Second}})
			})
		}
	}
	for _, tm := range []int64{math.MaxInt64, -9223372036854775000, jobspec.MaxEventTime + 1, jobspec.MinEventTime - 1} {
		spec := clicks
		spec.Source.File = replayFile{lines: []string{line(1, at(0), "open"), line(2, tm, "open")}}.write(t, dir)
		_, err := engine.New(spec, engine.DefaultConfig())
		if !errors.Is(err, engine.ErrBadConfig) || !strings.Contains(err.Error(), ":2: time ") {
			t.Errorf("time %d: %v; want a bad-configuration error at line 2", tm, err)
		}
	}

	rapid.Check(t, func(rt *rapid.T) {
		spec := drawSpec(rt)
		drawSource(rt, &spec)
		cfg := engine.DefaultConfig()
		cfg.Seed = rapid.Int64Range(1, 1<<40).Draw(rt, "seed")
		var modes []engine.Mode
		for _, m := range engine.Modes {
			if engine.CheckMode(spec, m, true) == nil {
				modes = append(modes, m)
			}
		}
		cfg.Mode = rapid.SampledFrom(modes).Draw(rt, "mode")
		cfg.Executor = rapid.SampledFrom([]engine.Executor{engine.ExecDeterministic, engine.ExecConcurrent}).Draw(rt, "executor")
		windowed := slices.ContainsFunc(spec.Operators, func(o jobspec.Operator) bool { return o.Kind == jobspec.KindWindowCount })
		file := drawReplay(rt, spec, windowed || cfg.Mode == engine.ModeAppend)
		check(rt, spec, file, cfg, drawSchedule(rt))
	})
}
