package classroom

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/streamlab/streamlab/exercises"
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
		if err != nil || len(c.Students) != 1 || !c.Students[0].Grades[0].Answered {
			t.Fatalf("%+v %v", c, err)
		}
		return c.Students[0].Grades[0].Score
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
