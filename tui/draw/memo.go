package draw

import (
	"slices"
	"sync/atomic"

	"github.com/streamlab/streamlab/tui/styles"
)

// Memo keeps the lines a pane drew last and the key they were drawn
// from: the pane's size, focus and whatever part of its state it reads.
// Drawing again with the same key gives the same lines without drawing,
// so a pane that did not change between frames costs a comparison. A
// nil Memo draws every time.
//
// Panes are values that Bubble Tea copies at every update, so a pane
// holds its Memo by pointer; a key must name everything the drawing
// reads, or an old frame would be shown.
type Memo[K comparable] struct {
	key   K
	lines []string
	valid bool
}

// bypass makes every Memo draw, for tests and benchmarks that compare
// with the uncached drawing.
var bypass atomic.Bool

// Bypass turns the caches off (on) and returns the setting it replaced:
// tests compare a cached drawing with an uncached one, and benchmarks
// measure the difference.
func Bypass(off bool) bool { return bypass.Swap(off) }

// Kept is r.Get(part, text, n, render) unless the caches are off: the
// way every kept piece is rendered, so Bypass turns them all off.
func Kept(r *styles.Rendered, part, text string, n int, render func() string) string {
	if bypass.Load() {
		return render()
	}
	return r.Get(part, text, n, render)
}

// Lines is draw's result for key: the kept lines when key is the one
// they were drawn from, else draw's, kept for next time. The caller gets
// its own slice and may change it.
func (c *Memo[K]) Lines(key K, draw func() []string) []string {
	if c == nil || bypass.Load() {
		return draw()
	}
	if !c.valid || c.key != key {
		c.key, c.lines, c.valid = key, draw(), true
	}
	return slices.Clone(c.lines)
}

// revisions numbers the changes panes make to their contents.
var revisions atomic.Uint64

// Revision is a number no other change has: a pane takes one each time
// its contents change and puts it in its key. Copies of a pane that went
// their own ways never share one, so two drawings with the same number
// drew the same contents.
func Revision() uint64 { return revisions.Add(1) }
