package classroom

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/script"
	"github.com/streamlab/streamlab/tui/bridge"
)

// errJobFile is why a student's lab refuses a job file.
var errJobFile = errors.New("only built-in jobs (" + strings.Join(jobspec.Names(), ", ") +
	") and a lesson's own files open here")

// errConcurrent is why a student's lab keeps the deterministic executor.
var errConcurrent = errors.New("a served lab runs the deterministic executor: the concurrent one's goroutines would escape the lab's share of the server's cores and its memory budget")

// jobGuard keeps a student's lab from reading the server's files: a `job`
// line typed in the lab may name a built-in job or, in a lesson, one of
// the files the lesson wrote to the student's own workspace, and nothing
// else (on a laptop `job FILE` opens any job file; on a server it would
// show a remote student the start of any file the server can read).
//
// The guard sees the requests in order from the lab's one Update loop, so
// it follows which lesson is open without a lock.
func jobGuard() func(bridge.Request) error {
	workspace := ""
	return func(r bridge.Request) error {
		switch r.Kind {
		case bridge.OpenSession:
			// A lesson's session resolves its files in its workspace; an
			// exercise's scenario comes from the built-in pack.
			workspace = ""
			if r.Lesson != nil {
				workspace = r.Workspace
			}
		case bridge.Open:
			workspace = ""
		case bridge.Line, bridge.Reconfigure:
			if err := checkExecutorLine(r.Line); err != nil {
				return err
			}
			return checkJobLine(r.Line, workspace)
		}
		return nil
	}
}

// checkExecutorLine refuses `set executor concurrent`: the server paces
// and bounds each lab's run as its one goroutine steps it (see turns and
// engine.Config.MemoryBudget), which a goroutine per node would escape.
func checkExecutorLine(line string) error {
	c, err := script.ParseLine("line", 1, line)
	if err != nil || c.Verb != script.VerbSet || len(c.Args) < 2 {
		return nil
	}
	if c.Args[0].Text == "executor" && engine.Executor(c.Args[1].Text) == engine.ExecConcurrent {
		return errConcurrent
	}
	return nil
}

// checkJobLine refuses a job line naming a file that is not a lesson's
// own file in workspace.
func checkJobLine(line, workspace string) error {
	c, err := script.ParseLine("line", 1, line)
	if err != nil || c.Verb != script.VerbJob || len(c.Args) == 0 {
		return nil // the engine says what is wrong with the line
	}
	arg := c.Args[0].Text
	if _, ok := jobspec.Builtin(arg); ok {
		return nil
	}
	if workspace == "" || arg != filepath.Base(arg) || strings.HasPrefix(arg, ".") || strings.ContainsAny(arg, `/\`) {
		return errJobFile
	}
	info, err := os.Lstat(filepath.Join(workspace, arg))
	if err != nil || !info.Mode().IsRegular() {
		return errJobFile
	}
	return nil
}
