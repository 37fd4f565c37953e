package watch

import (
	"strings"
	"sync"
)

// keepLines is how many log lines Log keeps.
const keepLines = 100

// Log keeps the last lines written to it, for the view to show the
// server's log under the table instead of over it.
type Log struct {
	mu      sync.Mutex
	lines   []string
	partial string
}

// Write takes log text; complete lines are kept.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	text := l.partial + string(p)
	parts := strings.Split(text, "\n")
	l.partial = parts[len(parts)-1]
	l.lines = append(l.lines, parts[:len(parts)-1]...)
	if len(l.lines) > keepLines {
		l.lines = append([]string(nil), l.lines[len(l.lines)-keepLines:]...)
	}
	return len(p), nil
}

// Lines returns a copy of the lines kept.
func (l *Log) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}
