package classroom

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises"
	"github.com/streamlab/streamlab/exercises/pack"
)

// TestGradesCache grades a kept answer, keeps the grade while the file is
// unchanged, and grades it again once the student saves another.
func TestGradesCache(t *testing.T) {
	st := State{Dir: t.TempDir()}
	key := newKey(t).PublicKey()
	if _, err := st.Login(key, "ann", time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	id := StudentID(key)
	ex, err := exercises.Lookup("dedup-filter")
	if err != nil {
		t.Fatal(err)
	}
	save := func(answer string) {
		t.Helper()
		if err := st.SaveAnswer(id, ex.ID, ex.Answer, []byte(answer)); err != nil {
			t.Fatal(err)
		}
	}
	score := func(g *Grades) float64 {
		t.Helper()
		c, err := g.Status(context.Background(), st, "")
		if err != nil || len(c.Students) != 1 || !gradeOf(c.Students[0], ex.ID).Answered {
			t.Fatalf("%+v %v", c, err)
		}
		return gradeOf(c.Students[0], ex.ID).Score
	}
	save("set filter none\n")
	g := &Grades{}
	none := score(g)
	// The same file is not graded again: a grade planted in the cache stays.
	path := filepath.Join(st.AnswersDir(id), ex.ID, ex.Answer)
	g.mu.Lock()
	c := g.m[path]
	c.grade.Score = -1
	g.m[path] = c
	g.mu.Unlock()
	if s := score(g); s != -1 {
		t.Errorf("an unchanged answer was graded again: %g", s)
	}
	save("set filter exact\n")
	os.Chtimes(path, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	exact := score(g)
	if exact == -1 || exact <= none || exact != score(nil) {
		t.Errorf("scores: none %g, exact %g (cached), %g (fresh)", none, exact, score(nil))
	}
}

// TestGradeOptions: answers are graded again under the seed the lab ran
// them under.
func TestGradeOptions(t *testing.T) {
	pred := &pack.Exercise{ID: "p", Kind: pack.KindPrediction}
	conf := &pack.Exercise{ID: "c", Kind: pack.KindConfiguration}
	if o := gradeOptions(pred, "id", "", 42); o.Seed == nil || *o.Seed != 42 || o.Secret != "" {
		t.Errorf("a prediction without a secret: %+v", o)
	}
	if o := gradeOptions(conf, "id", "", 42); o.Seed != nil || o.Secret != "" {
		t.Errorf("a configuration without a secret: %+v", o)
	}
	for _, ex := range []*pack.Exercise{pred, conf} {
		if o := gradeOptions(ex, "id", "k", 42); o.Seed != nil || o.Student != "id" || o.Secret != "k" {
			t.Errorf("%s with a secret: %+v", ex.ID, o)
		}
	}
}
