package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/draw"
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

// BenchmarkLessonView draws lesson 8's screen at 200×50 mid-way (a step
// done, a hint shown; the lesson's text holds a table), the lesson pane
// beside the lab, its text in a viewport. The baseline, sandbox, is the
// same session's lab at 200×50 without the lesson pane, measured in the
// same run: lesson reports its cost as x-sandbox, a ratio that holds on a
// loaded machine where nanoseconds do not. resize draws a frame after the
// pane changed width (the text laid out again), alternating between two
// widths. The goal is well under 2 ms a frame.
func BenchmarkLessonView(b *testing.B) {
	const w, h = 200, 50
	script := []string{"job clicks", "set restart none", "kill count[1] at 1200", "run 3000"}
	var sandbox float64
	b.Run("sandbox", func(b *testing.B) {
		s := newSession(b, "clicks", script[1:3]...)
		m, _ := labModel(b, w, h, s)
		m = s.run(m, 3*time.Second)
		b.ReportAllocs()
		for b.Loop() {
			_ = m.View()
		}
		sandbox = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	lesson := func(b *testing.B) Model {
		m, eng, s := lessonModel(b, "8", w, h)
		m = lines(b, m, eng, s, script...)
		m, _ = press(b, m, "h")
		if m.guide.Done() != 1 || m.guide.Hints() != 1 {
			b.Fatalf("lesson at step %d with %d hints, want step 1 done and a hint", m.guide.Done(), m.guide.Hints())
		}
		return m
	}
	ratio := func(b *testing.B) {
		if ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N); sandbox > 0 {
			b.ReportMetric(ns/sandbox, "x-sandbox")
		}
	}
	b.Run("lesson", func(b *testing.B) {
		m := lesson(b)
		b.ReportAllocs()
		for b.Loop() {
			_ = m.View()
		}
		ratio(b)
	})
	b.Run("resize", func(b *testing.B) {
		m := lesson(b)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			m.resize(w-i%2, h)
			_ = m.View()
			i++
		}
		ratio(b)
	})
}

// BenchmarkServedView draws a served lab's frames: lesson 1 at 120×40 in
// 256 colours, as `streamlab serve` draws it, playing at 1× while a frame
// comes every 100 ms (taking the frame in is not timed). uncached draws
// every pane every frame; cached keeps what did not change, and reports
// its cost as x-uncached, a ratio from the same run.
func BenchmarkServedView(b *testing.B) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	lipgloss.SetColorProfile(termenv.ANSI256)
	var uncached float64
	play := func(b *testing.B) {
		m, eng, s := lessonModel(b, "1", 120, 40)
		m, _ = press(b, m, " ")
		s.forward(eng)
		m = feed(m, s)
		m = s.run(m, 5*time.Second)
		if !strings.Contains(m.View(), "▶ running") {
			b.Fatal("lesson 1 is not running")
		}
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			s.at = s.at.Add(100 * time.Millisecond)
			s.b.Tick(s.at)
			m = feed(m, s)
			b.StartTimer()
			_ = m.View()
		}
	}
	b.Run("uncached", func(b *testing.B) {
		defer draw.Bypass(draw.Bypass(true))
		play(b)
		uncached = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("cached", func(b *testing.B) {
		play(b)
		if ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N); uncached > 0 {
			b.ReportMetric(ns/uncached, "x-uncached")
		}
	})
}
