// Package watch is the instructor's live view of a class (`streamlab serve
// --watch`, `streamlab class status --watch`): every student with whether
// their lab is open, the lesson and step they are at, what their lab costs
// the server, and their grades, read again every second, with the server's
// last log lines below.
package watch

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/streamlab/streamlab/classroom"
	"github.com/streamlab/streamlab/internal/untrusted"
	"github.com/streamlab/streamlab/tui/draw"
)

// Snapshot is what the view shows: the class, who is online, what their
// labs cost the server at At, the log.
type Snapshot struct {
	Class  *classroom.Class
	Online map[string]bool
	Usage  map[string]classroom.Usage
	At     time.Time
	Log    []string
	Err    error
}

// Source reads a snapshot; it runs in a command, off the Update loop.
type Source func(ctx context.Context) Snapshot

// Every is how often the view reads the class again.
const Every = time.Second

// Model is the live view.
type Model struct {
	title string
	src   Source
	snap  Snapshot
	// prev is the snapshot before snap: a lab's CPU share is the CPU
	// time it took between the two over the time between them.
	prev Snapshot
	w, h int
	quit key.Binding
	// quits says what quitting does, at the foot of the view.
	quits string
	bold  lipgloss.Style
	muted lipgloss.Style
}

// New makes the view; title says what is served (the address).
func New(title string, src Source) Model {
	return Model{
		title: title, src: src,
		quit:  key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "stop the server")),
		quits: "q stops the server",
		bold:  lipgloss.NewStyle().Bold(true),
		muted: lipgloss.NewStyle().Faint(true),
	}
}

// Watching is the view for a terminal other than the server's: q quits
// the view and leaves the server running.
func (m Model) Watching() Model {
	m.quit.SetHelp("q", "quit")
	m.quits = "q quits"
	return m
}

type snapMsg Snapshot
type tickMsg struct{}

// read returns the command that reads a snapshot.
func (m Model) read() tea.Cmd {
	src := m.src
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return snapMsg(src(ctx))
	}
}

// Init reads the class at once.
func (m Model) Init() tea.Cmd { return m.read() }

// Update takes snapshots, the ticks between them, sizes and keys.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case snapMsg:
		// A read of the same moment (a server's live file not yet
		// rewritten) keeps the earlier moment to compare with.
		if !msg.At.Equal(m.snap.At) {
			m.prev = m.snap
		}
		m.snap = Snapshot(msg)
		return m, tea.Tick(Every, func(time.Time) tea.Msg { return tickMsg{} })
	case tickMsg:
		return m, m.read()
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		if key.Matches(msg, m.quit) {
			return m, tea.Quit
		}
	}
	return m, nil
}

// View draws the table.
func (m Model) View() string {
	var b strings.Builder
	c := m.snap.Class
	online := 0
	for range m.snap.Online {
		online++
	}
	students := 0
	if c != nil {
		students = len(c.Students)
	}
	b.WriteString(m.bold.Render(fmt.Sprintf("streamlab class · %s · %d online · %d students", m.title, online, students)))
	b.WriteString("\n\n")
	if m.snap.Err != nil {
		b.WriteString("cannot read the class: " + m.snap.Err.Error() + "\n")
	}
	rows := 0
	if c != nil {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\tSTUDENT\tLESSONS\tNOW IN\tCPU\tHOLDS\tEXERCISES\tSCORE")
		for _, s := range c.Students {
			dot := " "
			if m.snap.Online[s.ID] {
				dot = "●"
			}
			now := "all done"
			if s.Lesson != "" {
				now = s.LessonTitle + " · " + s.Step
			}
			answered, passed := 0, 0
			for _, g := range s.Grades {
				if g.Answered {
					answered++
				}
				if g.Passed {
					passed++
				}
			}
			cpu, holds := m.usage(s.ID)
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\t%s\t%d/%d passed\t%g/%g\n", dot, untrusted.Quote(s.Name, 24),
				s.LessonsDone, c.Lessons, now, cpu, holds, passed, answered, s.Score, s.MaxScore)
			rows++
		}
		tw.Flush()
	}
	used := rows + 4
	if len(m.snap.Log) > 0 {
		b.WriteString("\n")
		n := len(m.snap.Log)
		if m.h > 0 {
			n = min(n, max(m.h-used-3, 1))
		}
		for _, l := range m.snap.Log[len(m.snap.Log)-n:] {
			b.WriteString(m.muted.Render(untrusted.Quote(l, max(m.w, 40))) + "\n")
		}
	}
	b.WriteString("\n" + m.muted.Render("CPU: the share of a core the lab's engine and drawing took since the last read · "+
		"HOLDS: the memory its engine holds (windows, ledger, queues, backups, checkpoints, rows, filter)"))
	b.WriteString("\n" + m.muted.Render("● lab open · refreshed every second · "+m.quits))
	return b.String()
}

// usage is student id's CPU share and engine memory as the table shows
// them: blank when their lab is closed, and no CPU share until two reads
// of the same open lab are there to compare.
func (m Model) usage(id string) (cpu, holds string) {
	now, ok := m.snap.Usage[id]
	if !ok {
		return "", ""
	}
	holds = draw.Bytes(now.Holds)
	before, ok := m.prev.Usage[id]
	elapsed := m.snap.At.Sub(m.prev.At)
	if !ok || elapsed <= 0 || now.CPU < before.CPU {
		return "…", holds
	}
	return fmt.Sprintf("%.0f%%", 100*(now.CPU-before.CPU).Seconds()/elapsed.Seconds()), holds
}
