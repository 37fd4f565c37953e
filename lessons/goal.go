package lessons

import (
	"fmt"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/bus"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// Goal is what completes a step, seen in an Observation of the live
// session: every Expect holds on its report, and, when set, an engine event
// of kind Event (on node Node, if given) is among its events, and a command
// was rejected with an error containing Rejected.
type Goal struct {
	Expects  []Expect
	Event    bus.EventKind
	Node     string
	Rejected string
}

// Expect is one lab-script `expect` expression over a report field, such
// as `sink.lost > 0`, evaluated with lab.Field exactly as `expect` is.
type Expect struct {
	Expr script.Expr
}

// ParseExpect reads an expression in the lab script's `expect` syntax.
func ParseExpect(text string) (Expect, error) {
	c, err := script.ParseLine("goal", 1, "expect "+text)
	if err != nil {
		return Expect{}, err
	}
	if c.Verb != script.VerbExpect {
		return Expect{}, fmt.Errorf("expected FIELD OP VALUE, e.g. sink.lost > 0")
	}
	return Expect{Expr: c.Expr}, nil
}

// String is the expression in canonical form, e.g. "sink.lost > 0".
func (e Expect) String() string {
	return strings.TrimPrefix(script.Command{Verb: script.VerbExpect, Expr: e.Expr}.String(), "expect ")
}

// Holds evaluates the expression on a report. A field the report does not
// have (job.error of a job that has not failed) makes it false.
func (e Expect) Holds(rep *engine.Report) bool {
	if rep == nil {
		return false
	}
	v, err := lab.Field(rep, e.Expr.Field)
	if err != nil {
		return false
	}
	ok, err := lab.Compare(v, e.Expr.Op, e.Expr.Value)
	return err == nil && ok
}

// Met reports whether the goal is reached in o.
func (g Goal) Met(o Observation) bool {
	for _, e := range g.Expects {
		if !e.Holds(o.Report) {
			return false
		}
	}
	if g.Event != "" && !containsEvent(o.Events, g.Event, g.Node) {
		return false
	}
	if g.Rejected != "" && !containsRejection(o.Rejected, g.Rejected) {
		return false
	}
	return true
}

func containsEvent(events []bus.Event, kind bus.EventKind, node string) bool {
	for _, e := range events {
		if e.Kind == kind && (node == "" || e.Node == node) {
			return true
		}
	}
	return false
}

func containsRejection(rs []Rejection, text string) bool {
	for _, r := range rs {
		if strings.Contains(r.Err, text) {
			return true
		}
	}
	return false
}

// ExpectsRejection reports whether the goal expects the engine to refuse a command
// with the error err (then a learner's refusal is progress, not a mistake).
func (g Goal) ExpectsRejection(err string) bool {
	return g.Rejected != "" && strings.Contains(err, g.Rejected)
}

// String describes the goal for people, e.g. "node-killed on count[1]
// while config.semantics == at-most-once".
func (g Goal) String() string {
	var parts []string
	switch {
	case g.Event != "" && g.Node != "":
		parts = append(parts, fmt.Sprintf("%s on %s", g.Event, g.Node))
	case g.Event != "":
		parts = append(parts, string(g.Event))
	}
	if g.Rejected != "" {
		parts = append(parts, fmt.Sprintf("a command rejected with %q", g.Rejected))
	}
	var exprs []string
	for _, e := range g.Expects {
		exprs = append(exprs, e.String())
	}
	if len(exprs) > 0 {
		sep := ""
		if len(parts) > 0 {
			sep = "while "
		}
		parts = append(parts, sep+strings.Join(exprs, " and "))
	}
	return strings.Join(parts, " ")
}
