// Package question draws the lab's yes-or-no questions (restart the job
// with a setting, leave the lesson, kill a node) as a box over the middle
// of the screen. It only draws: the lab keeps the questions' keys and what
// each answer does.
package question

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/tui/draw"
	"github.com/streamlab/streamlab/tui/styles"
)

// Box draws a question titled title over the middle of body, on a screen w
// wide: a box as wide as the text's widest line, within the screen.
func Box(st *styles.Styles, w int, body []string, title string, text []string) []string {
	textW := 0
	for _, l := range text {
		textW = max(textW, ansi.StringWidth(l))
	}
	textW = min(textW+2, w-4)
	box := draw.Box(st.Modal, title, text, textW+2, len(text)+2)
	return draw.Overlay(body, box, max((w-textW-2)/2, 0), max((len(body)-len(box))/2, 0))
}

// Restart asks whether to restart the job, in state (the engine's job
// state), from the beginning with the set or job line.
func Restart(st *styles.Styles, w int, body []string, state engine.JobState, line string) []string {
	started := "The job is already running"
	switch state {
	case engine.StateFailed:
		started = "The job has failed"
	case engine.StateFinished:
		started = "The job has finished"
	}
	text := []string{
		started + ", and settings are fixed",
		"when it starts. Restart it from the beginning with",
		"",
		"  " + st.Accent.Render(line),
		"",
		st.Muted.Render("(the session's script keeps your settings, not the runs)"),
		"",
		st.Accent.Render("y") + " restart   " + st.Accent.Render("n") + " leave it as it is",
	}
	return Box(st, w, body, "Restart the job?", text)
}

// Leave asks whether to leave the lesson for the home screen, saying what
// is kept: done of its steps, saved or kept only while the lab is open.
func Leave(st *styles.Styles, w int, body []string, saved bool, done, steps int) []string {
	kept := "Your progress is saved"
	if !saved {
		kept = "Your progress is kept while the lab is open"
	}
	text := []string{
		"Leave the lesson for the home screen?",
		"",
		st.Muted.Render(fmt.Sprintf("%s (%d of %d steps done);", kept, done, steps)),
		st.Muted.Render("the lesson picks up again when you open it."),
		"",
		st.Accent.Render("y") + " leave   " + st.Accent.Render("n") + " stay",
	}
	return Box(st, w, body, "Leave the lesson?", text)
}

// Kill asks how node fails, naming what goes with it either way; the job
// manager (jobManager) runs no task, so it can only be killed.
func Kill(st *styles.Styles, w int, body []string, node string, jobManager bool) []string {
	whats := []string{
		"y  its task manager is lost: the task's state and input queue go with it, and the deployment decides what replaces it",
		"f  its task throws: state and queue go, its task manager stays, and the restart strategy's backoff alone decides when it runs again",
	}
	choices := st.Accent.Render("y") + " lose its task manager   " + st.Accent.Render("f") + " the task fails   " + st.Accent.Render("n") + " cancel"
	if jobManager {
		whats = []string{"without a standby the whole job fails with it"}
		choices = st.Accent.Render("y") + " kill it   " + st.Accent.Render("n") + " cancel"
	}
	text := []string{
		"Kill " + st.Accent.Render(node) + " now?",
		"",
	}
	for _, what := range whats {
		for _, l := range strings.Split(ansi.Wordwrap(what, min(56, w-8), " "), "\n") {
			text = append(text, st.Muted.Render(l))
		}
	}
	text = append(text, "", choices)
	return Box(st, w, body, "Kill "+node+"?", text)
}
