package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// decoder turns the YAML of lesson.yaml into a Lesson, with every error at
// its position.
type decoder struct {
	file  string
	lines []string // the source, for the positions inside block scalars
}

func (d *decoder) errAt(n *yaml.Node, format string, args ...any) *poserr.Error {
	e := &poserr.Error{Kind: ErrBadContent, File: d.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	return e
}

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// metaLimits bound lesson.yaml; the file is also at most maxFileBytes.
var metaLimits = yamlpos.Limits{MaxBlankLines: 200, MaxNodes: 2000}

func parseMeta(file string, src []byte) (*Lesson, error) {
	d := &decoder{file: file, lines: strings.Split(string(src), "\n")}
	root, err := yamlpos.Parse(ErrBadContent, file, src, metaLimits)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, &poserr.Error{Kind: ErrBadContent, File: file, Msg: "empty file; expected a mapping with id, title, summary, steps and check"}
	}
	f, err := d.fields(root, "lesson", []string{"id", "title", "summary", "steps", "check"}, "id", "title", "summary", "steps", "check")
	if err != nil {
		return nil, err
	}
	l := &Lesson{}
	if l.ID, err = d.text(f["id"], "id"); err != nil {
		return nil, err
	}
	if !idPattern.MatchString(l.ID) {
		return nil, d.errAt(f["id"], "id %q: expected lower-case letters, digits and dashes, starting with a letter", l.ID)
	}
	if l.Title, err = d.text(f["title"], "title"); err != nil {
		return nil, err
	}
	if l.Summary, err = d.text(f["summary"], "summary"); err != nil {
		return nil, err
	}
	if l.Steps, err = d.steps(f["steps"]); err != nil {
		return nil, err
	}
	if l.Check, err = d.check(f["check"]); err != nil {
		return nil, err
	}
	return l, nil
}

// fields checks that n is a mapping with only known keys, each once, and
// the required ones present, and returns its values by key.
func (d *decoder) fields(n *yaml.Node, what string, known []string, required ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errAt(n, "%s: expected a mapping with keys %s", what, strings.Join(known, ", "))
	}
	keys := &yamlpos.Decoder{File: d.file, Kind: ErrBadContent}
	out := map[string]*yaml.Node{}
	for _, e := range keys.MappingAll(yamlpos.Root(what, n), what, known) {
		out[e.Key] = e.Value
	}
	if err := keys.Err(); err != nil {
		return nil, err
	}
	for _, r := range required {
		if out[r] == nil {
			return nil, d.errAt(n, "%s: %s is required", what, r)
		}
	}
	return out, nil
}

// text reads a non-empty scalar.
func (d *decoder) text(n *yaml.Node, what string) (string, error) {
	switch {
	case n.Kind == yaml.MappingNode:
		return "", d.errAt(n, "%s: expected a text, got a mapping (quote a text that holds \": \")", what)
	case n.Kind != yaml.ScalarNode || n.Tag == "!!null":
		return "", d.errAt(n, "%s: expected a text", what)
	}
	s := strings.TrimSpace(n.Value)
	if s == "" {
		return "", d.errAt(n, "%s: expected a text, got an empty one", what)
	}
	return s, nil
}

func (d *decoder) texts(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, d.errAt(n, "%s: expected a list of at least one text", what)
	}
	out := make([]string, len(n.Content))
	for i, c := range n.Content {
		var err error
		if out[i], err = d.text(c, what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) number(n *yaml.Node, what string) (float64, error) {
	var v float64
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&v) != nil || v < 0 {
		return 0, d.errAt(n, "%s: expected a number of at least 0, got %q", what, n.Value)
	}
	return v, nil
}

// scriptLines parses a lab script held in a YAML scalar and returns its
// lines, reporting a bad line at its position in the YAML file.
func (d *decoder) scriptLines(n *yaml.Node, what string) ([]string, []script.Command, error) {
	if _, err := d.text(n, what); err != nil {
		return nil, nil, err
	}
	var lines []string
	var cmds []script.Command
	for i, line := range strings.Split(n.Value, "\n") {
		c, err := script.ParseLine(d.file, 1, line)
		if err != nil {
			se, ok := poserr.As(err, script.ErrSyntax)
			if !ok {
				return nil, nil, d.errAt(n, "%s: %v", what, err)
			}
			return nil, nil, d.scalarError(n, i, se.Col, "%s: %s", what, se.Msg)
		}
		if c.Verb == "" {
			continue
		}
		lines = append(lines, strings.TrimSpace(line))
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return nil, nil, d.errAt(n, "%s: expected at least one lab-script command", what)
	}
	return lines, cmds, nil
}

// scalarError positions an error at column col of line i of a scalar's
// value: for a block scalar (|) line i is on the file's line n.Line+1+i,
// indented as the source shows.
func (d *decoder) scalarError(n *yaml.Node, i, col int, format string, args ...any) *poserr.Error {
	e := d.errAt(n, format, args...)
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		return e
	}
	line := n.Line + 1 + i
	indent := 0
	if line-1 < len(d.lines) {
		src := d.lines[line-1]
		indent = len(src) - len(strings.TrimLeft(src, " "))
	}
	e.Line, e.Col = line, indent+col
	return e
}

func (d *decoder) steps(n *yaml.Node) ([]Step, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, d.errAt(n, "steps: expected a list of at least one step")
	}
	out := make([]Step, len(n.Content))
	for i, sn := range n.Content {
		what := fmt.Sprintf("step %d", i+1)
		f, err := d.fields(sn, what, []string{"title", "instruction", "goal", "hints", "solution", "fresh"}, "title", "instruction", "goal", "hints", "solution")
		if err != nil {
			return nil, err
		}
		st := &out[i]
		if st.Title, err = d.text(f["title"], what+" title"); err != nil {
			return nil, err
		}
		if st.Instruction, err = d.text(f["instruction"], what+" instruction"); err != nil {
			return nil, err
		}
		if st.Hints, err = d.texts(f["hints"], what+" hints"); err != nil {
			return nil, err
		}
		if fn := f["fresh"]; fn != nil {
			if fn.Kind != yaml.ScalarNode || fn.Tag != "!!bool" || fn.Decode(&st.Fresh) != nil {
				return nil, d.errAt(fn, "%s fresh: expected true or false", what)
			}
		}
		st.Fresh = st.Fresh || i == 0
		var cmds []script.Command
		if st.Solution, cmds, err = d.scriptLines(f["solution"], what+" solution"); err != nil {
			return nil, err
		}
		if st.Fresh && cmds[0].Verb != script.VerbJob {
			return nil, d.errAt(f["solution"], "%s starts a new session, so its solution starts with a job line, e.g. \"job clicks\"", what)
		}
		if st.Goal, err = d.goal(f["goal"], what+" goal"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eventKinds are the engine events a goal can wait for.
var eventKinds = []bus.EventKind{
	bus.EventJobStarted, bus.EventAdmitted, bus.EventBatchCommitted, bus.EventWatermark,
	bus.EventDroppedLate, bus.EventRunQuiet, bus.EventJobFailed, bus.EventNodeKilled,
	bus.EventRestartScheduled, bus.EventNodeRestarted, bus.EventCheckpoint, bus.EventLeaderElected,
}

func (d *decoder) goal(n *yaml.Node, what string) (Goal, error) {
	f, err := d.fields(n, what, []string{"expect", "event", "node", "rejected"})
	if err != nil {
		return Goal{}, err
	}
	var g Goal
	if en := f["expect"]; en != nil {
		exprs, err := d.texts(en, what+" expect")
		if err != nil {
			return Goal{}, err
		}
		for i, text := range exprs {
			e, err := ParseExpect(text)
			if err != nil {
				msg := err.Error()
				if se, ok := poserr.As(err, script.ErrSyntax); ok {
					msg = se.Msg
				}
				return Goal{}, d.errAt(en.Content[i], "%s: %s", what, msg)
			}
			if !knownField(e.Expr.Field) {
				return Goal{}, d.errAt(en.Content[i], "%s: %q is not a report field", what, e.Expr.Field)
			}
			g.Expects = append(g.Expects, e)
		}
	}
	if kn := f["event"]; kn != nil {
		kind, err := d.text(kn, what+" event")
		if err != nil {
			return Goal{}, err
		}
		if !slices.Contains(eventKinds, bus.EventKind(kind)) {
			names := make([]string, len(eventKinds))
			for i, k := range eventKinds {
				names[i] = string(k)
			}
			return Goal{}, d.errAt(kn, "%s: unknown event %q; expected one of %s", what, kind, strings.Join(names, ", "))
		}
		g.Event = bus.EventKind(kind)
	}
	if nn := f["node"]; nn != nil {
		if g.Event == "" {
			return Goal{}, d.errAt(nn, "%s: node names the node of an event; give the event too", what)
		}
		if g.Node, err = d.text(nn, what+" node"); err != nil {
			return Goal{}, err
		}
	}
	if rn := f["rejected"]; rn != nil {
		if g.Rejected, err = d.text(rn, what+" rejected"); err != nil {
			return Goal{}, err
		}
	}
	if len(g.Expects) == 0 && g.Event == "" && g.Rejected == "" {
		return Goal{}, d.errAt(n, "%s: expected expect, event or rejected", what)
	}
	return g, nil
}

func (d *decoder) check(n *yaml.Node) (Check, error) {
	f, err := d.fields(n, "check", []string{"kind", "question", "runs", "answer", "tolerance", "tolerance_pct", "unit", "options", "explanation"},
		"kind", "question", "explanation")
	if err != nil {
		return Check{}, err
	}
	c := Check{runs: map[string]string{}, correct: -1}
	if c.Kind, err = d.text(f["kind"], "check kind"); err != nil {
		return Check{}, err
	}
	if c.Question, err = d.text(f["question"], "check question"); err != nil {
		return Check{}, err
	}
	if c.Explanation, err = d.text(f["explanation"], "check explanation"); err != nil {
		return Check{}, err
	}
	if rn := f["runs"]; rn != nil {
		if rn.Kind != yaml.MappingNode || len(rn.Content) == 0 {
			return Check{}, d.errAt(rn, "check runs: expected a mapping of run names to lab scripts")
		}
		keys := &yamlpos.Decoder{File: d.file, Kind: ErrBadContent}
		runs := keys.MappingAll(yamlpos.Root("check runs", rn), "check runs", nil)
		if err := keys.Err(); err != nil {
			return Check{}, err
		}
		for _, r := range runs {
			k, v := r.KeyNode, r.Value
			if k.Kind != yaml.ScalarNode || !idPattern.MatchString(k.Value) || strings.Contains(k.Value, "-") {
				return Check{}, d.errAt(k, "check run name %q: expected lower-case letters and digits", k.Value)
			}
			lines, _, err := d.scriptLines(v, "check run "+k.Value)
			if err != nil {
				return Check{}, err
			}
			c.runs[k.Value] = strings.Join(lines, "\n") + "\n"
		}
	}
	if err := checkPlaceholders(c.Explanation, c.runs); err != nil {
		return Check{}, d.errAt(f["explanation"], "check explanation: %v", err)
	}
	if un := f["unit"]; un != nil {
		if c.Unit, err = d.text(un, "check unit"); err != nil {
			return Check{}, err
		}
	}
	switch c.Kind {
	case CheckNumber:
		return c, d.numberCheck(f, &c)
	case CheckChoice:
		return c, d.choiceCheck(n, f, &c)
	}
	return Check{}, d.errAt(f["kind"], "check kind %q: expected number or choice", c.Kind)
}

func (d *decoder) numberCheck(f map[string]*yaml.Node, c *Check) error {
	if f["options"] != nil {
		return d.errAt(f["options"], "check options: only a choice check has options")
	}
	an := f["answer"]
	if an == nil || len(c.runs) == 0 {
		return d.errAt(f["kind"], "a number check needs runs and an answer computed from them, e.g. answer: main.sink.lost")
	}
	text, err := d.text(an, "check answer")
	if err != nil {
		return err
	}
	if c.answer, err = parseSum(text, c.runs); err != nil {
		return d.errAt(an, "check answer: %v", err)
	}
	if tn := f["tolerance"]; tn != nil {
		if c.tolerance, err = d.number(tn, "check tolerance"); err != nil {
			return err
		}
	}
	if tn := f["tolerance_pct"]; tn != nil {
		if c.tolerancePct, err = d.number(tn, "check tolerance_pct"); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) choiceCheck(n *yaml.Node, f map[string]*yaml.Node, c *Check) error {
	for _, k := range []string{"tolerance", "tolerance_pct", "unit"} {
		if f[k] != nil {
			return d.errAt(f[k], "check %s: only a number check has a %s", k, k)
		}
	}
	on := f["options"]
	if on == nil || on.Kind != yaml.SequenceNode || len(on.Content) < 2 || len(on.Content) > 26 {
		return d.errAt(n, "a choice check needs options: a list of 2 to 26")
	}
	c.when = make([]*condition, len(on.Content))
	computed := false
	for i, o := range on.Content {
		what := fmt.Sprintf("check option %d", i+1)
		if o.Kind == yaml.ScalarNode {
			text, err := d.text(o, what)
			if err != nil {
				return err
			}
			c.Options = append(c.Options, text)
			continue
		}
		of, err := d.fields(o, what, []string{"text", "when"}, "text", "when")
		if err != nil {
			return err
		}
		text, err := d.text(of["text"], what+" text")
		if err != nil {
			return err
		}
		c.Options = append(c.Options, text)
		when, err := d.text(of["when"], what+" when")
		if err != nil {
			return err
		}
		cond, err := parseCondition(when, c.runs)
		if err != nil {
			return d.errAt(of["when"], "%s when: %v", what, err)
		}
		c.when[i] = &cond
		computed = true
	}
	an := f["answer"]
	switch {
	case computed && an != nil:
		return d.errAt(an, "check answer: the options say when they are right, so the check has no fixed answer")
	case computed:
		return nil
	case an == nil:
		return d.errAt(n, "a choice check needs an answer (the right option's number) or options with when")
	}
	var v int
	if an.Kind != yaml.ScalarNode || an.Tag != "!!int" || an.Decode(&v) != nil || v < 1 || v > len(c.Options) {
		return d.errAt(an, "check answer: expected the right option's number, 1 to %d", len(c.Options))
	}
	c.correct = v - 1
	return nil
}
