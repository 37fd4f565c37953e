package tui

import (
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/dialog/palette"
	"github.com/streamlab/streamlab/tui/dialog/picker"
)

// settingDocs explain each choice in a few words, for the pickers.
var settingDocs = map[string]map[string]string{
	"mode": {
		"append":   "only new rows, each once",
		"update":   "rows that changed",
		"complete": "the whole result every trigger",
	},
	"sink": {
		"log":   "append-only lines",
		"table": "SQLite table updated in place",
	},
	"semantics": {
		"at-most-once":  "gap recovery: may lose",
		"at-least-once": "rollback recovery: may duplicate",
		"exactly-once":  "precise recovery",
	},
	"ha": {
		"none":            "amnesia: state is lost",
		"upstream-backup": "upstream replays its buffer",
		"passive-standby": "checkpoints, restore on failure",
		"active-standby":  "a twin processes everything",
	},
	"filter": {
		"none":                  "no dedup stage",
		"exact":                 "an exact set of ids",
		"bloom n=10000 p=0.01":  "Bloom filter, 1% false positives",
		"bloom n=10000 p=0.001": "Bloom filter, 0.1% false positives",
	},
}

// pickerTitles name the pickers.
var pickerTitles = map[string]string{
	"mode": "Output mode", "sink": "Sink", "semantics": "Semantics", "ha": "High availability", "filter": "Membership filter",
}

// options lists a setting's choices in the order the palette knows them.
func options(key string) []picker.Option {
	values := palette.Values[key]
	if key == "filter" {
		values = []string{"none", "exact", "bloom n=10000 p=0.01", "bloom n=10000 p=0.001"}
	}
	out := make([]picker.Option, 0, len(values))
	for _, v := range values {
		out = append(out, picker.Option{Value: v, Doc: settingDocs[key][v]})
	}
	return out
}

// openPicker opens the picker for a setting, on its current value.
// The bridge is asked which choices the engine would refuse with the
// other settings as they are; the picker marks them when it answers.
func (m *Model) openPicker(key string) {
	opts := options(key)
	current := m.frame.Settings[key]
	if key == "ha" && m.frame.Snap.HA != "" {
		current = m.frame.Snap.HA // what the guarantee brought along
	}
	m.picker.Open(key, pickerTitles[key], opts, current)
	values := make([]string, len(opts))
	for i, o := range opts {
		values[i] = o.Value
	}
	m.send(bridge.Request{Kind: bridge.CheckChoices, Line: key, Lines: values})
}
