package answer

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/exercises/pack"
	"github.com/streamlab/streamlab/internal/poserr"
)

// checkJobChanges holds a job file answer to the parts of the job the
// exercise allows to change (its allow list names them as JobParts does):
// the rest must be as in the starter job file, so that an answer counts the
// same actions over the same source rather than removing what makes the
// exercise hard (a filter that drops every action late data would touch).
func checkJobChanges(ex *pack.Exercise, file string, data []byte, spec jobspec.Spec) error {
	starter, err := ex.Starter()
	if err != nil {
		return err
	}
	orig, err := jobspec.Parse(ex.FileName(ex.Answer), starter)
	if err != nil {
		return err
	}
	before, after := JobParts(orig), JobParts(spec)
	var changed []string
	for k, v := range after {
		if before[k] != v {
			changed = append(changed, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			changed = append(changed, k)
		}
	}
	sort.Strings(changed)
	var bad []string
	for _, k := range changed {
		if !allowed(ex.Allow, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	// Name a change the file shows: a default that follows another key
	// (a window's slide) is not written where the change is.
	k := bad[0]
	for _, b := range bad {
		if _, _, ok := find(data, b[strings.LastIndex(b, ".")+1:]); ok {
			k = b
			break
		}
	}
	line, col := locate(data, k)
	return &poserr.Error{Kind: ErrBadAnswer, File: file, Line: line, Col: col, Msg: fmt.Sprintf("the answer changes %s; this exercise lets you change only %s",
		k, strings.Join(ex.Allow, ", "))}
}

// allowed reports whether part k may change: an allow entry names it or a
// part that holds it (source allows source.watermark).
func allowed(allow []string, k string) bool {
	return slices.ContainsFunc(allow, func(a string) bool { return k == a || strings.HasPrefix(k, a+".") })
}

// JobParts flattens a job spec into dotted parts and their values:
// name, source.watermark, operators.count.window, connector, driver,
// dependencies.0.version, … Operators are named by their name, so that
// reordering is a change of operators.order.
func JobParts(s jobspec.Spec) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(join(prefix, strings.ToLower(k)), x)
			}
		case []any:
			if len(v) == 0 {
				out[prefix] = "[]"
			}
			for i, x := range v {
				walk(join(prefix, fmt.Sprint(i)), x)
			}
		default:
			b, _ := json.Marshal(v)
			out[prefix] = string(b)
		}
	}
	ops := s.Operators
	s.Operators = nil
	var root any
	b, _ := json.Marshal(s)
	_ = json.Unmarshal(b, &root)
	walk("", root)
	delete(out, "operators")
	var order []string
	for _, op := range ops {
		order = append(order, op.Name)
		var m any
		b, _ := json.Marshal(op)
		_ = json.Unmarshal(b, &m)
		walk("operators."+op.Name, m)
	}
	out["operators.order"] = strings.Join(order, ",")
	return out
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// locate finds the line of the last named part of k in a job file, for the
// error's position; 1:1 when it is not written there (a part left out).
func locate(data []byte, k string) (int, int) {
	parts := strings.Split(k, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		if line, col, ok := find(data, parts[i]); ok {
			return line, col
		}
	}
	return 1, 1
}

// find finds a key (or an operator's name) at the start of a line.
func find(data []byte, key string) (int, int, bool) {
	re := regexp.MustCompile(`(?mi)^([ \t]*(?:-[ \t]*)?(?:name:[ \t]*)?)` + regexp.QuoteMeta(key) + `\b`)
	m := re.FindSubmatchIndex(data)
	if m == nil {
		return 0, 0, false
	}
	return 1 + strings.Count(string(data[:m[0]]), "\n"), m[3] - m[0] + 1, true
}
