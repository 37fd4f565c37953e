package markdown

import (
	"testing"

	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/styles"
)

// BenchmarkLines renders lesson 8's text (its table included) for the
// pane at 200 columns (62 cells) in 256 colours: cold, a new renderer
// each time (what every refresh of the pane would cost without the
// cache), and cached, the lookup a refresh costs once the text was
// rendered at that width. cold reports its cost as a ratio to cached,
// measured in the same run.
func BenchmarkLines(b *testing.B) {
	l, err := lessons.Find("restarts")
	if err != nil {
		b.Fatal(err)
	}
	md := l.Text
	var cached float64
	b.Run("cached", func(b *testing.B) {
		r := New(styles.Default, termenv.ANSI256, true)
		r.Lines(md, 62)
		b.ReportAllocs()
		for b.Loop() {
			r.Lines(md, 62)
		}
		cached = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			New(styles.Default, termenv.ANSI256, true).Lines(md, 62)
		}
		if cached > 0 {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/cached, "x-cached")
		}
	})
}
