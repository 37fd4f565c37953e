package draw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Words breaks only at spaces: every word comes back whole, in order,
// unless it is longer than a line; the lines after the first hang.
func TestWordsBreaksOnlyBetweenWords(t *testing.T) {
	text := "set restart exponential-delay: org.apache.flink.table.factories.DynamicTableFactory was not found, see ClassNotFoundException"
	for _, w := range []int{12, 20, 31, 44, 56, 200} {
		lines := Words(text, w, 2)
		var words []string
		for i, l := range lines {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("w=%d: line %d is %d wide: %q", w, i, n, l)
			}
			if i > 0 && !strings.HasPrefix(l, "  ") {
				t.Errorf("w=%d: line %d does not hang: %q", w, i, l)
			}
			words = append(words, strings.Fields(l)...)
		}
		got := strings.Join(words, " ")
		if w >= 56 && got != text {
			t.Errorf("w=%d: a word was cut:\n%q\nwant\n%q", w, lines, text)
		}
		if strings.Join(strings.Fields(strings.Join(lines, "")), " ") == "" {
			t.Errorf("w=%d: nothing drawn", w)
		}
		// A word that fits a line is never split.
		for _, word := range strings.Fields(text) {
			if len(word) <= w-2 && !strings.Contains(" "+got+" ", " "+word+" ") {
				t.Errorf("w=%d: %q was cut though it fits a line: %q", w, word, lines)
			}
		}
	}
	got := strings.Join(Words("restart by exponential-delay backoff", 20, 2), "|")
	if want := "restart by|  exponential-delay|  backoff"; got != want {
		t.Errorf("a hyphenated word: %q, want %q", got, want)
	}
}
