package markdown

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/lessons"
	"github.com/streamlab/streamlab/tui/styles"
)

// update is accepted so that `go test ./tui/... -update` (make golden)
// runs here too; this package has no golden files.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func plain() *Renderer { return New(styles.Mono, termenv.Ascii, true) }

func lines(r *Renderer, md string, w int) string { return strings.Join(r.Lines(md, w), "\n") }

func TestParagraphsListsAndEmphasis(t *testing.T) {
	md := "# Title\n\nA paragraph that goes\non, with **bold** and at-least-once.\n\n    job clicks\n    run 3s\n\n- one item that is long\n  enough to wrap\n- two\n  - nested"
	got := lines(plain(), md, 20)
	want := "Title\n\nA paragraph that\ngoes on, with *bold*\nand at-least-once.\n\n  job clicks\n  run 3s\n\n• one item that is\n  long enough to\n  wrap\n• two\n  • nested"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBoldIsDrawnInColour(t *testing.T) {
	got := lines(New(styles.Default, termenv.ANSI256, true), "a **bold** word and `code`", 40)
	if !strings.Contains(got, "\x1b[1mbold") {
		t.Errorf("bold is not bold: %q", got)
	}
	if ansi.Strip(got) != "a bold word and code" {
		t.Errorf("text %q", ansi.Strip(got))
	}
	mono := lines(New(styles.Mono, termenv.ANSI256, true), "a **bold** word and `code`", 40)
	if !strings.Contains(mono, "\x1b[1mbold") || !strings.Contains(mono, "`code`") {
		t.Errorf("the mono theme draws %q: want bold, and code in backticks (it has no colour)", mono)
	}
}

const restartTable = "Strategies:\n\n| strategy | parameters (defaults) | gives up |\n| --- | --- | --- |\n| `none` | — | at the first failure |\n| `fixed-delay` | `attempts=1 delay=1s` | after the attempts are used up |\n| `exponential-delay` | `initial=1s max=1m multiplier=1.5 reset=1h jitter=0.1` | after `attempts` in a row (unlimited by default) |\n\nAfter."

func TestTableFitsOrBecomesAList(t *testing.T) {
	wide := lines(plain(), restartTable, 62)
	want := "" +
		"Strategies:\n\n" +
		"strategy            │ parameters (defaults) │ gives up\n" +
		"────────────────────┼───────────────────────┼─────────────────\n" +
		"`none`              │ —                     │ at the first\n" +
		"                    │                       │ failure\n" +
		"────────────────────┼───────────────────────┼─────────────────\n" +
		"`fixed-delay`       │ `attempts=1 delay=1s` │ after the\n" +
		"                    │                       │ attempts are\n" +
		"                    │                       │ used up\n" +
		"────────────────────┼───────────────────────┼─────────────────\n" +
		"`exponential-delay` │ `initial=1s max=1m    │ after `attempts`\n" +
		"                    │ multiplier=1.5        │ in a row\n" +
		"                    │ reset=1h jitter=0.1`  │ (unlimited by\n" +
		"                    │                       │ default)\n\n" +
		"After."
	if wide != want {
		t.Errorf("at 62:\n%s\nwant\n%s", wide, want)
	}
	narrow := lines(plain(), restartTable, 32)
	want = "" +
		"Strategies:\n\n" +
		"• `none`\n" +
		"  • parameters (defaults): —\n" +
		"  • gives up: at the first\n" +
		"    failure\n" +
		"• `fixed-delay`\n" +
		"  • parameters (defaults):\n" +
		"    `attempts=1 delay=1s`\n" +
		"  • gives up: after the attempts\n" +
		"    are used up\n" +
		"• `exponential-delay`\n" +
		"  • parameters (defaults):\n" +
		"    `initial=1s max=1m\n" +
		"    multiplier=1.5 reset=1h\n" +
		"    jitter=0.1`\n" +
		"  • gives up: after `attempts`\n" +
		"    in a row (unlimited by\n" +
		"    default)\n\n" +
		"After."
	if narrow != want {
		t.Errorf("at 32:\n%s\nwant\n%s", narrow, want)
	}
}

func TestLinksShowTheirAddress(t *testing.T) {
	got := lines(plain(), "See [the docs](https://flink.apache.org/x) and <https://example.org/a-b>.", 80)
	want := "See the docs <https://flink.apache.org/x> and <https://example.org/a-b>."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestListItemsJoinTheirLines(t *testing.T) {
	md := "- an item whose second line\n  <https://example.org/x> starts with a link,\n  and #3 is no heading\n- next"
	got := lines(plain(), md, 80)
	want := "• an item whose second line <https://example.org/x> starts with a link, and #3\n  is no heading\n• next"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestLongCodeLinesBreakAtASpace(t *testing.T) {
	got := lines(plain(), "Type:\n\n    set restart fixed-delay attempts=3 delay=10s\n\nThen run.", 26)
	want := "Type:\n\n  set restart fixed-delay\n    attempts=3 delay=10s\n\nThen run."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Every lesson's and exercise's Markdown, in every theme, fits its width
// line by line, never breaks a hyphenated word it could keep whole, and
// on a terminal without escape codes (NO_COLOR, TERM=dumb) has none.
func TestAllContentFits(t *testing.T) {
	var docs []string
	cat, err := lessons.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range cat {
		docs = append(docs, l.Text, l.RealWorld, l.Check.Question, l.Check.Explanation)
		for _, s := range l.Steps {
			docs = append(docs, s.Instruction)
			docs = append(docs, s.Hints...)
		}
	}
	p, err := exercises.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Exercises {
		docs = append(docs, e.Task)
	}
	for _, c := range []struct {
		name    string
		theme   styles.Theme
		profile termenv.Profile
	}{{"plain", styles.Default, termenv.Ascii}, {"default", styles.Default, termenv.TrueColor}} {
		r := New(c.theme, c.profile, true)
		for _, w := range []int{32, 46, 62} { // the pane at 80, 120 and 200 columns
			for i, md := range docs {
				for n, l := range r.Lines(md, w) {
					where := fmt.Sprintf("%s %d cells, document %d, line %d: %q", c.name, w, i, n, l)
					if c.profile == termenv.Ascii && strings.ContainsRune(l, 0x1b) {
						t.Errorf("%s: an escape code", where)
					}
					if ansi.StringWidth(l) > w {
						t.Errorf("%s: %d cells wide", where, ansi.StringWidth(l))
					}
					if s := ansi.Strip(l); w >= 32 && (strings.HasSuffix(s, "at-") || strings.HasSuffix(s, "exactly-")) {
						t.Errorf("%s: a word broken at its hyphen", where)
					}
				}
			}
		}
	}
}

func TestCacheAndDeterminism(t *testing.T) {
	r := New(styles.Default, termenv.ANSI256, true)
	a, b := r.Lines(restartTable, 40), r.Lines(restartTable, 40)
	if &a[0] != &b[0] {
		t.Error("the same document at the same width was rendered twice")
	}
	if c := r.Lines(restartTable, 41); &c[0] == &a[0] {
		t.Error("another width gave the cached lines")
	}
	fresh := New(styles.Default, termenv.ANSI256, true).Lines(restartTable, 40)
	if strings.Join(fresh, "\n") != strings.Join(a, "\n") {
		t.Error("two renderers of the same theme disagree")
	}
	var nilR *Renderer
	if got := nilR.Lines("a b", 10); len(got) != 1 || got[0] != "a b" {
		t.Errorf("nil renderer: %q", got)
	}
}

func TestStylesCloseOnTheirLine(t *testing.T) {
	r := New(styles.Default, termenv.ANSI256, true)
	for _, l := range r.Lines("some **bold text that runs over several lines of a narrow pane** and more", 16) {
		if strings.Count(l, "\x1b[") > 0 && !strings.HasSuffix(l, "\x1b[0m") {
			t.Errorf("line %q leaves a style open", l)
		}
	}
}
