package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
)

// shortFields are the sink fields a script may name without "sink.".
var shortFields = map[string]string{
	"delivered": "sink.delivered", "unique": "sink.unique", "duplicates": "sink.duplicates",
	"lost": "sink.lost", "correct": "sink.correct", "rows": "sink.rows", "expected": "sink.expected",
}

// Field looks a dotted report field up, as `expect` and graders see it: the
// report's JSON form, so the names are exactly those the README's Report fields list.
func Field(rep *report.Report, name string) (any, error) {
	if full, ok := shortFields[name]; ok {
		name = full
	}
	data, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	var cur any
	if err := json.Unmarshal(data, &cur); err != nil {
		return nil, err
	}
	for _, part := range strings.Split(name, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("unknown report field %q; expected one of %s", name, strings.Join(Fields(rep), ", "))
		}
		if cur, ok = obj[part]; !ok {
			return nil, fmt.Errorf("unknown report field %q; expected one of %s", name, strings.Join(Fields(rep), ", "))
		}
	}
	switch cur.(type) {
	case float64, bool, string:
		return cur, nil
	}
	return nil, fmt.Errorf("report field %q is not a number, a boolean or a text", name)
}

// Fields lists every comparable report field, sorted.
func Fields(rep *report.Report) []string {
	data, _ := json.Marshal(rep)
	var root map[string]any
	_ = json.Unmarshal(data, &root)
	var out []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
		case float64, bool, string:
			out = append(out, prefix)
		}
	}
	walk("", root)
	sort.Strings(out)
	return out
}

func (s *Session) expect(ctx context.Context, c script.Command) error {
	rt, err := s.runtime()
	if err != nil {
		return s.startErr(c, err)
	}
	// The report without the expectations so far: no field names them,
	// and carrying them made n expect lines cost n² (10 000 took a minute).
	r, err := rt.ReportContext(ctx)
	if err != nil {
		return err
	}
	rep := &r
	e := c.Expr
	actual, err := Field(rep, e.Field)
	if err != nil {
		return s.errAt(c.Args[0].Line, c.Args[0].Col, "%v", err)
	}
	ok, err := Compare(actual, e.Op, e.Value)
	if err != nil {
		return s.errAt(c.Args[len(c.Args)-1].Line, c.Args[len(c.Args)-1].Col, "%s: %v", e.Field, err)
	}
	s.expectations = append(s.expectations, report.Expectation{Line: c.Line, Expr: e.Text, OK: ok, Actual: render(actual)})
	return nil
}

func render(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	}
	return fmt.Sprint(v)
}

// Compare evaluates `expect`'s comparison actual OP want, with actual a
// value from Field: numbers with any operator, texts and booleans with ==
// and != only; mismatched types are an error.
func Compare(actual any, op string, want script.Value) (bool, error) {
	switch a := actual.(type) {
	case float64:
		if want.Kind != script.Number {
			return false, fmt.Errorf("is a number; expected a number to compare with, got %q", want.Text)
		}
		b := want.Num
		switch op {
		case "==":
			return a == b, nil
		case "!=":
			return a != b, nil
		case "<":
			return a < b, nil
		case "<=":
			return a <= b, nil
		case ">":
			return a > b, nil
		case ">=":
			return a >= b, nil
		}
	case bool:
		if want.Kind != script.Bool {
			return false, fmt.Errorf("is true or false; expected true or false to compare with, got %q", want.Text)
		}
		return equality(op, a == want.Bool)
	case string:
		return equality(op, a == want.Text)
	}
	return false, fmt.Errorf("cannot compare")
}

func equality(op string, eq bool) (bool, error) {
	switch op {
	case "==":
		return eq, nil
	case "!=":
		return !eq, nil
	}
	return false, fmt.Errorf("only == and != compare texts and booleans, got %s", op)
}
