package lab_test

import (
	"context"
	"slices"
	"testing"

	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// TestEveryChoiceIsAValueSetTakes: what the pickers and completion offer
// comes from the registry, so each choice must be a value `set` accepts
// (on a job it fits), and each setting's values read as its choices.
func TestEveryChoiceIsAValueSetTakes(t *testing.T) {
	offered := 0
	for _, st := range lab.Settings() {
		for _, c := range st.Choices {
			offered++
			s := lab.NewSession("t.lab", lab.Options{})
			for i, line := range []string{"job clicks", "set " + st.Key + " " + c.Value} {
				cmd, err := script.ParseLine("t.lab", i+1, line)
				if err == nil {
					err = s.Exec(context.Background(), cmd)
				}
				if err != nil {
					t.Errorf("the choice %q of %s is refused: %v", c.Value, st.Key, err)
				}
			}
			s.Close()
			if c.Doc == "" {
				t.Errorf("the choice %q of %s says nothing about itself", c.Value, st.Key)
			}
		}
	}
	if offered == 0 {
		t.Fatal("no setting offers a choice")
	}
	if got := lab.Choices("filter"); !slices.Equal(got, []string{"none", "exact", "bloom"}) {
		t.Errorf("completion after set filter offers %q: each choice's first word, once", got)
	}
	if st, _ := lab.LookupSetting("mode"); st.Values != "append | update | complete" {
		t.Errorf("mode's values read %q, not its choices", st.Values)
	}
	if lab.Choices("seed") != nil {
		t.Error("seed takes a number, not a choice")
	}
}
