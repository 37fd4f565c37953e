// Package reportview shows the run's report inside the lab: every field of
// the JSON report under the dotted name that lessons, exercises and
// `expect` use (recovery.lost_in_flight, window.dropped_late, config.note),
// grouped by section as the text report is, so a learner reads any number
// a lesson asks for without leaving the lab. The fields come from the
// report's own JSON encoding, so a field the engine adds appears here
// without a change.
package reportview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/engine/filter"
	"github.com/streamlab/streamlab/engine/report"
)

// Section is one top-level part of the report (job, config, source, …).
type Section struct {
	Name   string
	Fields []Field
}

// Field is one report field: Key is its name within the section, Value its
// value for a person to read (the number `expect` compares, fractions
// rounded to four digits, an event time as a time with its number).
type Field struct {
	Key, Value string
}

// Name is the field's full dotted name.
func (f Field) Name(s Section) string { return s.Name + "." + f.Key }

// Sections flattens rep into its sections, in the JSON report's order.
func Sections(rep *report.Report) ([]Section, error) {
	raw, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var top orderedObject
	if err := dec.Decode(&top); err != nil {
		return nil, err
	}
	var out []Section
	for _, kv := range top {
		sec := Section{Name: kv.key}
		switch v := kv.value.(type) {
		case orderedObject:
			for _, f := range v {
				flatten(&sec, f.key, f.value)
			}
		case []any:
			for i, item := range v {
				sec.Fields = append(sec.Fields, Field{Key: strconv.Itoa(i + 1), Value: expectation(item)})
			}
			if len(v) == 0 {
				sec.Fields = append(sec.Fields, Field{Key: "(none)", Value: ""})
			}
		default:
			sec.Fields = append(sec.Fields, Field{Key: kv.key, Value: scalar(v)})
		}
		out = append(out, sec)
	}
	return readable(out), nil
}

// unixMS are the fields that hold an event time in Unix milliseconds.
var unixMS = map[string]bool{"window.watermark": true}

// bitFilters are the filter kinds whose fill estimates their size.
var bitFilters = map[string]bool{filter.KindBloom: true, filter.KindRotating: true}

// readable writes an event time as the text report does, with its number
// for expect, and says the size of a full Bloom filter is unknown where
// the JSON leaves approx_size out.
func readable(secs []Section) []Section {
	for i := range secs {
		sec := &secs[i]
		kind, sized := "", false
		for j := range sec.Fields {
			f := &sec.Fields[j]
			switch name := f.Name(*sec); {
			case unixMS[name]:
				f.Value = eventTime(f.Value)
			case name == "filter.kind":
				kind = f.Value
			case name == "filter.approx_size":
				sized = true
			}
		}
		if sec.Name == "filter" && bitFilters[kind] && !sized {
			sec.Fields = append(sec.Fields, Field{Key: "approx_size", Value: "unknown: every bit is set, so the fill bounds nothing"})
		}
	}
	return secs
}

// eventTime writes Unix milliseconds as a UTC time and the number; 0 is
// no watermark yet.
func eventTime(ms string) string {
	n, err := strconv.ParseInt(ms, 10, 64)
	switch {
	case err != nil:
		return ms
	case n == 0:
		return "none yet (0)"
	}
	return time.UnixMilli(n).UTC().Format("2006-01-02 15:04:05.000") + " (" + ms + ")"
}

// rounded writes a fractional number to four significant digits: the
// JSON report keeps every digit, a person reads these.
func rounded(n json.Number) string {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	v, err := n.Float64()
	if err != nil || v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return s
	}
	digits := max(3-int(math.Floor(math.Log10(math.Abs(v)))), 0)
	out := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
}

// flatten adds key (and, for a nested object, its fields as key.sub).
func flatten(sec *Section, key string, v any) {
	switch v := v.(type) {
	case orderedObject:
		for _, f := range v {
			flatten(sec, key+"."+f.key, f.value)
		}
	case []any:
		parts := make([]string, 0, len(v))
		for _, item := range v {
			parts = append(parts, scalar(item))
		}
		val := strings.Join(parts, ", ")
		if len(v) == 0 {
			val = "[]"
		}
		sec.Fields = append(sec.Fields, Field{Key: key, Value: val})
	default:
		sec.Fields = append(sec.Fields, Field{Key: key, Value: scalar(v)})
	}
}

// expectation writes one checked expectation: line, expression, outcome.
func expectation(v any) string {
	o, ok := v.(orderedObject)
	if !ok {
		return scalar(v)
	}
	m := map[string]string{}
	for _, f := range o {
		m[f.key] = scalar(f.value)
	}
	mark := "✓"
	if m["ok"] != "true" {
		mark = "✗"
	}
	return fmt.Sprintf("%s line %s: %s (actual %s)", mark, m["line"], m["expr"], m["actual"])
}

func scalar(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case json.Number:
		return rounded(v)
	case bool:
		return strconv.FormatBool(v)
	case orderedObject:
		parts := make([]string, 0, len(v))
		for _, f := range v {
			parts = append(parts, f.key+"="+scalar(f.value))
		}
		return strings.Join(parts, " ")
	case []any:
		parts := make([]string, 0, len(v))
		for _, item := range v {
			parts = append(parts, scalar(item))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// orderedObject is a JSON object with its keys in the order written.
type orderedObject []member

type member struct {
	key   string
	value any
}

// UnmarshalJSON reads an object keeping its keys' order.
func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return err
	}
	obj, ok := v.(orderedObject)
	if !ok {
		return fmt.Errorf("the report is not a JSON object")
	}
	*o = obj
	return nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var obj orderedObject
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, member{key, v})
			}
			_, err := dec.Token() // '}'
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
	}
	return tok, nil
}
