package pack

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// decodeScenario reads the scenario: a literal block (scenario: |), one
// line, or the name of a .lab file in the exercise directory. Its commands
// keep positions in the file they were written in, so that an error in them
// points at exercise.yaml's own lines.
func (e *Exercise) decodeScenario(d *yamlpos.Decoder, f yamlpos.Entry, data []byte) {
	e.ScenarioFile = e.File
	var text string
	var dl, dc int // line and column offsets from the text to the file
	v := f.Value
	s, isString := yamlpos.String(v)
	switch {
	case yamlpos.IsBlock(v):
		if v.Style&yaml.FoldedStyle != 0 {
			d.FailAt(f, "scenario: a folded block (>) joins the lines into one; write the scenario as a literal block (scenario: |)")
			return
		}
		text = v.Value
		start, _ := yamlpos.Pos(v)
		dl, dc = start, blockIndent(data, start, len(strings.Split(strings.TrimSuffix(text, "\n"), "\n")))
	case isString:
		text = s
		if isLabFile(text) {
			e.ScenarioFile = e.FileName(text)
			b, err := e.ReadFile(text)
			if err != nil {
				d.FailAt(f, "scenario: cannot read %s in the exercise directory", text)
				return
			}
			text = string(b)
			break
		}
		if strings.ContainsAny(text, "\r\n") {
			d.FailAt(f, "scenario: write a scenario of several lines as a literal block (scenario: |)")
			return
		}
		l, c := yamlpos.Pos(v)
		dl, dc = l-1, c-1
		if yamlpos.IsQuoted(v) {
			dc++
		}
	default:
		d.FailAt(f, "scenario: expected a lab script (a literal block: scenario: |), got %s", yamlpos.Describe(f.Value))
		return
	}
	e.ScenarioText = text
	sc, err := script.Parse(e.ScenarioFile, []byte(text))
	if err != nil {
		if se, ok := poserr.As(err, script.ErrSyntax); ok {
			d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.ScenarioFile, Line: se.Line + dl, Col: se.Col + dc, Msg: se.Msg})
		}
		return
	}
	e.Scenario = Shift(sc.Commands, dl, dc)
	e.checkScenario(d)
}

// isLabFile reports whether text names a .lab file rather than being a
// one-line script.
func isLabFile(text string) bool {
	return strings.HasSuffix(text, ".lab") && !strings.ContainsFunc(text, unicode.IsSpace) && isPlainPath(text)
}

// blockIndent is the indentation of a literal block whose indicator is on
// line start (1-based) and whose content has n lines: the least indentation
// of its non-blank lines.
func blockIndent(data []byte, start, n int) int {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	indent := -1
	for i := start; i < start+n && i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		k := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || k < indent {
			indent = k
		}
	}
	return max(indent, 0)
}

// Shift moves commands by dl lines and dc columns, as when a script is
// embedded in another file.
func Shift(cmds []script.Command, dl, dc int) []script.Command {
	out := make([]script.Command, len(cmds))
	for i, c := range cmds {
		c.Line += dl
		c.Col += dc
		c.Args = slices.Clone(c.Args)
		for j := range c.Args {
			c.Args[j].Line += dl
			c.Args[j].Col += dc
		}
		c.Params = slices.Clone(c.Params)
		for j := range c.Params {
			c.Params[j].Line += dl
			c.Params[j].Col += dc
		}
		out[i] = c
	}
	return out
}

// checkScenario checks the scenario's commands against the exercise.
func (e *Exercise) checkScenario(d *yamlpos.Decoder) {
	at := func(c script.Command, col int, format string, args ...any) {
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.ScenarioFile, Line: c.Line, Col: col, Msg: fmt.Sprintf(format, args...)})
	}
	runs := false
	for _, c := range e.Scenario {
		switch c.Verb {
		case script.VerbJob:
			at(c, c.Col, "the scenario cannot name the job: the exercise's job key does (default %s)", DefaultJob)
		case script.VerbRun, script.VerbStep:
			runs = true
		case script.VerbPause, script.VerbResume:
			at(c, c.Col, "%s only makes sense in the terminal lab; a scenario advances time with run", c.Verb)
		case script.VerbSet:
			key := c.Args[0]
			switch {
			case key.Text == "seed":
				at(c, key.Col, "the scenario cannot set the seed: the exercise's seed key does, and the grader's --seed overrides it")
			case key.Text == "executor":
				at(c, key.Col, "the scenario cannot set the executor: grading always runs the deterministic executor")
			case CheckSettable(key.Text) != nil:
				at(c, key.Col, "%v", CheckSettable(key.Text))
			case e.Kind == KindConfiguration && slices.Contains(e.Allow, key.Text):
				at(c, key.Col, "the scenario sets %s, which the answer is allowed to set: the scenario runs after the answer and would override it", key.Text)
			}
		}
	}
	if !runs && (e.Kind == KindPrediction || e.Kind == KindConfiguration) && len(e.Scenario) > 0 {
		c := e.Scenario[len(e.Scenario)-1]
		at(c, c.Col, "the scenario never runs the job: a %s exercise needs a run (or step) in its scenario", e.Kind)
	}
	if len(e.Scenario) == 0 && (e.Kind == KindPrediction || e.Kind == KindConfiguration) {
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.ScenarioFile, Msg: fmt.Sprintf("the scenario is empty: a %s exercise needs one that runs the job", e.Kind)})
	}
}
