package lessonpane

import (
	"strings"
	"testing"

	"github.com/streamlab/streamlab/tui/styles"
)

func TestMarkdown(t *testing.T) {
	st := styles.New(styles.ByName("mono", true))
	md := "# Title\n\nA paragraph that goes\non, with **bold** and at-least-once.\n\n    job clicks\n    run 3s\n\n- one item\n- two"
	got := strings.Join(Markdown(st, md, 20), "\n")
	want := "Title\n\nA paragraph that\ngoes on, with bold\nand at-least-once.\n\n  job clicks\n  run 3s\n\n• one item\n• two"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
