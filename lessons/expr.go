package lessons

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
)

// A check's answer is computed from the reports of its named runs. sum is
// `TERM [+|- TERM]...`, a term `FACTOR [*|/ FACTOR]...` evaluated from left
// to right, a factor a number or RUN.FIELD (`main.sink.lost`): `*` and `/`
// bind tighter than `+` and `-`, so `100 * a.x / a.y - 5` is a percentage
// minus five. A condition is `SUM OP SUM` with one of == != < <= > >=, or
// several joined by `and`. Tokens are separated by spaces.
type sum []term

type term struct {
	neg     bool
	factors []factor
}

type factor struct {
	div        bool // divides the product so far (else multiplies)
	num        float64
	run, field string // a reference when run != ""
}

// condition holds when every comparison holds.
type condition []comparison

type comparison struct {
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
	cur := term{}
	for i, tok := range toks {
		if i%2 == 1 {
			switch tok {
			case "+", "-":
				s = append(s, cur)
				cur = term{neg: tok == "-"}
			case "*", "/":
			default:
				return nil, fmt.Errorf("expected +, -, * or / after %q, got %q", toks[i-1], tok)
			}
			continue
		}
		f, err := parseFactor(tok, runs)
		if err != nil {
			return nil, err
		}
		f.div = i > 0 && toks[i-1] == "/"
		cur.factors = append(cur.factors, f)
	}
	if len(toks)%2 == 0 {
		return nil, fmt.Errorf("expected a term after the last %q", toks[len(toks)-1])
	}
	return append(s, cur), nil
}

func parseFactor(tok string, runs map[string]string) (factor, error) {
	if n, err := strconv.ParseFloat(tok, 64); err == nil {
		return factor{num: n}, nil
	}
	run, field, ok := strings.Cut(tok, ".")
	if !ok || run == "" || field == "" {
		return factor{}, fmt.Errorf("expected a number or RUN.FIELD such as main.sink.lost, got %q", tok)
	}
	if _, known := runs[run]; !known {
		return factor{}, fmt.Errorf("%q names no run of this check; its runs are %s", run, runNames(runs))
	}
	if !knownField(field) {
		return factor{}, fmt.Errorf("%q is not a report field", field)
	}
	return factor{run: run, field: field}, nil
}

// parseCondition reads `SUM OP SUM [and SUM OP SUM]...`.
func parseCondition(text string, runs map[string]string) (condition, error) {
	var c condition
	var part []string
	for i, tok := range append(strings.Fields(text), "and") {
		if tok != "and" {
			part = append(part, tok)
			continue
		}
		if len(part) == 0 && i > 0 {
			return nil, fmt.Errorf("expected a comparison on each side of \"and\"")
		}
		cmp, err := parseComparison(strings.Join(part, " "), runs)
		if err != nil {
			return nil, err
		}
		c, part = append(c, cmp), nil
	}
	return c, nil
}

func parseComparison(text string, runs map[string]string) (comparison, error) {
	toks := strings.Fields(text)
	for i, tok := range toks {
		if comparisons[tok] {
			left, err := parseSum(strings.Join(toks[:i], " "), runs)
			if err != nil {
				return comparison{}, err
			}
			right, err := parseSum(strings.Join(toks[i+1:], " "), runs)
			if err != nil {
				return comparison{}, err
			}
			return comparison{left: left, right: right, op: tok}, nil
		}
	}
	return comparison{}, fmt.Errorf("expected a comparison SUM OP SUM, e.g. \"ub.recovery.replayed > ps.recovery.replayed\", or several joined by \"and\"")
}

// eval computes the sum over the runs' reports. Dividing by zero is an
// error, not an infinity.
func (s sum) eval(reps map[string]*report.Report) (float64, error) {
	var total float64
	for _, t := range s {
		v := 1.0
		for i, f := range t.factors {
			x := f.num
			if f.run != "" {
				var err error
				if x, err = numberField(reps[f.run], f.field); err != nil {
					return 0, fmt.Errorf("%s.%s: %w", f.run, f.field, err)
				}
			}
			switch {
			case i == 0:
				v = x
			case f.div && x == 0:
				return 0, fmt.Errorf("division by zero")
			case f.div:
				v /= x
			default:
				v *= x
			}
		}
		if t.neg {
			v = -v
		}
		total += v
	}
	return total, nil
}

func (c condition) eval(reps map[string]*report.Report) (bool, error) {
	for _, cmp := range c {
		a, err := cmp.left.eval(reps)
		if err != nil {
			return false, err
		}
		b, err := cmp.right.eval(reps)
		if err != nil {
			return false, err
		}
		ok, err := lab.Compare(a, cmp.op, script.Value{Kind: script.Number, Num: b})
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// numberField reads a numeric report field.
func numberField(rep *report.Report, field string) (float64, error) {
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
func fillPlaceholders(text string, reps map[string]*report.Report) string {
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

var sampleReport = &report.Report{
	Job:    report.JobReport{Error: "e"},
	Config: report.ConfigReport{Note: "n"},
}
