package palette

import (
	"slices"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/engine/script"
)

// Verbs are the lab-script verbs, in the order the help lists them.
var Verbs = []string{script.VerbRun, script.VerbStep, script.VerbKill, script.VerbFail, script.VerbRestart,
	script.VerbSet, script.VerbJob, script.VerbExpect, script.VerbReport, script.VerbPause, script.VerbResume, script.VerbWhy}

// fields are the report fields expect knows by short name.
var fields = []string{"delivered", "unique", "duplicates", "lost", "correct", "expected", "rows",
	"job.state", "source.records", "sink.delivered", "sink.lost", "sink.duplicates", "sink.correct", "recovery.failures"}

// candidates lists what may stand at word position i of a line whose
// earlier words are words; nodes are the job's node names.
func candidates(words []string, i int, nodes []string) []string {
	if i == 0 {
		return Verbs
	}
	switch words[0] {
	case script.VerbSet:
		if i == 1 {
			keys := make([]string, 0, len(lab.Settings()))
			for _, s := range lab.Settings() {
				keys = append(keys, s.Key)
			}
			return keys
		}
		if i == 2 {
			return lab.Choices(words[1])
		}
	case script.VerbKill, script.VerbFail, script.VerbRestart:
		if i == 1 {
			return nodes
		}
	case script.VerbJob:
		if i == 1 {
			return jobspec.Names()
		}
	case script.VerbExpect:
		if i == 1 {
			return fields
		}
	}
	return nil
}

// complete completes the last word of line: with one match it is filled in
// and a space added; with several, their longest common prefix. It returns
// the new line and the matches.
func complete(line string, nodes []string) (string, []string) {
	words := strings.Fields(line)
	cur := ""
	if len(words) > 0 && !strings.HasSuffix(line, " ") {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	var matches []string
	for _, c := range candidates(words, len(words), nodes) {
		if strings.HasPrefix(c, cur) {
			matches = append(matches, c)
		}
	}
	if len(matches) == 0 {
		return line, nil
	}
	base := strings.TrimSuffix(line, cur)
	if len(matches) == 1 {
		return base + matches[0] + " ", matches
	}
	return base + commonPrefix(matches), matches
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// cycle replaces the last word of line with the match after the one it
// holds, for a tab pressed when completion can go no further.
func cycle(line string, matches []string) string {
	words := strings.Fields(line)
	cur := ""
	if len(words) > 0 && !strings.HasSuffix(line, " ") {
		cur = words[len(words)-1]
	}
	next := matches[0]
	if i := slices.Index(matches, cur); i >= 0 {
		next = matches[(i+1)%len(matches)]
	}
	return strings.TrimSuffix(line, cur) + next
}
