// Command streamlab is a terminal teaching lab for fault tolerance in stream
// processing. The command line lives in package cli; this file only hands it
// the process's arguments, streams and build stamp.
package main

import (
	"os"

	"github.com/streamlab/streamlab/cli"
)

// version and commit are stamped in by the Makefile:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234"
var (
	version string
	commit  string
)

func main() {
	os.Exit(cli.Main(cli.Build{Version: version, Commit: commit}, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
