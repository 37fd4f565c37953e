package pack

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/internal/yamlpos"
)

// Types of report fields.
const (
	TypeNumber = report.TypeNumber
	TypeBool   = report.TypeBool
	TypeString = report.TypeString
)

// fieldTypes maps every report field (the README's Report fields) to its
// type, read off the report itself so that it cannot drift from the engine.
// Fields left out when unset are set here, so that they are known.
var fieldTypes = report.Types(&report.Report{Job: report.JobReport{Error: "x"}, Config: report.ConfigReport{Note: "x"},
	Filter: report.FilterReport{ApproxSize: new(float64)}})

// observedTypes are the fields the grader observes in the engine's event
// log rather than reading them off the report: what happened during the
// run, not only how it ended, so that a configuration string cannot stand in
// for the behaviour it names.
//
//	events.kills             node failures (the job manager not counted)
//	events.jobmanager_kills  job manager failures
//	events.restarts          restarts: a node restarted or replaced, or the
//	                         whole job restored from a checkpoint
//	events.leader_elections  standby job managers that took over
//	events.job_failed        whether the job failed
//	events.killed_nodes      the nodes that failed, sorted, comma-separated
//	events.replayed_nodes    the nodes whose restart replayed records, likewise
//	events.max_replayed      the most records one restart replayed
//	history.written          rows the sink wrote, every rewrite counted
//	history.rewrites         rows written more than once: history.written
//	                         minus the rows the sink ends with (a table row
//	                         overwritten in place, or a row written again)
var observedTypes = map[string]string{
	"events.kills":            TypeNumber,
	"events.jobmanager_kills": TypeNumber,
	"events.restarts":         TypeNumber,
	"events.leader_elections": TypeNumber,
	"events.job_failed":       TypeBool,
	"events.killed_nodes":     TypeString,
	"events.replayed_nodes":   TypeString,
	"events.max_replayed":     TypeNumber,
	"history.written":         TypeNumber,
	"history.rewrites":        TypeNumber,
}

// ObservedFields lists the fields observed in the event log, sorted.
func ObservedFields() []string {
	out := make([]string, 0, len(observedTypes))
	for k := range observedTypes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// IsObserved reports whether name is a field observed in the event log.
func IsObserved(name string) bool {
	_, ok := observedTypes[name]
	return ok
}

// FieldType returns the type of a report field as `expect` names it (a
// dotted name, or a sink field's short name such as lost).
func FieldType(name string) (string, error) {
	if t, ok := fieldTypes[name]; ok {
		return t, nil
	}
	if t, ok := observedTypes[name]; ok {
		return t, nil
	}
	if !strings.Contains(name, ".") {
		if t, ok := fieldTypes["sink."+name]; ok {
			return t, nil
		}
	}
	names := make([]string, 0, len(fieldTypes))
	for k := range fieldTypes {
		names = append(names, k)
	}
	for k := range observedTypes {
		names = append(names, k)
	}
	sort.Strings(names)
	return "", fmt.Errorf("unknown report field %q; expected one of %s", name, strings.Join(names, ", "))
}

// fractionFields are the number fields that are fractions between 0 and 1:
// an answer to them may be written as a percentage (69% for 0.69).
var fractionFields = map[string]bool{
	"filter.fill_ratio":   true,
	"filter.estimated_fp": true,
	"filter.measured_fp":  true,
}

// IsFraction reports whether a report field is a fraction, so that an
// answer may give it as a percentage.
func IsFraction(field string) bool { return fractionFields[field] }

// NormalChoice is the form a choice and an answer are compared in: lower
// case, with runs of spaces, hyphens and underscores read as one space, so
// that Upstream-Backup, upstream backup and upstream_backup are one answer.
func NormalChoice(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '-' || r == '_'
	})
	return strings.Join(f, " ")
}

// CheckSettable reports whether an answer may be allowed to set key.
func CheckSettable(key string) error {
	switch key {
	case "seed":
		return fmt.Errorf("seed cannot be allowed: the grader sets the seed")
	case "executor":
		return fmt.Errorf("executor cannot be allowed: grading always runs the deterministic executor")
	}
	var keys []string
	for _, s := range lab.Settings() {
		if s.Key == key {
			return nil
		}
		keys = append(keys, s.Key)
	}
	return fmt.Errorf("unknown setting %q; expected one of %s", key, strings.Join(keys, ", "))
}

// decodeCheck reads one check.
func (e *Exercise) decodeCheck(d *yamlpos.Decoder, item yamlpos.Entry) Check {
	c := Check{Points: 1, Visibility: Visible}
	c.Line, c.Col = item.Pos()
	has := map[string]yamlpos.Entry{}
	for _, f := range d.Mapping(item, "check", checkKeys) {
		has[f.Key] = f
		switch f.Key {
		case "name":
			c.Name = d.String(f)
		case "points":
			c.Points = d.Number(f)
			if c.Points <= 0 || c.Points > 1000 {
				d.FailAt(f, "points: must be above 0 and at most 1000, got %s", yamlpos.Text(f.Value))
			}
		case "visibility":
			c.Visibility = d.String(f)
			if c.Visibility != Visible && c.Visibility != Hidden {
				d.FailAt(f, "visibility: expected visible or hidden, got %q", c.Visibility)
			}
		case "hint":
			c.Hint = d.String(f)
		case "expect":
			c.Expect = d.String(f)
			e.parseExpect(d, f, &c)
		case "answer":
			c.Answer = d.String(f)
			if c.Answer != "" && !keyPattern.MatchString(c.Answer) {
				d.FailAt(f, "answer: %q must be a key of lower-case letters, digits and underscores, starting with a letter", c.Answer)
			}
		case "field":
			c.Field = d.String(f)
			if _, err := FieldType(c.Field); c.Field != "" && err != nil {
				d.FailAt(f, "field: %v", err)
			}
		case "correct":
			c.Correct = scalarText(d, f)
		case "tolerance":
			c.Tolerance, c.Relative = tolerance(d, f)
		case "seed_free":
			c.SeedFree = d.Bool(f)
		case "choices":
			for i, item := range d.List(f) {
				s := scalarText(d, item)
				if slices.ContainsFunc(c.Choices, func(x string) bool { return NormalChoice(x) == NormalChoice(s) }) {
					d.FailAt(item, "choices: %q is listed twice (choices are compared ignoring case, spaces, hyphens and underscores)", s)
				}
				_ = i
				c.Choices = append(c.Choices, s)
			}
		}
	}
	fail := func(format string, args ...any) { d.FailAt(item, format, args...) }
	if _, ok := has["name"]; !ok {
		fail("check: missing key \"name\"")
	}
	_, isExpect := has["expect"]
	_, isAnswer := has["answer"]
	switch {
	case isExpect && isAnswer:
		fail("check %q: has both expect and answer; a check is one or the other", c.Name)
	case !isExpect && !isAnswer:
		fail("check %q: needs expect (a report expression) or answer (a key of the answers file)", c.Name)
	case isExpect:
		for _, k := range []string{"field", "correct", "tolerance", "choices", "seed_free"} {
			if f, ok := has[k]; ok {
				d.FailAt(f, "%s: only an answer check takes %s", k, k)
			}
		}
	case isAnswer:
		e.checkAnswerCheck(d, item, has, &c)
	}
	return c
}

// checkAnswerCheck checks the keys of a prediction check.
func (e *Exercise) checkAnswerCheck(d *yamlpos.Decoder, item yamlpos.Entry, has map[string]yamlpos.Entry, c *Check) {
	if e.Kind != KindPrediction && e.Kind != "" {
		d.FailAt(has["answer"], "answer: only a prediction exercise has answer checks; this one is a %s exercise (use expect)", e.Kind)
	}
	_, isField := has["field"]
	_, isCorrect := has["correct"]
	switch {
	case isField == isCorrect:
		d.FailAt(item, "check %q: an answer check needs either field (judged against the engine) or correct (a fixed answer)", c.Name)
		return
	case isCorrect:
		if f, ok := has["seed_free"]; ok {
			d.FailAt(f, "seed_free: only an answer judged against the engine (field) takes seed_free; a correct answer is the same under every seed")
		}
		if f, ok := has["tolerance"]; ok {
			d.FailAt(f, "tolerance: only an answer judged against a number field takes a tolerance")
		}
		if len(c.Choices) > 0 && !slices.ContainsFunc(c.Choices, func(x string) bool { return NormalChoice(x) == NormalChoice(c.Correct) }) {
			d.FailAt(has["correct"], "correct: %q is not one of the choices %s", c.Correct, strings.Join(c.Choices, ", "))
		}
		return
	}
	t, err := FieldType(c.Field)
	if err != nil {
		return
	}
	if f, ok := has["tolerance"]; ok && t != TypeNumber {
		d.FailAt(f, "tolerance: field %s is a %s; only numbers take a tolerance", c.Field, t)
	}
	if f, ok := has["choices"]; ok && t == TypeNumber {
		d.FailAt(f, "choices: field %s is a number; choices are for texts and booleans", c.Field)
	}
	if t == TypeBool {
		for _, ch := range c.Choices {
			if ch != "true" && ch != "false" {
				d.FailAt(has["choices"], "choices: field %s is true or false, so the choices are too, got %q", c.Field, ch)
				break
			}
		}
	}
}

// scalarText is the text of a scalar: a string, or a number or boolean as
// written.
func scalarText(d *yamlpos.Decoder, f yamlpos.Entry) string {
	if n := f.Value; n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float" || n.Tag == "!!bool") {
		return n.Value
	}
	return d.String(f)
}

// tolerance reads an absolute (5) or relative (10%) tolerance.
func tolerance(d *yamlpos.Decoder, f yamlpos.Entry) (float64, bool) {
	if s, ok := yamlpos.String(f.Value); ok && strings.HasSuffix(s, "%") {
		p, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || p < 0 || p > 100 {
			d.FailAt(f, "tolerance: expected a number such as 3 or a percentage such as 5%%, got %q", s)
			return 0, false
		}
		return p / 100, true
	}
	t, ok := yamlpos.Number(f.Value)
	if !ok || t < 0 {
		d.FailAt(f, "tolerance: expected a number such as 3 or a percentage such as 5%%, got %s", yamlpos.Describe(f.Value))
		return 0, false
	}
	return t, false
}

// parseExpect parses an expect check's expression with the lab script's
// own parser and checks its field and value.
func (e *Exercise) parseExpect(d *yamlpos.Decoder, f yamlpos.Entry, c *Check) {
	if c.Expect == "" {
		return
	}
	line, col := f.Pos()
	if yamlpos.IsQuoted(f.Value) {
		col++
	}
	if strings.ContainsAny(c.Expect, "\r\n") {
		d.FailAt(f, "expect: the expression must be one line")
		return
	}
	const prefix = "expect "
	cmd, err := script.ParseLine(e.File, line, prefix+c.Expect)
	if err != nil {
		se := err.(*poserr.Error)
		d.Errs = append(d.Errs, &Problem{Kind: ErrBadPack, File: e.File, Line: line, Col: col + max(se.Col-1-len(prefix), 0), Msg: "expect: " + se.Msg})
		return
	}
	c.Expr = cmd.Expr
	t, err := FieldType(c.Expr.Field)
	if err != nil {
		d.FailAt(f, "expect: %v", err)
		return
	}
	switch v := c.Expr.Value; {
	case t == TypeNumber && v.Kind != script.Number:
		d.FailAt(f, "expect: %s is a number; compare it with a number, not %q", c.Expr.Field, v.Text)
	case t == TypeBool && v.Kind != script.Bool:
		d.FailAt(f, "expect: %s is true or false; compare it with true or false, not %q", c.Expr.Field, v.Text)
	case t != TypeNumber && c.Expr.Op != "==" && c.Expr.Op != "!=":
		d.FailAt(f, "expect: %s is a %s; only == and != compare it", c.Expr.Field, t)
	}
}
