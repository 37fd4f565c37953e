package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/dialog/palette"
	"github.com/streamlab/streamlab/tui/dialog/picker"
	"github.com/streamlab/streamlab/tui/home"
	"github.com/streamlab/streamlab/tui/pane/events"
	"github.com/streamlab/streamlab/tui/pane/filterpane"
	"github.com/streamlab/streamlab/tui/pane/ledger"
	"github.com/streamlab/streamlab/tui/pane/lessonpane"
	"github.com/streamlab/streamlab/tui/pane/output"
	"github.com/streamlab/streamlab/tui/pane/pipeline"
	"github.com/streamlab/streamlab/tui/runs"
)

// KeyMapMarkdown renders every screen's and pane's key map as a Markdown
// table, from the same bindings the handlers and the help bar use: the
// README's key map is this text, so it cannot drift from the program.
func KeyMapMarkdown() string {
	sections := []struct {
		where string
		keys  interface{ FullHelp() [][]key.Binding }
	}{
		{"Lab, any pane", DefaultLabKeys()},
		{"Pipeline pane", pipeline.DefaultKeyMap()},
		{"Output pane", output.DefaultKeyMap()},
		{"Ledger pane", ledger.DefaultKeyMap()},
		{"Filter pane", filterpane.DefaultKeyMap()},
		{"Events pane", events.DefaultKeyMap()},
		{"Events, full screen", DefaultEventsScreenKeys()},
		{"Command palette", palette.DefaultKeyMap()},
		{"Setting pickers", picker.DefaultKeyMap()},
		{"Restart question", DefaultConfirmKeys()},
		{"Leaving a lesson", DefaultLeaveKeys()},
		{"Lesson or exercise", lessonpane.DefaultKeyMap()},
		{"Check's answer", lessonpane.DefaultAnswerKeyMap()},
		{"Charts of your runs", runs.DefaultKeyMap()},
		{"Home", home.DefaultKeyMap()},
		{"Home, anywhere", DefaultHomeKeys()},
	}
	var b strings.Builder
	b.WriteString("| where | key | does |\n|---|---|---|\n")
	for _, s := range sections {
		for _, group := range s.keys.FullHelp() {
			for _, k := range group {
				h := k.Help()
				fmt.Fprintf(&b, "| %s | `%s` | %s |\n", s.where, strings.ReplaceAll(h.Key, "|", "\\|"), h.Desc)
			}
		}
	}
	return b.String()
}
