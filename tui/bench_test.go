package tui

import (
	"testing"
	"time"

	"github.com/streamlab/streamlab/tui/bridge"
)

// BenchmarkView draws a 200×50 lab whose panes are full: a busy job that
// has run for a while under upstream backup, events and output scrolling,
// sparklines with history, and a Bloom filter with its map of bits and a
// probed row. The goal is well under 4 ms a frame (the bridge sends at
// most 30 frames a second).
func BenchmarkView(b *testing.B) {
	s := newSession(b, "clicks", "set semantics at-least-once", "set filter bloom n=10000 p=0.01")
	m, eng := labModel(b, 200, 50, s)
	s.b.Handle(bridge.Request{Kind: bridge.SetSpeed, Speed: 8})
	m = s.run(m, 6*time.Second)
	m, _ = press(b, m, "right", "right")
	m.setFocus(PaneFilter)
	m, _ = press(b, m, "up")
	s.forward(eng)
	m = s.run(m, 100*time.Millisecond)
	if len(m.filter.Probe()) == 0 {
		b.Fatal("no probe to draw")
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkFrame measures taking one frame in (the panes' bookkeeping).
func BenchmarkFrame(b *testing.B) {
	s := newSession(b, "clicks")
	m, _ := labModel(b, 200, 50, s)
	m = s.run(m, 3*time.Second)
	f := s.b.Frame()
	b.ReportAllocs()
	for b.Loop() {
		f.Seq++
		m.applyFrame(f)
	}
}

// BenchmarkLessonView draws lesson 4's screen at 120×40 mid-way, the
// lesson pane beside the lab, its text in a viewport.
func BenchmarkLessonView(b *testing.B) {
	m, eng, s := lessonModel(b, "4", 120, 40)
	m = lines(b, m, eng, s, "job clicks", "set semantics at-least-once", "kill count[1] at 1200", "run 3000")
	m, _ = press(b, m, "h")
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
