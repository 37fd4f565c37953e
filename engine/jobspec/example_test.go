package jobspec_test

import (
	"fmt"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
)

func ExampleBuiltin() {
	s, _ := jobspec.Builtin("clicks")
	fmt.Println(strings.Join(s.Nodes(), " "))
	// Output: source parse count[0] count[1] sink
}

func ExampleParse() {
	_, err := jobspec.Parse("job.yaml", []byte(`
name: demo
source:
  rate: fast
operators:
  - name: count
    kind: map
    window: 10s
`))
	fmt.Println(err)
	// Output: job.yaml:4:9: rate: expected an integer, got string "fast"
}

func ExampleParse_windowOnMap() {
	_, err := jobspec.Parse("job.yaml", []byte(`
name: demo
operators:
  - name: count
    kind: map
    window: 10s
`))
	fmt.Println(err)
	// Output: job.yaml:6:5: window: only a window-count operator takes window; this one is a map
}
