package bridge

import "github.com/streamlab/streamlab/engine/script"

// recorder keeps the session as lab-script lines, in an order that
// replays: the job and set lines that began it, then everything the
// learner did, admissions included.
type recorder struct {
	// lines are every recorded line. They are only ever appended to or
	// copied, never written in place: frames already sent share them.
	lines []string
	// lineNo is the number of the last line in the saved file, whose
	// header lines it counts, so that an expect's line is the same live
	// and saved.
	lineNo int
	// prelude is the session's job and set lines; settings what they
	// chose, completed with the session's defaults.
	prelude  []string
	settings map[string]string
}

// begin starts the recording of a session configured by prelude.
func (r *recorder) begin(prelude []string, settings map[string]string) {
	r.prelude = append([]string(nil), prelude...)
	r.lines = append([]string(nil), prelude...) // a new array: old frames keep theirs
	r.settings = settings
	r.lineNo = headerLines + len(prelude)
}

// add appends a line.
func (r *recorder) add(line string) {
	r.lines = append(r.lines, line)
	r.lineNo++
}

// configured notes a job or set line the session took after it began.
func (r *recorder) configured(line string, settings map[string]string) {
	r.prelude = append(r.prelude, line)
	r.settings = settings
}

// insert puts line before the line at index i, in a new array: old
// frames keep theirs.
func (r *recorder) insert(i int, line string) {
	lines := make([]string, 0, len(r.lines)+1)
	lines = append(lines, r.lines[:i]...)
	lines = append(lines, line)
	r.lines = append(lines, r.lines[i:]...)
	r.lineNo++
}

// last is the index of the last line recorded.
func (r *recorder) last() int { return len(r.lines) - 1 }

// nextLine is the number the next line gets.
func (r *recorder) nextLine() int { return r.lineNo + 1 }

// shared is the recording for a frame: appending to it never writes
// into the array the recorder goes on with.
func (r *recorder) shared() []string { return r.lines[:len(r.lines):len(r.lines)] }

// nearlyFull reports whether the recording is about to outgrow a script:
// within a hundred lines of the most a script may have.
func (r *recorder) nearlyFull() bool { return len(r.lines) >= script.MaxLines-100 }
