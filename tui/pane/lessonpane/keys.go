package lessonpane

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/streamlab/streamlab/tui/draw"
)

// KeyMap is the lesson pane's keys. Hint, Answer and Grade work whichever
// pane has the focus (in a lesson; Grade in an exercise); the scrolling
// keys move the pane's text, PageUp and PageDown from anywhere, Up and
// Down when the pane has the focus. Next goes on from a step the learner
// has done (or has it judged now, mid-run).
type KeyMap struct {
	Hint, Answer, Grade, Next key.Binding
	Up, Down, PageUp, PageDn  key.Binding
}

// DefaultKeyMap is the lesson pane's key map.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Hint:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "next hint")),
		Answer: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "answer the check")),
		Grade:  key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "grade this session")),
		Next:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next step")),
		Up:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "scroll the lesson up")),
		Down:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll the lesson down")),
		PageUp: key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page the lesson up")),
		PageDn: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page the lesson down")),
	}
}

// ShortHelp lists the pane's keys for the help bar.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Hint, k.Answer, k.Grade, draw.KeyPair(k.PageUp, k.PageDn, "page the lesson")}
}

// FullHelp lists every key of the pane.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Hint, k.Answer, k.Grade}, {k.Up, k.Down, k.PageUp, k.PageDn}}
}

// AnswerKeyMap is the check's answer prompt's keys.
type AnswerKeyMap struct {
	Submit, Cancel key.Binding
}

// DefaultAnswerKeyMap is the answer prompt's key map.
func DefaultAnswerKeyMap() AnswerKeyMap {
	return AnswerKeyMap{
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "submit the answer")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "put the question aside")),
	}
}

// ShortHelp lists the prompt's keys.
func (k AnswerKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Submit, k.Cancel} }

// FullHelp lists the prompt's keys.
func (k AnswerKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Submit, k.Cancel}} }
