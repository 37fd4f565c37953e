package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The types a comparable field has.
const (
	TypeNumber = "number"
	TypeBool   = "bool"
	TypeString = "string"
)

// Lookup reads the dotted field name (sink.lost) off rep's JSON form, so
// that the names are exactly the contract's: a float64, a bool or a
// string. It is the one way `expect`, lesson goals and graders read a
// field.
func Lookup(rep *Report, name string) (any, error) {
	root, err := tree(rep)
	if err != nil {
		return nil, err
	}
	var cur any = root
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

// Fields lists rep's comparable fields (numbers, booleans and texts),
// sorted; a field the JSON leaves out when unset is not among them.
func Fields(rep *Report) []string {
	types := Types(rep)
	out := make([]string, 0, len(types))
	for name := range types {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Types maps each of rep's comparable fields to its type.
func Types(rep *Report) map[string]string {
	root, _ := tree(rep)
	types := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
		case float64:
			types[prefix] = TypeNumber
		case bool:
			types[prefix] = TypeBool
		case string:
			types[prefix] = TypeString
		}
	}
	walk("", root)
	return types
}

// Format writes a field's value as the report shows it: numbers in their
// shortest exact form.
func Format(v any) string {
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

// tree is rep's JSON form as maps, the shape the field names follow.
func tree(rep *Report) (map[string]any, error) {
	data, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	return root, nil
}
