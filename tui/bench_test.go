package tui

import (
	"testing"
	"time"

	"github.com/streamlab/streamlab/tui/bridge"
)

// BenchmarkView draws a 200×50 lab whose panes are full: a busy job that
// has run for a while, events and output scrolling, sparklines with
// history. The goal is well under 4 ms a frame (the bridge sends at most
// 30 frames a second).
func BenchmarkView(b *testing.B) {
	s := newSession(b, "clicks")
	m, _ := labModel(b, 200, 50, s)
	s.b.Handle(bridge.Request{Kind: bridge.SetSpeed, Speed: 8})
	m = s.run(m, 6*time.Second)
	m, _ = press(b, m, "right", "right")
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
