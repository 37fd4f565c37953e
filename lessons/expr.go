package lessons

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// A check's answer is computed from the reports of its named runs. sum is
// `TERM [+|- TERM]...`, a term a number or RUN.FIELD (`main.sink.lost`);
// condition is `SUM OP SUM` with one of == != < <= > >=. Tokens are
// separated by spaces.
type sum []term

type term struct {
	neg        bool
	num        float64
	run, field string // a reference when run != ""
}

type condition struct {
	left, right sum
	op          string
}

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// parseSum reads a sum whose references name one of runs.
func parseSum(text string, runs map[string]string) (sum, error) {
	toks := strings.Fields(text)
	if len(toks) == 0 {
		return nil, fmt.Errorf("expected a number or RUN.FIELD, e.g. main.sink.lost")
	}
	var s sum
	neg := false
	for i, tok := range toks {
		if i%2 == 1 {
			if tok != "+" && tok != "-" {
				return nil, fmt.Errorf("expected + or - after %q, got %q", toks[i-1], tok)
			}
			neg = tok == "-"
			continue
		}
		t, err := parseTerm(tok, runs)
		if err != nil {
			return nil, err
		}
		t.neg = neg
		s = append(s, t)
	}
	if len(toks)%2 == 0 {
		return nil, fmt.Errorf("expected a term after the last %q", toks[len(toks)-1])
	}
	return s, nil
}

func parseTerm(tok string, runs map[string]string) (term, error) {
	if n, err := strconv.ParseFloat(tok, 64); err == nil {
		return term{num: n}, nil
	}
	run, field, ok := strings.Cut(tok, ".")
	if !ok || run == "" || field == "" {
		return term{}, fmt.Errorf("expected a number or RUN.FIELD such as main.sink.lost, got %q", tok)
	}
	if _, known := runs[run]; !known {
		return term{}, fmt.Errorf("%q names no run of this check; its runs are %s", run, runNames(runs))
	}
	if !knownField(field) {
		return term{}, fmt.Errorf("%q is not a report field", field)
	}
	return term{run: run, field: field}, nil
}

// parseCondition reads `SUM OP SUM`.
func parseCondition(text string, runs map[string]string) (condition, error) {
	toks := strings.Fields(text)
	for i, tok := range toks {
		if comparisons[tok] {
			left, err := parseSum(strings.Join(toks[:i], " "), runs)
			if err != nil {
				return condition{}, err
			}
			right, err := parseSum(strings.Join(toks[i+1:], " "), runs)
			if err != nil {
				return condition{}, err
			}
			return condition{left: left, right: right, op: tok}, nil
		}
	}
	return condition{}, fmt.Errorf("expected a comparison SUM OP SUM, e.g. \"ub.recovery.replayed > ps.recovery.replayed\"")
}

// eval computes the sum over the runs' reports.
func (s sum) eval(reps map[string]*engine.Report) (float64, error) {
	var total float64
	for _, t := range s {
		v := t.num
		if t.run != "" {
			var err error
			if v, err = numberField(reps[t.run], t.field); err != nil {
				return 0, fmt.Errorf("%s.%s: %w", t.run, t.field, err)
			}
		}
		if t.neg {
			v = -v
		}
		total += v
	}
	return total, nil
}

func (c condition) eval(reps map[string]*engine.Report) (bool, error) {
	a, err := c.left.eval(reps)
	if err != nil {
		return false, err
	}
	b, err := c.right.eval(reps)
	if err != nil {
		return false, err
	}
	return lab.Compare(a, c.op, script.Value{Kind: script.Number, Num: b})
}

// numberField reads a numeric report field.
func numberField(rep *engine.Report, field string) (float64, error) {
	if rep == nil {
		return 0, fmt.Errorf("no report")
	}
	v, err := lab.Field(rep, field)
	if err != nil {
		return 0, err
	}
	n, ok := v.(float64)
	if !ok {
		return 0, fmt.Errorf("is %v, not a number", v)
	}
	return n, nil
}

// placeholder is `{RUN.FIELD}` in an explanation.
var placeholder = regexp.MustCompile(`\{([a-z][a-z0-9_-]*)\.([a-z0-9_.]+)\}`)

// checkPlaceholders reports the first placeholder in text that names no
// run or no report field.
func checkPlaceholders(text string, runs map[string]string) error {
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		if _, ok := runs[m[1]]; !ok {
			return fmt.Errorf("placeholder %s names no run of this check; its runs are %s", m[0], runNames(runs))
		}
		if !knownField(m[2]) {
			return fmt.Errorf("placeholder %s names no report field", m[0])
		}
	}
	return nil
}

// fillPlaceholders replaces each `{RUN.FIELD}` with the field's value.
func fillPlaceholders(text string, reps map[string]*engine.Report) string {
	return placeholder.ReplaceAllStringFunc(text, func(p string) string {
		m := placeholder.FindStringSubmatch(p)
		rep := reps[m[1]]
		if rep == nil {
			return p
		}
		v, err := lab.Field(rep, m[2])
		if err != nil {
			return p
		}
		return formatValue(v)
	})
}

func formatValue(v any) string {
	switch v := v.(type) {
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return strconv.FormatFloat(v, 'g', 4, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(v)
}

func runNames(runs map[string]string) string {
	return strings.Join(slices.Sorted(maps.Keys(runs)), ", ")
}

// knownField reports whether a report has the field: every field of a
// report whose optional texts are filled in, and the short sink names.
func knownField(name string) bool {
	_, err := lab.Field(sampleReport, name)
	return err == nil
}

var sampleReport = &engine.Report{
	Job:    engine.JobReport{Error: "e"},
	Config: engine.ConfigReport{Note: "n"},
}
