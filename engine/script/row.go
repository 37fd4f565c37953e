package script

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/streamlab/streamlab/internal/poserr"
)

// RowKind says how a ROW of `why ROW` names a sink row.
type RowKind uint8

// The ways to name a row.
const (
	// RowWindow is an aggregation's row: KEY@HH:MM:SS, the key and the
	// window's start as the Output pane shows them (a time of day, UTC),
	// or KEY@MS with the start in Unix milliseconds.
	RowWindow RowKind = iota + 1
	// RowOffset is an event by its source offset: #N as the Output pane
	// shows it, or offset=N (in a lab line '#' starts a comment, so #N
	// must be quoted there).
	RowOffset
	// RowID is an event by its record id, a bare number.
	RowID
)

// Row is the row `why ROW` (and `streamlab run --explain ROW`) asks about.
type Row struct {
	Kind RowKind
	Key  string // RowWindow
	// Clock is the window's start as a time of day (ms since midnight,
	// UTC) when HasClock; Start is it in Unix ms otherwise.
	Clock, Start int64
	HasClock     bool
	Offset       int64  // RowOffset
	ID           uint64 // RowID
}

// offsetPrefix names an event by offset where '#' would start a comment.
const offsetPrefix = "offset="

// RowUsage says what a ROW is, for errors and help.
const RowUsage = `a row as the Output pane shows it: KEY@HH:MM:SS for a window's count (e.g. click@12:00:10), offset=N or "#N" for an event at source offset N (e.g. offset=1204), or an event's record id (e.g. 4021)`

// ParseRow reads a ROW. Its errors say what was expected.
func ParseRow(s string) (Row, error) {
	switch {
	case s == "":
		return Row{}, fmt.Errorf("missing row: expected %s", RowUsage)
	case strings.ContainsAny(s, " \t"):
		return Row{}, fmt.Errorf("a row has no spaces, got %q: expected %s", s, RowUsage)
	case strings.HasPrefix(s, "#"), strings.HasPrefix(s, offsetPrefix):
		digits := strings.TrimPrefix(strings.TrimPrefix(s, "#"), offsetPrefix)
		off, err := parseCount(digits)
		if err != nil {
			return Row{}, fmt.Errorf("%q is not a source offset: expected offset=N or #N with N a non-negative number, e.g. offset=1204", s)
		}
		return Row{Kind: RowOffset, Offset: off}, nil
	case isDigit(s[0]) && !strings.Contains(s, "@"):
		id, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return Row{}, fmt.Errorf("%q is not a record id: expected a whole number up to %d", s, uint64(1<<64-1))
		}
		return Row{Kind: RowID, ID: id}, nil
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return Row{}, fmt.Errorf("%q names no row: expected %s", s, RowUsage)
	}
	key, when := s[:at], s[at+1:]
	if key == "" {
		return Row{}, fmt.Errorf("%q has no key before @: expected KEY@HH:MM:SS, e.g. click@12:00:10", s)
	}
	if ms, err := strconv.ParseInt(when, 10, 64); err == nil {
		return Row{Kind: RowWindow, Key: key, Start: ms}, nil
	}
	clock, ok := parseClock(when)
	if !ok {
		return Row{}, fmt.Errorf("%q after @ is not a window start: expected HH:MM:SS (the time of day the Output pane shows) or Unix milliseconds", when)
	}
	return Row{Kind: RowWindow, Key: key, Clock: clock, HasClock: true}, nil
}

// parseClock reads HH:MM:SS or HH:MM as milliseconds since midnight.
func parseClock(s string) (int64, bool) {
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.Parse(layout, s); err == nil && len(s) == len(layout) {
			return int64(t.Hour()*3600+t.Minute()*60+t.Second()) * 1000, true
		}
	}
	return 0, false
}

// String writes the row back in the form ParseRow reads.
func (r Row) String() string {
	switch r.Kind {
	case RowOffset:
		return offsetPrefix + strconv.FormatInt(r.Offset, 10)
	case RowID:
		return strconv.FormatUint(r.ID, 10)
	case RowWindow:
		if r.HasClock {
			return r.Key + "@" + time.UnixMilli(r.Clock).UTC().Format("15:04:05")
		}
		return r.Key + "@" + strconv.FormatInt(r.Start, 10)
	}
	return ""
}

// parseWhy reads `why ROW`; line is the whole line, to tell a learner who
// copied #N from the Output pane why nothing was read.
func parseWhy(c *Command, line string, toks []token, missing int) *poserr.Error {
	switch {
	case len(toks) == 0 && strings.Contains(line, "#"):
		return errAt(missing, `'#' starts a comment, so why read no row: write offset=N, or quote it: why "#1204"`)
	case len(toks) == 0:
		return errAt(missing, "why needs a row: %s", RowUsage)
	case len(toks) > 1:
		return errAt(toks[1].col, "why takes one row, got extra %q", toks[1].text)
	}
	if _, err := ParseRow(toks[0].text); err != nil {
		return errAt(toks[0].col, "%v", err)
	}
	c.addArgs(toks)
	return nil
}
