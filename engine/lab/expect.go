package lab

import (
	"context"
	"fmt"

	"github.com/streamlab/streamlab/engine/report"
	"github.com/streamlab/streamlab/engine/script"
)

// shortFields are the sink fields a script may name without "sink.".
var shortFields = map[string]string{
	"delivered": "sink.delivered", "unique": "sink.unique", "duplicates": "sink.duplicates",
	"lost": "sink.lost", "correct": "sink.correct", "rows": "sink.rows", "expected": "sink.expected",
}

// Field looks a dotted report field up, as `expect` and graders see it,
// with the sink's fields also by their short names (lost for sink.lost).
func Field(rep *report.Report, name string) (any, error) {
	if full, ok := shortFields[name]; ok {
		name = full
	}
	return report.Lookup(rep, name)
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
	s.expectations = append(s.expectations, report.Expectation{Line: c.Line, Expr: e.Text, OK: ok, Actual: report.Format(actual)})
	return nil
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
