package predict_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/grade"
	"github.com/streamlab/streamlab/tui/predict"
	"github.com/streamlab/streamlab/tui/styles"
)

// make golden passes -update to every tui package.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

func keys(m predict.Model, s string) (predict.Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, r := range s {
		m, _, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m, cmd
}

func press(m predict.Model, t tea.KeyType) (predict.Model, predict.Out, tea.Cmd) {
	return m.Update(tea.KeyMsg{Type: t})
}

func view(m predict.Model) string { return ansi.Strip(strings.Join(m.Lines(), "\n")) }

// TestPredictObserveExplain answers gap-recovery in the form: the
// predictions go in before the scenario runs, the observed values of the
// learner's seed come out beside them, the why question is asked, and the
// answers are graded and saved as answers.yaml that grade reads.
func TestPredictObserveExplain(t *testing.T) {
	ex, err := exercises.Lookup("gap-recovery")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const seed = 4242
	m := predict.New(styles.New(styles.Mono), ex, seed, dir)
	m.SetSize(60, 40)
	if !m.Active() || !m.Capturing() || m.Phase() != predict.Predicting {
		t.Fatal("the form does not open on the predictions")
	}
	v := view(m)
	if !strings.Contains(v, "has not run yet") || !strings.Contains(v, "fail count[1] at 1200") || strings.Contains(v, "observed") {
		t.Errorf("the form before the run:\n%s", v)
	}
	// Submitting with an empty prediction is refused.
	for range 3 {
		m, _, _ = press(m, tea.KeyEnter)
	}
	m, out, cmd := press(m, tea.KeyEnter)
	if m.Phase() != predict.Predicting || cmd != nil || !strings.Contains(view(m), "predict every value first") {
		t.Fatalf("empty predictions submitted: %v\n%s", m.Phase(), view(m))
	}
	// Type the four predictions: a number, a number, a number, a choice.
	m, _, _ = press(m, tea.KeyTab) // back to the first
	m, _ = keys(m, "400")
	m, _, _ = press(m, tea.KeyTab)
	m, _ = keys(m, "4x")
	m, _, _ = press(m, tea.KeyBackspace)
	m, _ = keys(m, "00")
	m, _, _ = press(m, tea.KeyTab)
	m, _ = keys(m, "0")
	m, _, _ = press(m, tea.KeyTab)
	m, _, _ = press(m, tea.KeyRight) // true
	m, _, _ = press(m, tea.KeyRight) // false
	ps := m.Predictions()
	if ps[0].Value != "400" || ps[1].Value != "400" || ps[2].Value != "0" || ps[3].Value != "false" {
		t.Fatalf("typed: %+v", ps)
	}
	m, out, cmd = press(m, tea.KeyEnter)
	if m.Phase() != predict.Observing || len(out.Play) == 0 || out.Play[len(out.Play)-1] != "run 4000" || cmd == nil {
		t.Fatalf("submit: phase %v, play %q", m.Phase(), out.Play)
	}
	m, _, _ = m.Update(cmd())
	if m.Phase() != predict.Explaining {
		t.Fatalf("after observing: %v\n%s", m.Phase(), view(m))
	}
	// The observed values are the learner's seed's.
	key, _ := grade.Key(context.Background(), ex, grade.Options{Seed: func() *int64 { s := int64(seed); return &s }()})
	for _, f := range m.Predictions() {
		if f.Observed == "" || !strings.Contains(string(key), f.Key+": "+f.Observed) {
			t.Errorf("%s observed %q; the key under seed %d:\n%s", f.Key, f.Observed, seed, key)
		}
	}
	v = view(m)
	if !strings.Contains(v, "predicted") || !strings.Contains(v, "observed") || !strings.Contains(v, "Why?") || !strings.Contains(v, "state-and-input-gone") {
		t.Errorf("observe and explain:\n%s", v)
	}
	// Choose the answer to the why question and submit.
	m, _, _ = press(m, tea.KeyRight)
	if m.Questions()[0].Value != "state-and-input-gone" {
		t.Fatalf("choice: %+v", m.Questions())
	}
	m, _, cmd = press(m, tea.KeyEnter)
	if cmd == nil {
		t.Fatal("no grading")
	}
	m, _, _ = m.Update(cmd())
	res := m.Result()
	if m.Phase() != predict.Done || res == nil || m.Capturing() {
		t.Fatalf("done: %v %+v\n%s", m.Phase(), res, view(m))
	}
	// The why question scored; the saved file grades the same.
	why := res.Checks[len(res.Checks)-1]
	if !why.Passed {
		t.Errorf("why: %+v", why)
	}
	saved := filepath.Join(dir, ex.ID, ex.Answer)
	if _, err := os.Stat(saved); err != nil || !strings.Contains(view(m), "answers saved in") {
		t.Fatalf("not saved: %v\n%s", err, view(m))
	}
	s := int64(seed)
	again, err := grade.Dir(context.Background(), ex, dir, grade.Options{Seed: &s})
	if err != nil || again.Score != res.Score || again.Error != "" {
		t.Errorf("grade of the saved answers: %+v, %v; the form's %g", again, err, res.Score)
	}
}

func TestAnswersYAML(t *testing.T) {
	ex, _ := exercises.Lookup("late-data")
	p, q := predict.Fields(ex)
	if len(p) != 4 || len(q) != 2 || q[0].Key != "mode" || len(q[0].Choices) != 3 {
		t.Fatalf("fields: %+v %+v", p, q)
	}
	p[0].Value, p[1].Value, q[0].Value = "12", "a b", "append"
	got := string(predict.AnswersYAML(ex, append(p, q...)))
	for _, want := range []string{"late: 12\n", "dropped: \"a b\"\n", "rows:\n", "mode: \"append\"\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("answers.yaml lacks %q:\n%s", want, got)
		}
	}
}
