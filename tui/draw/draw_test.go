package draw

import (
	"flag"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no goldens.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Count(999), "999"}, {Count(1234), "1.2k"}, {Count(12345), "12k"}, {Count(1_234_567), "1.2M"}, {Count(42_000_000), "42M"},
		{Rate(98.6), "99/s"}, {Bytes(200), "200 B"}, {Bytes(12_120), "12 kB"}, {Bytes(1_234_567), "1.2 MB"},
		{Percent(0.61645), "61.6%"}, {Percent(0.01004), "1.00%"}, {Percent(0.001), "0.100%"}, {Percent(0), "0%"}, {Percent(1), "100%"}, {Percent(1e-9), "<0.0001%"}, {Clock(83_450), "1:23.4"}, {Clock(3_723_000), "1:02:03"},
		{Bar(0, 10, 5), "▱▱▱▱▱"}, {Bar(1, 1000, 5), "▰▱▱▱▱"}, {Bar(10, 10, 5), "▰▰▰▰▰"},
		{Sparkline([]int64{0, 5, 10}, 5), "  ▁▄█"}, {Sparkline([]int64{3, 3}, 2), "██"}, {Sparkline([]int64{0, 0}, 2), "▁▁"}, {Sparkline(nil, 2), "  "},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestBlockAndBox(t *testing.T) {
	b := Block([]string{"abcdef", "x"}, 4, 3)
	if strings.Join(b, "|") != "abc…|x   |    " {
		t.Errorf("block %q", b)
	}
	box := Box(styles.New(styles.Mono).Pane, "Title", []string{"hi"}, 12, 4)
	want := "╭─ Title ──╮|│hi        │|│          │|╰──────────╯"
	if got := strings.Join(box, "|"); got != want {
		t.Errorf("box\n%s\nwant\n%s", got, want)
	}
}

func TestOverlay(t *testing.T) {
	bg := []string{"..........", "..........", ".........."}
	got := Overlay(bg, []string{"AB", "CD"}, 3, 1)
	if strings.Join(got, "|") != "..........|...AB.....|...CD....." {
		t.Errorf("overlay %q", got)
	}
}
