package lab

import (
	"errors"
	"io"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/script"
)

// Why explains one sink row (`why ROW`): its provenance as the engine's
// lineage has it. A row that does not parse or that neither the sink nor
// the failure-free run has is bad input at the row's column.
func (s *Session) Why(c script.Command) (engine.Provenance, error) {
	if len(c.Args) != 1 {
		return engine.Provenance{}, s.errAt(c.Line, c.Col, "why needs a row: %s", script.RowUsage)
	}
	arg := c.Args[0]
	return s.Explain(arg.Text, arg.Line, arg.Col)
}

// Explain explains the row text names; line and col place its errors.
func (s *Session) Explain(text string, line, col int) (engine.Provenance, error) {
	row, err := script.ParseRow(text)
	if err != nil {
		return engine.Provenance{}, s.errAt(line, col, "%v", err)
	}
	if s.rt == nil {
		return engine.Provenance{}, s.errAt(line, col, "why %s: nothing has run yet, so the sink has no rows; run first", row)
	}
	p, err := s.rt.Explain(row)
	if errors.Is(err, engine.ErrNoSuchRow) {
		return engine.Provenance{}, s.errAt(line, col, "%v", err)
	}
	return p, err
}

// why runs `why ROW` in a script: the explanation goes where reports go.
func (s *Session) why(c script.Command) error {
	p, err := s.Why(c)
	if err != nil || s.opts.Log == nil {
		return err
	}
	_, err = io.WriteString(s.opts.Log, p.Text())
	return err
}
