// Package palette is the lab's command palette: one line where the learner
// types any lab-script line (`:kill count[1]`, `:set mode append`,
// `:expect lost == 0`, `:why click@12:00:10` for a row's provenance), with history and tab completion of verbs, setting
// keys, values and node names. The line is checked by the script parser
// as it is submitted, so a typo is answered at once, at its column.
package palette

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/internal/poserr"
	"github.com/streamlab/streamlab/tui/styles"
)

// maxHistory bounds the remembered lines.
const maxHistory = 100

// Outcome is what one key did to the palette.
type Outcome struct {
	// Submit is a line to run; empty when none was submitted.
	Submit string
	// Closed is set when the palette closed (submitted or cancelled).
	Closed bool
}

// Model is the command palette.
type Model struct {
	st      *styles.Styles
	keys    KeyMap
	input   textinput.Model
	active  bool
	history []string
	hist    int    // position while browsing the history; len(history) when not
	draft   string // what was typed before browsing
	matches []string
	err     string
	// rejected is the last line the parser refused: the input is cleared
	// so that nothing typed next is appended to it, and ↑ brings it back.
	rejected string
	nodes    []string
	width    int
}

// New returns a closed palette.
func New(st *styles.Styles) Model {
	in := textinput.New()
	in.Prompt = ":"
	in.PromptStyle = st.Prompt
	in.Placeholder = "a lab-script line: run 30s, kill count[1], set mode append … (tab completes)"
	in.CharLimit = script.MaxLineBytes
	return Model{st: st, keys: DefaultKeyMap(), input: in}
}

// Keys is the palette's key map.
func (m Model) Keys() KeyMap { return m.keys }

// Active reports whether the palette is open.
func (m Model) Active() bool { return m.active }

// Value is the line being typed.
func (m Model) Value() string { return m.input.Value() }

// Err is the syntax error of the last submission, if any.
func (m Model) Err() string { return m.err }

// Matches are the completions the last tab found.
func (m Model) Matches() []string { return m.matches }

// SetNodes sets the node names completion offers.
func (m *Model) SetNodes(nodes []string) { m.nodes = nodes }

// SetWidth sets the width of the palette's line.
func (m *Model) SetWidth(w int) {
	m.width = w
	m.input.Width = max(w-2, 1)
}

// Open opens the palette, empty, with the cursor in it.
func (m *Model) Open() tea.Cmd {
	m.active, m.err, m.matches, m.rejected = true, "", nil, ""
	m.hist, m.draft = len(m.history), ""
	m.input.SetValue("")
	return m.input.Focus()
}

// Close closes the palette, dropping what was typed.
func (m *Model) Close() {
	m.active = false
	m.input.Blur()
	m.input.SetValue("")
}

// History is the submitted lines, oldest first.
func (m Model) History() []string { return m.history }

// Update handles a key while the palette is open.
func (m Model) Update(msg tea.Msg) (Model, Outcome, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, Outcome{}, cmd
	}
	if !key.Matches(k, m.keys.Complete) {
		m.matches = nil
	}
	switch {
	case key.Matches(k, m.keys.Close):
		m.Close()
		return m, Outcome{Closed: true}, nil
	case key.Matches(k, m.keys.Run):
		return m.submit()
	case key.Matches(k, m.keys.Prev):
		m.browse(-1)
		return m, Outcome{}, nil
	case key.Matches(k, m.keys.Next):
		m.browse(+1)
		return m, Outcome{}, nil
	case key.Matches(k, m.keys.Complete):
		m.complete()
		return m, Outcome{}, nil
	}
	m.err = ""
	// The prompt is a colon already: one typed out of habit at the start
	// of a line (after a refusal, say) is not part of it.
	if m.input.Value() == "" && k.Type == tea.KeyRunes && string(k.Runes) == ":" {
		return m, Outcome{}, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, Outcome{}, cmd
}

// submit checks the line's syntax: a bad line is replaced by the error,
// at its column, until the next key (↑ brings the line back to edit); a
// good one goes into the history and out to be run.
func (m Model) submit() (Model, Outcome, tea.Cmd) {
	line := strings.TrimSpace(m.input.Value())
	if line == "" {
		m.Close()
		return m, Outcome{Closed: true}, nil
	}
	if _, err := script.ParseLine("palette", 1, line); err != nil {
		m.err = err.Error()
		if pe, ok := poserr.As(err, nil); ok {
			m.err = pe.Msg
			if pe.Col > 0 {
				m.err = fmt.Sprintf("column %d: %s", pe.Col, pe.Msg)
			}
		}
		m.rejected = line
		m.input.SetValue("")
		return m, Outcome{}, nil
	}
	if n := len(m.history); n == 0 || m.history[n-1] != line {
		m.history = append(m.history, line)
		if len(m.history) > maxHistory {
			m.history = m.history[1:]
		}
	}
	m.Close()
	return m, Outcome{Submit: line, Closed: true}, nil
}

// browse moves through the history; past the newest line is the draft.
func (m *Model) browse(d int) {
	if m.rejected != "" {
		if d < 0 && m.input.Value() == "" {
			m.input.SetValue(m.rejected)
			m.input.CursorEnd()
			m.rejected = ""
			return
		}
		m.rejected = ""
	}
	if len(m.history) == 0 {
		return
	}
	if m.hist == len(m.history) {
		m.draft = m.input.Value()
	}
	m.hist = min(max(m.hist+d, 0), len(m.history))
	if m.hist == len(m.history) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(m.history[m.hist])
	}
	m.input.CursorEnd()
}

// complete completes the word before the cursor (at the end of the line),
// cycling through the matches when it can go no further.
func (m *Model) complete() {
	line := m.input.Value()
	if len(m.matches) > 1 { // the previous key was a tab that found several
		m.input.SetValue(cycle(line, m.matches))
		m.input.CursorEnd()
		return
	}
	next, matches := complete(line, m.nodes)
	if next == line && len(matches) > 1 {
		next = cycle(line, matches)
	}
	m.matches = matches
	m.input.SetValue(next)
	m.input.CursorEnd()
}

// View draws the palette's line (and, under it, nothing: the error and the
// matches go on the line itself to keep the layout fixed). An error takes
// the line's place, so that it is never cut off behind a long input.
func (m Model) View() string {
	if m.err != "" {
		return m.st.Prompt.Render(":") + m.st.Bad.Render("✗ "+m.err) + m.st.Muted.Render("  (↑ edits the line)")
	}
	line := m.input.View()
	switch {
	case len(m.matches) > 1:
		line += "  " + m.st.Muted.Render(strings.Join(m.matches, " "))
	}
	return line
}
