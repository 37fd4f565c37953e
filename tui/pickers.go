package tui

import (
	"github.com/streamlab/streamlab/engine/lab"
	"github.com/streamlab/streamlab/tui/bridge"
	"github.com/streamlab/streamlab/tui/dialog/picker"
)

// pickerTitles name the pickers.
var pickerTitles = map[string]string{
	"mode": "Output mode", "sink": "Sink", "semantics": "Semantics", "ha": "High availability", "filter": "Membership filter",
}

// options lists a setting's choices in the order the palette knows them.
func options(key string) []picker.Option {
	st, _ := lab.LookupSetting(key)
	out := make([]picker.Option, 0, len(st.Choices))
	for _, c := range st.Choices {
		out = append(out, picker.Option{Value: c.Value, Doc: c.Doc})
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
		current = string(m.frame.Snap.HA) // what the guarantee brought along
	}
	m.picker.Open(key, pickerTitles[key], opts, current)
	values := make([]string, len(opts))
	for i, o := range opts {
		values[i] = o.Value
	}
	m.send(bridge.Request{Kind: bridge.CheckChoices, Line: key, Lines: values})
}
