// Package draw holds the small text-drawing pieces the panes share: a
// framed box with a title, fixed-size blocks, bars, sparklines, numbers and
// an overlay. They work on strings that may hold ANSI styling.
package draw

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/tui/styles"
)

// Fit truncates or pads s to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// Block makes lines exactly w wide and h tall (cutting or padding), so
// panes join without ragged edges.
func Block(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}

// Box frames content (already cut to size or not) in a border with title
// in the top edge; w and h are the outer size. The edges are drawn once
// per frame, title and width, and kept (see styles.Frame.Edges).
func Box(f styles.Frame, title string, content []string, w, h int) []string {
	if w < 2 || h < 2 {
		return Block(nil, max(w, 0), max(h, 0))
	}
	inner := w - 2
	out := make([]string, 0, h)
	out = append(out, Kept(f.Edges(), "top", title, w, func() string { return topEdge(f, title, inner) }))
	left := Kept(f.Edges(), "left", "", 0, func() string { return f.Edge.Render(f.Shape.Left) })
	right := Kept(f.Edges(), "right", "", 0, func() string { return f.Edge.Render(f.Shape.Right) })
	for _, line := range Block(content, inner, h-2) {
		out = append(out, left+line+right)
	}
	out = append(out, Bottom(f, "", w))
	return out
}

// topEdge is a box's top edge, inner cells between its corners, with
// title in it.
func topEdge(f styles.Frame, title string, inner int) string {
	b, borderStyle, titleStyle := f.Shape, f.Edge, f.Title
	top := b.Top
	head := ""
	if title != "" && inner > 4 {
		t := ansi.Truncate(title, inner-4, "…")
		head = top + " " + titleStyle.Render(t) + " "
	}
	fill := inner - ansi.StringWidth(head)
	return borderStyle.Render(b.TopLeft) + styledHead(head, borderStyle, top) + borderStyle.Render(strings.Repeat(top, max(fill, 0))+b.TopRight)
}

// Bottom is a box's bottom edge, w wide, with label in it the way Box puts
// a title in the top edge: for what a pane says of itself as a whole.
func Bottom(f styles.Frame, label string, w int) string {
	return Kept(f.Edges(), "bottom", label, w, func() string { return bottomEdge(f, label, w) })
}

// bottomEdge draws Bottom's edge.
func bottomEdge(f styles.Frame, label string, w int) string {
	b, borderStyle := f.Shape, f.Edge
	inner := w - 2
	if label == "" || inner <= 4 {
		return borderStyle.Render(b.BottomLeft + strings.Repeat(b.Bottom, max(inner, 0)) + b.BottomRight)
	}
	head := b.Bottom + " " + ansi.Truncate(label, inner-4, "…") + " "
	fill := inner - ansi.StringWidth(head)
	return borderStyle.Render(b.BottomLeft) + styledHead(head, borderStyle, b.Bottom) + borderStyle.Render(strings.Repeat(b.Bottom, max(fill, 0))+b.BottomRight)
}

// styledHead colours the border glyph before the title like the border.
func styledHead(head string, borderStyle lipgloss.Style, top string) string {
	if head == "" {
		return ""
	}
	return borderStyle.Render(top) + strings.TrimPrefix(head, top)
}

// Join stacks blocks side by side; each must be a Block of equal height.
func Join(blocks ...[]string) []string {
	if len(blocks) == 0 {
		return nil
	}
	out := make([]string, len(blocks[0]))
	for i := range out {
		var b strings.Builder
		for _, bl := range blocks {
			if i < len(bl) {
				b.WriteString(bl[i])
			}
		}
		out[i] = b.String()
	}
	return out
}

// Overlay draws box over bg with its top-left corner at (x, y), keeping
// the background visible around it.
func Overlay(bg []string, box []string, x, y int) []string {
	out := append([]string(nil), bg...)
	for i, line := range box {
		row := y + i
		if row < 0 || row >= len(out) {
			continue
		}
		under := out[row]
		w := ansi.StringWidth(line)
		left := ansi.Truncate(under, x, "")
		if pad := x - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		right := ansi.TruncateLeft(under, x+w, "")
		out[row] = left + line + right
	}
	return out
}
