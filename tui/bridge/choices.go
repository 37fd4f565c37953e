package bridge

import (
	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
)

// Choices says, for one setting's candidate values, which the engine would
// refuse with the current settings and why, and which it would run with a
// weaker guarantee than asked (the note it gives). The pickers show the
// refused ones disabled, with the reason, instead of letting the learner
// choose a job that cannot start.
type Choices struct {
	Key     string
	Refused map[string]string
	Notes   map[string]string
}

// checkChoices works out Choices for key's values: each is tried on a
// throwaway session configured as this one with the value set, and asked
// of engine.Validate (nothing is built, no records run).
func (b *Bridge) checkChoices(key string, values []string) *Choices {
	ch := &Choices{Key: key, Refused: map[string]string{}, Notes: map[string]string{}}
	for _, v := range values {
		reason, note := b.tryChoice("set " + key + " " + v)
		if reason != "" {
			ch.Refused[v] = reason
		} else if note != "" {
			ch.Notes[v] = note
		}
	}
	return ch
}

// tryChoice validates the job with line applied to the session's settings
// and returns the engine's refusal, or the note on a weaker guarantee.
func (b *Bridge) tryChoice(line string) (reason, note string) {
	c, err := script.ParseLine(b.file(), 1, line)
	if err != nil {
		return plainReason(err), ""
	}
	sess := lab.NewSession(b.file(), lab.Options{Executor: b.opts.Executor, MemoryBudget: b.opts.MemoryBudget})
	defer sess.Close()
	for i, l := range applyToPrelude(b.rec.prelude, c) {
		pc, err := script.ParseLine(b.file(), i+1, l)
		if err == nil {
			err = sess.Exec(b.runContext(), pc)
		}
		if err != nil {
			return plainReason(err), ""
		}
	}
	v, err := engine.Validate(sess.Spec(), sess.Config())
	if err != nil {
		return engine.ConfigReason(err), ""
	}
	return "", v.Note
}

// plainReason is a refused setting's error as a sentence, without its
// position.
func plainReason(err error) string {
	if le, ok := poserr.As(err, lab.ErrBadInput); ok {
		return le.Msg
	}
	return plain(err).Error()
}
