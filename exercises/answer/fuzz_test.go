package answer_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/answer"
)

// FuzzParse feeds any bytes as the answer to each built-in exercise (every
// kind of answer): Parse must return an answer or an error that names the
// file, and never panic.
func FuzzParse(f *testing.F) {
	exs := exercises.List()
	if len(exs) == 0 {
		f.Fatal("no built-in exercises")
	}
	for _, e := range exs {
		data, err := e.Starter()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("lost: 1\nlost: 2\n"))
	f.Add([]byte("set restart fixed-delay attempts=3 delay=10s\n"))
	f.Add([]byte("name: x\noperators:\n  - {name: p, kind: parse}\n"))
	f.Add([]byte("job clicks\npause\nkill count[1] at 3\n"))
	f.Add([]byte("\xef\xbb\xbfrun 1\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, e := range exs {
			a, err := answer.Parse(e, "answer", data)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "answer") || !errors.Is(err, answer.ErrBadAnswer) {
					t.Fatalf("%s: error does not name the file: %v", e.ID, err)
				}
				continue
			}
			if a == nil {
				t.Fatalf("%s: no answer and no error", e.ID)
			}
		}
	})
}
