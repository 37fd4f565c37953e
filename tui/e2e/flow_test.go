package e2e

import (
	"bytes"
	"regexp"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/streamlab/streamlab/tui"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestFlowRunThenKillThroughThePalette drives the whole program — root
// model, real bridge, real engine — as a learner would: open the sandbox
// on the passthrough job, choose at-least-once through the command palette,
// let time run until the ledger counts delivered records, then kill a node
// and watch the ledger count the duplicates its recovery replays.
// Time comes from a manual clock ticked by the test, never from sleeping.
func TestFlowRunThenKillThroughThePalette(t *testing.T) {
	tm, wait := program(t, tui.Options{Job: "passthrough", Seed: 1, Speed: 1, Theme: "default"}, 10*time.Second)
	waitFor := func(what string, re *regexp.Regexp) { t.Helper(); wait(re) }
	waitFor("the home screen", regexp.MustCompile(`Sandbox`))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // the sandbox's job list
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // passthrough, the configured job
	waitFor("the passthrough lab", regexp.MustCompile(`passthrough`))
	for _, line := range []string{"set semantics at-least-once", "set mode append"} {
		tm.Type(":" + line)
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	}
	waitFor("the semantics in the status bar", regexp.MustCompile(`at-least-once`))
	tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	waitFor("delivered records in the ledger", regexp.MustCompile(`delivered\s+[1-9][0-9.]*k?\s`))

	tm.Type(":kill map")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor("duplicates counted in the ledger", regexp.MustCompile(`duplicates\s+[1-9][0-9.]*k?\s`))

	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	final := tm.FinalModel(t).(tui.Model)
	if final.Screen() != tui.ScreenLab {
		t.Errorf("ended on screen %d", final.Screen())
	}
	if msg, _ := final.Message(); bytes.Contains([]byte(msg), []byte("panic")) {
		t.Errorf("message %q", msg)
	}
}

// TestFlowProbeABloomFilter sets a Bloom filter through the palette before
// the job starts, lets it run, and probes the newest sink row from the
// filter pane: the answer comes back from the bridge's goroutine in a
// frame, and the pane shows which bits the row's hashes chose.
func TestFlowProbeABloomFilter(t *testing.T) {
	tm, waitFor := program(t, tui.Options{Job: "passthrough", Seed: 1, Speed: 1, Theme: "default", Start: "lab:passthrough"}, 10*time.Second)
	waitFor(regexp.MustCompile(`Pipeline · passthrough`))
	tm.Type(":set filter bloom m=512 k=3")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(regexp.MustCompile(`512 bits · 3 hash functions`))
	tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	waitFor(regexp.MustCompile(`inserted\s+[1-9]`))
	for range 3 {
		tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyUp})
	waitFor(regexp.MustCompile(`hash 3 → bit\s+\d+`))

	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'q'}})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if final := tm.FinalModel(t).(tui.Model); final.Focus() != tui.PaneFilter {
		t.Errorf("ended with focus %d, want the filter pane", final.Focus())
	}
}
